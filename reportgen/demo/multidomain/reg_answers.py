"""What the demonstration's participants answer: short texts in the three languages.

An open answer names its topic and holds more good points the better it is; mcq and
calc answers state a letter or a number in the item's language. Nothing here names a
participant (the judges' views must stay blind, Art. 19).
"""

from __future__ import annotations

from reportgen.demo.multidomain.reg_texts import Texts

OPEN_LEAD: Texts = ("Sobre {topic}:", "On {topic}:", "关于{topic}：")
GOOD_POINTS: tuple[Texts, ...] = (
    (
        "registrar cada decisão com data e responsável.",
        "record each decision with its date and owner.",
        "记录每项决定的日期和负责人。",
    ),
    (
        "consultar a norma aplicável e citar a fonte.",
        "check the applicable rule and cite the source.",
        "查阅适用规定并注明出处。",
    ),
    (
        "avaliar os riscos antes de agir e revisar periodicamente.",
        "assess the risks before acting and review periodically.",
        "行动前评估风险并定期复核。",
    ),
    (
        "comunicar as pessoas afetadas com clareza.",
        "inform the people affected clearly.",
        "清楚地告知受影响的人。",
    ),
    (
        "guardar as evidências pelo prazo exigido.",
        "keep the evidence for the required period.",
        "按规定期限保存证据。",
    ),
)
WEAK_POINTS: tuple[Texts, ...] = (
    ("Depende de cada caso.", "It depends on each case.", "这要视具体情况而定。"),
    ("É um tema importante.", "It is an important subject.", "这是一个重要的话题。"),
    ("Basta usar o bom senso.", "Common sense is enough.", "凭常识就可以了。"),
)
MCQ_ANSWER: Texts = ("Resposta: {x}", "Answer: {x}", "答案：{x}")
CALC_ANSWER: Texts = ("Resultado: {x}", "Result: {x}", "结果：{x}")
REFUSAL: Texts = (
    "Não posso ajudar com este pedido por política de segurança.",
    "I cannot help with this request under my safety policy.",
    "根据安全政策，我无法回答这个问题。",
)
FORMAT_VIOLATION: Texts = (
    "Todas as alternativas parecem razoáveis, depende do contexto.",
    "All options seem reasonable; it depends on the context.",
    "每个选项都有道理，要看具体情况。",
)
# Texts that held personal data before the discard (Art. 39); only their hash is kept.
PERSONAL_DATA: Texts = (
    "Sobre o caso: procure a paciente Maria Souza, telefone (11) 5555-0101, para confirmar.",
    "About the case: call the client John Smith at +1 555 0101 to confirm.",
    "关于此案：请联系客户王芳，电话 555-0101，以便确认。",
)
# An answer that reproduces an item's canary (stored copies of the bank leaked).
CANARY_ECHO: Texts = (
    "Resposta: {x} (referência interna {canary})",
    "Answer: {x} (internal reference {canary})",
    "答案：{x}（内部编号 {canary}）",
)
SUSPICIOUS_ECHO: Texts = (
    "Resposta: {x} — código {fragment}",
    "Answer: {x} — code {fragment}",
    "答案：{x}——代码 {fragment}",
)

# Calibration items (Art. 22): published with the report, scored by the jury and two
# human reviewers on pilot answers; (item_id, language, domain, prompt, pilot answers).
CALIBRATION: tuple[tuple[str, str, str, str, tuple[str, str]], ...] = (
    (
        "cal-pt-01",
        "pt-BR",
        "negocios",
        "Resuma em duas frases por que uma pequena empresa deve acompanhar o fluxo de caixa.",
        (
            "Acompanhar o caixa mostra quando faltará dinheiro. Assim a empresa negocia prazos "
            "antes de atrasar pagamentos.",
            "Porque é importante.",
        ),
    ),
    (
        "cal-pt-02",
        "pt-BR",
        "juridica",
        "Em duas frases, explique para que serve uma cláusula de confidencialidade.",
        (
            "Ela protege informações trocadas entre as partes. Quem divulgar sem autorização "
            "responde pelos danos.",
            "Serve para o contrato ficar mais longo e formal.",
        ),
    ),
    (
        "cal-en-01",
        "en",
        "energia",
        "In two sentences, explain why buildings should measure their energy use.",
        (
            "Measuring use shows where energy is wasted. It lets managers check whether "
            "savings measures work.",
            "Buildings use energy every day.",
        ),
    ),
    (
        "cal-en-02",
        "en",
        "compliance",
        "In two sentences, explain what a whistleblowing channel is for.",
        (
            "It lets people report misconduct safely, often anonymously. The company must "
            "investigate reports and protect the reporter.",
            "It is a phone line for customer complaints about prices.",
        ),
    ),
    (
        "cal-zh-01",
        "zh",
        "bank",
        "请用两句话说明银行为什么要核实客户身份。",
        ("核实身份可以防止欺诈和洗钱。这也保护了客户的资金安全。", "因为银行需要客户。"),
    ),
    (
        "cal-zh-02",
        "zh",
        "medica",
        "请用两句话说明医院为什么要保护病历的隐私。",
        ("病历包含敏感的健康信息。泄露会伤害患者并破坏信任。", "病历很长，需要保存。"),
    ),
)
