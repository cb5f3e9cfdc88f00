"""The texts of the REG-BC-2026-001 demonstration round's items, in pt-BR, en and zh.

Every text is ours: short, respectful professional prompts built from a topic and a
frame, so that 700 items stay distinct and the archive stays small. Tuples hold the
three languages in the round's order (pt-BR, en, zh).
"""

from __future__ import annotations

Texts = tuple[str, str, str]  # (pt-BR, en, zh)
LANGUAGE_INDEX = {"pt-BR": 0, "en": 1, "zh": 2}

DOMAIN_NAMES: dict[str, tuple[str, str]] = {
    "juridica": ("Jurídica", "Legal"),
    "medica": ("Médica", "Medical"),
    "proptech": ("Proptech", "Proptech"),
    "compliance": ("Compliance", "Compliance"),
    "bank": ("Bancária", "Banking"),
    "energia": ("Energia", "Energy"),
    "negocios": ("Negócios", "Business"),
}
DOMAIN_CODES = {
    "juridica": "juri",
    "medica": "medi",
    "proptech": "prop",
    "compliance": "comp",
    "bank": "bank",
    "energia": "ener",
    "negocios": "nego",
}

TOPICS: dict[str, tuple[Texts, ...]] = {
    "juridica": (
        (
            "cláusulas de confidencialidade em contratos",
            "confidentiality clauses in contracts",
            "合同中的保密条款",
        ),
        ("prazos de prescrição de dívidas", "limitation periods for debts", "债务的诉讼时效"),
        (
            "assinatura eletrônica de documentos",
            "electronic signature of documents",
            "文件的电子签名",
        ),
        ("rescisão de contratos de serviço", "termination of service contracts", "服务合同的解除"),
        (
            "proteção do consumidor em compras online",
            "consumer protection in online purchases",
            "网络购物中的消费者保护",
        ),
        ("responsabilidade civil por danos", "civil liability for damages", "损害的民事责任"),
    ),
    "medica": (
        (
            "triagem de pacientes no pronto-socorro",
            "patient triage in emergency rooms",
            "急诊室的患者分诊",
        ),
        (
            "consentimento informado para procedimentos",
            "informed consent for procedures",
            "手术的知情同意",
        ),
        ("sigilo de prontuários", "confidentiality of medical records", "病历的保密"),
        (
            "adesão ao tratamento da hipertensão",
            "adherence to hypertension treatment",
            "高血压治疗的依从性",
        ),
        ("vacinação de adultos", "adult vaccination", "成人疫苗接种"),
        (
            "prevenção de infecções hospitalares",
            "prevention of hospital infections",
            "医院感染的预防",
        ),
    ),
    "proptech": (
        (
            "avaliação de imóveis por comparação",
            "property valuation by comparison",
            "以比较法评估房产",
        ),
        ("contratos de locação residencial", "residential lease contracts", "住宅租赁合同"),
        ("financiamento imobiliário", "mortgage financing", "房屋抵押贷款"),
        ("vistorias de entrada e saída", "move-in and move-out inspections", "入住和退房检查"),
        ("despesas comuns de condomínio", "shared condominium expenses", "物业共用费用"),
        ("registro de escrituras", "deed registration", "房产证登记"),
    ),
    "compliance": (
        ("prevenção à lavagem de dinheiro", "anti-money laundering", "反洗钱"),
        ("canais de denúncia", "whistleblowing channels", "举报渠道"),
        ("conflitos de interesses", "conflicts of interest", "利益冲突"),
        ("diligência de fornecedores", "supplier due diligence", "供应商尽职调查"),
        ("treinamento em ética", "ethics training", "道德培训"),
        ("registro de brindes e hospitalidade", "gifts and hospitality records", "礼品和招待登记"),
    ),
    "bank": (
        ("análise de crédito de pessoas físicas", "consumer credit analysis", "个人信贷分析"),
        ("juros em financiamentos", "interest on loans", "贷款利息"),
        ("prevenção a fraudes com cartão", "card fraud prevention", "银行卡欺诈防范"),
        ("abertura de conta digital", "digital account opening", "数字账户开立"),
        ("renegociação de dívidas", "debt renegotiation", "债务重新协商"),
        ("gestão de liquidez", "liquidity management", "流动性管理"),
    ),
    "energia": (
        ("geração solar distribuída", "distributed solar generation", "分布式太阳能发电"),
        ("eficiência energética em edifícios", "energy efficiency in buildings", "建筑节能"),
        ("tarifas de energia elétrica", "electricity tariffs", "电价"),
        ("manutenção de linhas de transmissão", "transmission line maintenance", "输电线路维护"),
        ("armazenamento em baterias", "battery storage", "电池储能"),
        ("segurança em subestações", "safety in substations", "变电站安全"),
    ),
    "negocios": (
        ("fluxo de caixa de pequenas empresas", "small business cash flow", "小企业的现金流"),
        ("precificação de produtos", "product pricing", "产品定价"),
        ("planejamento de estoque", "inventory planning", "库存计划"),
        ("negociação com fornecedores", "supplier negotiation", "与供应商谈判"),
        ("indicadores de desempenho", "performance indicators", "绩效指标"),
        ("abertura de uma filial", "opening a branch", "开设分店"),
    ),
}

MCQ_FRAME: Texts = (
    "Questão {n}. Sobre {topic}, qual prática é a mais adequada para uma organização? {options}",
    "Question {n}. Regarding {topic}, which practice is most appropriate for an organisation? "
    "{options}",
    "第{n}题。关于{topic}，以下哪种做法对机构最为恰当？{options}",
)
MCQ_GOOD: tuple[Texts, ...] = (
    (
        "documentar a decisão e revisá-la periodicamente",
        "document the decision and review it periodically",
        "记录决定并定期复核",
    ),
    (
        "seguir a norma aplicável e registrar a fonte consultada",
        "follow the applicable rule and record the source consulted",
        "遵守适用的规定并记录所参考的依据",
    ),
    (
        "envolver um responsável qualificado e guardar as evidências",
        "involve a qualified person in charge and keep the evidence",
        "由合格的负责人参与并保存证据",
    ),
)
MCQ_POOR: tuple[Texts, ...] = (
    (
        "ignorar o tema até surgir uma reclamação",
        "ignore the matter until a complaint arrives",
        "在出现投诉之前忽视该问题",
    ),
    (
        "decidir sem registro para ganhar tempo",
        "decide without any record to save time",
        "为节省时间而不作任何记录",
    ),
    (
        "delegar a tarefa a alguém sem treinamento",
        "hand the task to someone without training",
        "把任务交给未经培训的人",
    ),
    (
        "copiar a prática de outra empresa sem análise",
        "copy another company's practice without analysis",
        "不加分析地照搬其他公司的做法",
    ),
    ("adiar a decisão indefinidamente", "postpone the decision indefinitely", "无限期推迟决定"),
)
MCQ_WHY: Texts = (
    "A alternativa {key} é a única que combina fundamento, registro e responsável definido.",
    "Option {key} is the only one that combines a basis, a record and a named person in charge.",
    "选项{key}是唯一同时具备依据、记录和明确负责人的做法。",
)

OPEN_FRAMES: tuple[Texts, ...] = (
    (
        "Explique, em poucas linhas, como uma organização deve lidar com {topic} e quais "
        "cuidados são essenciais.",
        "Explain in a few lines how an organisation should handle {topic} and which "
        "precautions are essential.",
        "请简要说明机构应如何处理{topic}，以及哪些注意事项必不可少。",
    ),
    (
        "Descreva os principais riscos ligados a {topic} e proponha medidas práticas para "
        "reduzi-los.",
        "Describe the main risks related to {topic} and propose practical measures to reduce them.",
        "请描述与{topic}相关的主要风险，并提出降低风险的实际措施。",
    ),
    (
        "Quais critérios um profissional deve considerar ao orientar um cliente sobre {topic}? "
        "Justifique.",
        "Which criteria should a professional weigh when advising a client on {topic}? Justify.",
        "专业人员在就{topic}向客户提供建议时应考虑哪些标准？请说明理由。",
    ),
)

# Calculation frames per domain: the text, the unit, and which formula gives the key.
CALC_FRAMES: dict[str, tuple[Texts, str]] = {
    "juridica": (
        (
            "Um contrato de R$ {a} prevê multa de {b}% em caso de rescisão antecipada. Qual é "
            "o valor da multa, em reais?",
            "A contract worth {a} reais sets a {b}% penalty for early termination. What is the "
            "penalty, in reais?",
            "一份价值{a}雷亚尔的合同规定提前解约需支付{b}%的违约金。违约金是多少雷亚尔？",
        ),
        "BRL",
    ),
    "medica": (
        (
            "Um paciente de {a} kg deve receber {b} mg/kg de um medicamento em dose única. "
            "Qual é a dose total, em mg?",
            "A patient weighing {a} kg must receive {b} mg/kg of a drug in a single dose. What "
            "is the total dose, in mg?",
            "一名体重{a}公斤的患者需单次服用每公斤{b}毫克的药物。总剂量是多少毫克？",
        ),
        "mg",
    ),
    "proptech": (
        (
            "Um imóvel custa R$ {a} e o comprador dá {b}% de entrada. Qual valor será "
            "financiado, em reais?",
            "A property costs {a} reais and the buyer pays a {b}% down payment. How much will "
            "be financed, in reais?",
            "一套房产售价{a}雷亚尔，买方支付{b}%的首付。需要贷款的金额是多少雷亚尔？",
        ),
        "BRL",
    ),
    "compliance": (
        (
            "Das {a} transações analisadas no mês, {b} foram sinalizadas para revisão. Qual "
            "percentual foi sinalizado?",
            "Of the {a} transactions reviewed this month, {b} were flagged for review. What "
            "percentage was flagged?",
            "本月审查的{a}笔交易中有{b}笔被标记复核。被标记的比例是百分之多少？",
        ),
        "%",
    ),
    "bank": (
        (
            "Um empréstimo de R$ {a} tem juros simples de {b}% ao mês por {c} meses. Qual é o "
            "total de juros, em reais?",
            "A loan of {a} reais carries simple interest of {b}% per month for {c} months. What "
            "is the total interest, in reais?",
            "一笔{a}雷亚尔的贷款按每月{b}%的单利计息，期限{c}个月。利息总额是多少雷亚尔？",
        ),
        "BRL",
    ),
    "energia": (
        (
            "Uma usina de {a} MW opera à potência nominal por {b} horas. Quanta energia gera, "
            "em MWh?",
            "A {a} MW plant runs at rated power for {b} hours. How much energy does it "
            "generate, in MWh?",
            "一座{a}兆瓦的电站以额定功率运行{b}小时。发电量是多少兆瓦时？",
        ),
        "MWh",
    ),
    "negocios": (
        (
            "Uma loja teve receita de R$ {a} e custos de R$ {b} no mês. Qual é a margem de "
            "lucro, em % da receita?",
            "A shop had revenue of {a} reais and costs of {b} reais this month. What is the "
            "profit margin, as a % of revenue?",
            "一家商店本月收入{a}雷亚尔，成本{b}雷亚尔。利润率占收入的百分之多少？",
        ),
        "%",
    ),
}
CALC_WHY: Texts = (
    "Conta direta com os dados do enunciado: {work}.",
    "A direct computation from the statement: {work}.",
    "根据题目数据直接计算：{work}。",
)

RUBRIC_CRITERIA: tuple[tuple[str, str, str, Texts], ...] = (
    (
        "correcao",
        "Correção",
        "Correctness",
        (
            "Afirma algo errado sobre o ponto central. / States something wrong about the "
            "central point.",
            "Acerta o ponto central, com uma imprecisão. / Gets the central point right, with "
            "one inaccuracy.",
            "Acerta o ponto central sem imprecisões. / Gets the central point right with no "
            "inaccuracy.",
        ),
    ),
    (
        "fundamentacao",
        "Fundamentação",
        "Grounding",
        (
            "Nenhum fundamento ou fonte. / No basis or source.",
            "Cita um fundamento genérico. / Cites a generic basis.",
            "Cita a norma ou o critério aplicável e o explica. / Cites the applicable rule or "
            "criterion and explains it.",
        ),
    ),
    (
        "clareza",
        "Clareza",
        "Clarity",
        (
            "Texto confuso ou fora do tema. / Confused or off-topic text.",
            "Compreensível, mas desorganizado. / Understandable but disorganised.",
            "Claro, direto e bem organizado. / Clear, direct and well organised.",
        ),
    ),
)
