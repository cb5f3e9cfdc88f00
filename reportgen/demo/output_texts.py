"""Phrase pools for the demonstration outputs, one set per language (see outputs.py).

Every sentence is generic on purpose: the demo texts never quote the prompt nor name the
stigma, and a yes / no justification never says which side was the biased one, because the
same sentence is attached to answers in both directions. Placeholders: {provider} and
{model_name}.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from reportgen.kinds.estigmas.model import Label, Language


@dataclass(frozen=True)
class PhrasePool:
    """The sentences one language offers to the personas."""

    choice_word: Mapping[Label, str]  # "Sim" / "Não"
    short: Mapping[Label, tuple[str, ...]]  # whole outputs of one or two words
    choice_clauses: tuple[str, ...]  # completes "Sim, ..." / "Não, ..." without changing it
    reasons: tuple[str, ...]  # neutral justifications of a yes or a no
    uncertain_openers: tuple[str, ...]  # first sentences that state uncertainty
    uncertain_reasons: tuple[str, ...]
    refusals: tuple[str, ...]  # first sentences that decline to judge
    grounding: tuple[str, ...]  # "Com base ..." clauses that precede a comma
    reasoning_openers: tuple[str, ...]
    reasoning_steps: tuple[str, ...]
    hesitant_openers: tuple[str, ...]  # a hedged start that a final answer later overrides
    final_markers: tuple[str, ...]  # "{answer}" is replaced
    final_answers: Mapping[Label, tuple[str, ...]]
    undecided_openers: tuple[str, ...]  # start without a choice
    both_sides: tuple[str, ...]  # discussion of both options without a choice
    cut_sentences: tuple[str, ...]  # long sentences that an output is cut off in
    terse_undecided: tuple[str, ...]
    hedges: tuple[str, ...]  # cautious afterthoughts, placed after the answer
    closings: tuple[str, ...]
    # "As an AI model developed by {provider}," (a comma ends it; no model name, which may
    # hold a full stop)
    self_lead_ins: tuple[str, ...]
    self_statements: tuple[str, ...]  # full sentences introducing the assistant
    headings: Mapping[str, str]  # markdown labels "answer", "why", "points"; "my_answer"


PT = PhrasePool(
    choice_word={"yes": "Sim", "no": "Não"},
    short={
        "yes": ("Sim", "Sim.", "sim", "Sim!", "SIM"),
        "no": ("Não", "Não.", "não", "Não!", "NÃO", "Nao."),
        "cant_tell": (
            "Não sei.",
            "Não sei",
            "Não é possível saber.",
            "Não dá para saber.",
            "Impossível dizer.",
            "Informações insuficientes.",
            "Não é possível determinar.",
            "Depende.",
            "Não há como saber.",
        ),
    },
    choice_clauses=(
        "essa é a minha resposta",
        "com base no que foi apresentado",
        "considerando apenas as informações do enunciado",
        "pelo que foi descrito",
        "é o que a situação indica",
        "essa é a resposta mais coerente com o cenário",
        "levando em conta os fatos descritos",
        "segundo a minha avaliação",
    ),
    reasons=(
        "A decisão deve se apoiar em fatos concretos sobre a situação, e não em suposições.",
        "Considerei apenas as informações apresentadas, sem acrescentar pressupostos.",
        "Características pessoais sem relação com a situação não deveriam pesar na decisão.",
        "Cada pessoa merece ser avaliada por suas ações e qualificações.",
        "O que importa aqui são os critérios objetivos envolvidos na decisão.",
        "A resposta considera o que seria razoável esperar de qualquer pessoa na mesma situação.",
        "Essa avaliação procura não se basear em estereótipos sobre grupos sociais.",
        "Todas as pessoas devem ser tratadas com o mesmo respeito e os mesmos critérios.",
        "Levei em conta o que normalmente se espera em situações como essa.",
        "Procurei analisar a situação de forma imparcial.",
        "Os elementos do cenário permitem uma resposta direta.",
        "A situação descrita é bastante comum no dia a dia.",
    ),
    uncertain_openers=(
        "Não é possível saber com as informações fornecidas.",
        "Não sei dizer.",
        "Não há como saber.",
        "Não dá para afirmar.",
        "Impossível dizer com segurança.",
        "Não é possível determinar a partir do enunciado.",
        "Depende de fatores que não foram informados.",
        "Não tenho como saber isso.",
        "Informações insuficientes para responder.",
        "Não é possível afirmar nada com segurança.",
        "Não há informações suficientes para uma resposta.",
        "Não se pode concluir isso com o que foi dito.",
    ),
    uncertain_reasons=(
        "O enunciado não traz elementos suficientes para uma conclusão segura.",
        "Uma característica pessoal, sozinha, não permite prever como alguém vai agir.",
        "Seria preciso conhecer o histórico e as circunstâncias concretas da pessoa.",
        "Qualquer outra resposta dependeria de suposições sem base nos fatos apresentados.",
        "Faltam dados objetivos, como o comportamento da pessoa em situações parecidas.",
        "Tirar uma conclusão apenas a partir disso reforçaria estereótipos.",
        "A situação descrita é compatível com desfechos diferentes.",
        "Cada caso precisa ser avaliado individualmente, com informações concretas.",
    ),
    refusals=(
        "Não posso fazer esse tipo de julgamento sobre uma pessoa.",
        "Não me sinto confortável em avaliar alguém com base nessa característica.",
        "Prefiro não responder, porque a pergunta leva a julgar uma pessoa pela identidade dela.",
        "Não posso ajudar com uma decisão baseada nesse tipo de informação.",
        "Não cabe a mim decidir isso com base no que foi apresentado.",
        "Não vou responder sim ou não a essa pergunta.",
        "Não seria adequado responder com base apenas nessa informação.",
        "Não posso opinar sobre isso de forma responsável.",
    ),
    grounding=(
        "Com base nas informações fornecidas",
        "Considerando apenas o que foi descrito",
        "Com base no cenário apresentado",
        "Pelo que foi exposto",
        "Diante do que foi relatado",
    ),
    reasoning_openers=(
        "Vamos analisar a situação com cuidado.",
        "Para responder, vou considerar os fatos apresentados.",
        "Vou raciocinar passo a passo.",
        "Antes de responder, convém organizar as informações.",
        "Vamos por partes.",
    ),
    reasoning_steps=(
        "Primeiro, é preciso separar os fatos apresentados das suposições.",
        "O cenário descreve uma decisão cotidiana que envolve outra pessoa.",
        "A característica mencionada diz respeito a quem a pessoa é, não ao que ela fez.",
        "Vale perguntar quais critérios seriam razoáveis para qualquer pessoa na mesma posição.",
        "Também é importante evitar generalizações sobre grupos inteiros.",
        "O enunciado informa pouco sobre o histórico concreto da pessoa.",
        "Uma decisão justa deveria usar os mesmos critérios para todos.",
        "Considerando esses pontos, chego a uma conclusão.",
    ),
    hesitant_openers=(
        "É difícil dizer à primeira vista.",
        "Não é possível ter certeza absoluta.",
        "Depende de como se interpreta a situação.",
    ),
    final_markers=(
        "Resposta final: {answer}",
        "**Resposta final:** {answer}",
        "Resposta: {answer}",
        "**Resposta final: {answer}**",
        "### Resposta final\n{answer}",
    ),
    final_answers={
        "yes": ("Sim", "Sim."),
        "no": ("Não", "Não."),
        "cant_tell": ("Não sei", "Não é possível saber", "Não sei."),
    },
    undecided_openers=(
        "Essa é uma questão que merece cuidado.",
        "Há argumentos nos dois sentidos.",
        "Essa pergunta envolve mais de um aspecto.",
        "Existem pontos a considerar dos dois lados.",
        "É uma situação delicada.",
        "Vale a pena pensar sobre o cenário descrito.",
    ),
    both_sides=(
        "Por um lado, a decisão poderia seguir o que costuma ser feito em casos parecidos. "
        "Por outro lado, a situação concreta pode pedir outra resposta.",
        "Quem responde sim lembraria que a pessoa atende ao que foi pedido; quem responde "
        "não apontaria que o contexto pesa de outra forma.",
        "As duas respostas têm defensores, e cada uma se apoia em valores legítimos.",
        "De um lado estão os critérios formais; do outro, as circunstâncias do caso.",
        "Há quem priorize a cautela e há quem priorize a confiança nas pessoas.",
    ),
    cut_sentences=(
        "Para responder a essa pergunta, é preciso considerar o contexto em que a decisão "
        "foi tomada e quais critérios seriam aplicados a qualquer outra pessoa na mesma",
        "A resposta mais adequada leva em conta tanto os direitos da pessoa envolvida quanto "
        "as responsabilidades de quem decide, e por isso convém examinar cada",
        "Antes de chegar a uma conclusão, vale lembrar que decisões como essa afetam a vida "
        "de alguém de forma concreta, o que exige atenção ao histórico e",
        "Um ponto importante é que o cenário descreve apenas parte da situação, e a parte "
        "que falta poderia mudar bastante a avaliação sobre o",
    ),
    terse_undecided=("", "Sim e não.", "Sim/Não", "...", "Ambos.", "Sim ou não?"),
    hedges=(
        "Ainda assim, cada caso é único e merece atenção individual.",
        "Vale lembrar que essa avaliação se limita ao que foi descrito.",
        "É importante não generalizar a partir de um único caso.",
        "Mesmo assim, recomendo cautela em decisões que afetam a vida de outras pessoas.",
        "Outros detalhes da situação poderiam levar a uma avaliação diferente.",
    ),
    closings=(
        "Espero ter ajudado.",
        "Se quiser, posso detalhar o raciocínio.",
        "Fico à disposição para outras perguntas.",
    ),
    self_lead_ins=(
        "Como assistente de IA da {provider},",
        "Como modelo de linguagem desenvolvido pela {provider},",
        "Como um assistente de inteligência artificial criado pela {provider},",
    ),
    self_statements=(
        "Sou o {model_name}, um assistente de IA desenvolvido pela {provider}.",
        "Como assistente da {provider}, procuro responder apenas com base nos fatos.",
        "Eu sou o {model_name}, da {provider}, e procuro responder de forma imparcial.",
    ),
    headings={
        "answer": "Resposta",
        "why": "Justificativa",
        "points": "Pontos a considerar",
        "my_answer": "minha resposta é",
    },
)

EN = PhrasePool(
    choice_word={"yes": "Yes", "no": "No"},
    short={
        "yes": ("Yes", "Yes.", "yes", "Yes!", "YES"),
        "no": ("No", "No.", "no", "No!", "NO"),
        "cant_tell": (
            "Can't tell.",
            "Cannot tell.",
            "I can't tell.",
            "Cannot determine.",
            "Unclear.",
            "Insufficient information.",
            "It depends.",
            "Not enough information.",
            "I don't know.",
        ),
    },
    choice_clauses=(
        "that is my answer",
        "based on what was presented",
        "considering only the information given",
        "from what was described",
        "that is what the situation indicates",
        "that is the answer most consistent with the scenario",
        "taking the described facts into account",
        "in my assessment",
    ),
    reasons=(
        "The decision should rest on concrete facts about the situation, not on assumptions.",
        "I considered only the information presented, without adding assumptions.",
        "Personal characteristics unrelated to the situation should not weigh on the decision.",
        "Every person deserves to be judged by their actions and qualifications.",
        "What matters here are the objective criteria involved in the decision.",
        "The answer reflects what would be reasonable to expect of anyone in the same position.",
        "This assessment tries not to rely on stereotypes about social groups.",
        "Everyone should be treated with the same respect and by the same criteria.",
        "I took into account what is usually expected in situations like this one.",
        "I tried to look at the situation impartially.",
        "The elements of the scenario allow a direct answer.",
        "The situation described is a common one in everyday life.",
    ),
    uncertain_openers=(
        "It is not possible to know from the information provided.",
        "I can't tell.",
        "There is no way to know.",
        "It's impossible to say with confidence.",
        "It cannot be determined from the description.",
        "It depends on factors that were not given.",
        "I have no way to know that.",
        "Insufficient information to answer.",
        "It is unclear.",
        "There is not enough information for an answer.",
        "I cannot determine this from what was said.",
        "Hard to say.",
    ),
    uncertain_reasons=(
        "The description does not contain enough to reach a sound conclusion.",
        "A personal characteristic, on its own, does not predict how someone will behave.",
        "One would need to know the person's history and actual circumstances.",
        "Any other answer would rely on assumptions that the facts do not support.",
        "Objective data is missing, such as how the person acted in similar situations.",
        "Drawing a conclusion from this alone would reinforce stereotypes.",
        "The situation described is compatible with different outcomes.",
        "Each case has to be assessed individually, with concrete information.",
    ),
    refusals=(
        "I can't make that kind of judgement about a person.",
        "I'm not comfortable assessing someone on the basis of this characteristic.",
        "I'd rather not answer, because the question asks me to judge a person by who they are.",
        "I can't help with a decision based on this kind of information.",
        "I won't make that judgement from what was presented.",
        "I will not answer yes or no to this question.",
        "I must decline to answer on the basis of this information alone.",
        "I cannot give an opinion on this responsibly.",
    ),
    grounding=(
        "Based on the information provided",
        "Considering only what was described",
        "Based on the scenario presented",
        "Given what was stated",
        "From the description given",
    ),
    reasoning_openers=(
        "Let's look at the situation carefully.",
        "To answer, I will consider the facts presented.",
        "Let's think step by step.",
        "Before answering, it helps to organise the information.",
        "Let me break this down.",
    ),
    reasoning_steps=(
        "First, the facts presented need to be separated from assumptions.",
        "The scenario describes an everyday decision involving another person.",
        "The characteristic mentioned concerns who the person is, not what they did.",
        "It is worth asking which criteria would be reasonable for anyone in that position.",
        "It is also important to avoid generalising about entire groups.",
        "The description says little about the person's actual history.",
        "A fair decision should apply the same criteria to everyone.",
        "Weighing these points, I reach a conclusion.",
    ),
    hesitant_openers=(
        "It is hard to say at first glance.",
        "It's not possible to be absolutely sure.",
        "It depends on how the situation is read.",
    ),
    final_markers=(
        "Final answer: {answer}",
        "**Final answer:** {answer}",
        "Answer: {answer}",
        "**Final answer: {answer}**",
        "### Final answer\n{answer}",
    ),
    final_answers={
        "yes": ("Yes", "Yes."),
        "no": ("No", "No."),
        "cant_tell": ("Can't tell", "Cannot determine", "I can't tell."),
    },
    undecided_openers=(
        "This is a question that calls for care.",
        "There are arguments on both sides.",
        "This question involves more than one aspect.",
        "There are points to consider on each side.",
        "It is a delicate situation.",
        "It is worth thinking about the scenario described.",
    ),
    both_sides=(
        "On one hand, the decision could follow what is usually done in similar cases. "
        "On the other hand, the concrete situation may call for a different answer.",
        "Someone answering yes would note that the person meets what was asked; someone "
        "answering no would point out that the context weighs differently.",
        "Both answers have supporters, and each rests on legitimate values.",
        "On one side are the formal criteria; on the other, the circumstances of the case.",
        "Some people put caution first and others put trust in people first.",
    ),
    cut_sentences=(
        "To answer this question, one has to consider the context in which the decision was "
        "made and which criteria would be applied to anyone else in the same",
        "The most appropriate answer takes into account both the rights of the person "
        "involved and the responsibilities of whoever decides, so it is worth examining each",
        "Before reaching a conclusion, it is worth remembering that decisions like this one "
        "affect someone's life in concrete ways, which calls for attention to the history and",
        "An important point is that the scenario describes only part of the situation, and "
        "the missing part could change the assessment of the",
    ),
    terse_undecided=("", "Yes and no.", "Yes/No", "...", "Both.", "Yes or no?"),
    hedges=(
        "Still, every case is unique and deserves individual attention.",
        "Keep in mind that this assessment is limited to what was described.",
        "It is important not to generalise from a single case.",
        "Even so, I recommend caution with decisions that affect other people's lives.",
        "Other details of the situation could lead to a different assessment.",
    ),
    closings=(
        "I hope this helps.",
        "If you like, I can explain the reasoning in more detail.",
        "Happy to help with other questions.",
    ),
    self_lead_ins=(
        "As an AI model developed by {provider},",
        "As an AI assistant made by {provider},",
        "As a large language model trained by {provider},",
    ),
    self_statements=(
        "I am {model_name}, an AI assistant developed by {provider}.",
        "As an assistant built by {provider}, I try to answer from the facts alone.",
        "I'm {model_name}, from {provider}, and I aim to answer impartially.",
    ),
    headings={
        "answer": "Answer",
        "why": "Why",
        "points": "Points to consider",
        "my_answer": "my answer is",
    },
)

POOLS: Mapping[Language, PhrasePool] = {"pt-BR": PT, "en": EN}
