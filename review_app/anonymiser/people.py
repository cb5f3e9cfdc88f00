"""People named like assistants, for the anonymiser (review_app.anonymiser.anonymise): "meu vizinho
Claude", "Claude, the neighbour", "tu compañera Gemma", "Ernie and Bert", "Claude and his
wife". A given name ("Claude", "Gemma", "Kimi", "Ernie") found in such a context is a
person's and is kept, unless a self-identifying cue made it a name before.

All patterns run on folded text (review_app.anonymiser.textfold).
"""

from __future__ import annotations

import re

from review_app.anonymiser.scripts import WORD

_WINDOW = 100  # characters either side searched for a subject ("Bert", "a neighbour")
# People by kin, work, home and company: "meu vizinho Claude", "Sou o Teo, irmão da Carla".
_PERSON_NOUNS = (
    r"vizinh[oa]|amig[oa]|friend|neighbou?r|tio|tia|uncle|aunt|prim[oa]|cousin|colega"
    r"|colleague|senhor|sr|sra|dona|mr|mrs|ms|monsieur|madame|vecin[oa]|voisin|ami"
    r"|irmao|brother|sister|irma|filho|son|pai|father|professora?|teacher|chef|pintora?|painter"
    # Family, people at work, and a person's title: "my husband Claude", "a enfermeira Gemma".
    r"|husband|wife|daughter|mother|mom|mum|dad|marido|esposa|esposo|filha|mae|avo|grandma"
    r"|grandpa|grandfather|grandmother|nephew|niece|sobrinh[oa]|neto|neta|hij[oa]|madre|padre"
    r"|herman[oa]|abuel[oa]|nurse|enfermeir[oa]|enfermer[oa]|doctor|doutor[a]?|dr|dra|medic[oa]"
    r"|candidate|candidat[oa]|boss|chefe|gerente|manager|supervisor|coordenador[a]?|intern"
    r"|estagiari[oa]|student|alun[oa]|estudante|coach|tecnic[oa]|technician|recruiter"
    r"|recrutador[a]?|lawyer|advogad[oa]|dentist|dentista|partner|namorad[oa]|boyfriend"
    r"|girlfriend|coworker|co-worker|classmate|roommate|landlord|tenant|inquilin[oa]|chief"
    # People one shares a home, a desk or a deal with: "your flatmate Kimi", "la clienta Gemma".
    r"|flatmate|housemate|room-mate|lodger|fiancee?|noiv[oa]|novi[oa]|spouse|client|customer"
    r"|cliente|clienta|patient|paciente|employee|funcionari[oa]|emplead[oa]|vendedor[a]?|seller"
    # Companions, in-laws and pets: "tu compañera Gemma", "o sogro Claude", "my dog Kimi".
    r"|compa[nñ]er[oa]|companheir[oa]|sogr[oa]|suegr[oa]|cunhad[oa]|cunad[oa]|[a-z]+-in-law"
    r"|dog|puppy|cat|kitten|pet|cachorr[oa]|cachorrinh[oa]|cadela|gat[oa]|gatinh[oa]|perr[oa]"
    r"|perrit[oa]|mascota|cavalo|horse|caballo|sindic[oa]"
    # A child: "o pequeno Kimi", "little Ernie", "la pequeña Gemma", "o bebê Claude".
    r"|pequen[oa]|little|baby|bebe|nin[oa]|menin[oa]|garot[oa]|kid|child"
)
_PERSON_BEFORE = re.compile(
    rf"(?:{_PERSON_NOUNS}|bert\s+(?:and|e|y|et))"
    # "o professor de francês, o Claude": the role, what of, then the name set apart.
    r"(?:\s+(?:de|do|da|del|of)\s+[^\W\d_]+)?\.?(?:,\s+(?:(?:o|a|el|la|the)\s+)?)?\s*$"
)
_PERSON_AFTER = re.compile(
    r",?\s+(?:the|my|our|o|a|meu|minha|nosso|nossa|mi|el|la|le|mon|ma|notre|seu|sua)\s+"
    r"(?:\w+\s+)?(?:neighbou?r|vizinh|friend|amig|colleague|colega|uncle|tio|cousin|prim"
    r"|vecin|voisin|ami|brother|irmao|painter|pintor|chef|teacher|professor|baker|padeiro)"
    rf"|\s+(?:and|e|y|et)\s+bert(?!{WORD})"
    # Someone in a department: "Ernie from accounts", "a Gemma do RH", "Kimi de contabilidad".
    r"|\s+(?:from|in|at|do|da|de|del|of)\s+(?:the\s+|o\s+|la\s+)?(?:accounts|accounting|hr"
    r"|payroll|finance|sales|marketing|legal|reception|human\s+resources|rh|financeiro"
    r"|contabilidade|recepcao|recursos\s+humanos|contabilidad|ventas|finanzas|nominas)"
    rf"(?!{WORD})"
    # Whose shop or family: "Claude's Bakery", "Kimi's mother".
    r"|'s\s+(?:bakery|cafe|restaurant|garage|shop|store|salon|bar|diner|pizzeria|wife|husband"
    r"|mother|father|mom|mum|dad|son|daughter|sister|brother|kids|children|family|dog|cat"
    r"|house|car|birthday|wedding|funeral)(?![a-z])"
    # A person's title after the name in Chinese: "Claude 老师", "Gemma医生".
    r"|\s*(?:老师|先生|女士|小姐|医生|大夫|经理|阿姨|叔叔|师傅|律师|教授|主任|同学|太太|护士)"
    # Someone at a place of work or a shop: "Claude from the bakery", "Gemma from the leasing
    # office", "a Gemma da imobiliária", "Kimi, de la inmobiliaria".
    r"|,?\s+(?:from|at|do|da|de|del)\s+(?:the\s+|o\s+|a\s+|la\s+|el\s+)?(?:[a-z'-]+\s+){0,2}?"
    r"(?:office|bakery|pharmacy|clinic|school|store|shop|agency|front\s+desk|reception|library"
    r"|gym|church|building|hospital|garage|salon|cafe|restaurant|supermarket|escritorio|padaria"
    r"|farmacia|clinica|escola|loja|imobiliaria|portaria|condominio|academia|igreja|predio"
    r"|oficina|salao|panaderia|escuela|tienda|inmobiliaria|porteria|recepcion|gimnasio|iglesia"
    r"|edificio|consultorio|biblioteca|agencia|mercearia|cartorio|prefeitura|ayuntamiento)"
    rf"(?!{WORD})"
)
# "Ernie, the warehouse supervisor", "Gemma, a nova coordenadora": a person described,
# unless the description is of a model ("Claude, an AI assistant").
_APPOSITION = re.compile(
    r",\s+(?:the|my|our|his|her|your|their|a|an|o|um|uma|el|la|un|una|meu|minha|mi|su|tu"
    r"|nosso|nossa|seu|sua|vosso|vossa|nuestr[oa]|vuestr[oa]|votre|ton|ta|son|sa|notre|leur)\s+"
    r"(?P<phrase>[^,.;:!?\n]{1,60})"
)
_MODEL_WORDS = re.compile(
    r"(?<![a-z])(?:ai|ia|assistant|assistente|asistente|model|modelo|modele|chatbot|llm|bot"
    r"|language|linguagem|lenguaje|anthropic|google|openai|version|versao|version|helper"
    r"|ajudante|ayudante|companion|agent|agente|virtual|digital|artificial|developed|trained"
    r"|built|desenvolvid[oa]|treinad[oa]|entrenad[oa]|desarrollad[oa]|criad[oa]|cread[oa])(?![a-z])"
)
# "a man called Claude", "se llama Claude", "我的同事Claude", "实习生叫Gemma".
_NAMED_BEFORE = re.compile(
    r"(?:(?<![a-z])(?:called|named|nicknamed|chamad[oa]|se\s+chama|se\s+llama|llamad[oa]"
    r"|apelidad[oa]|apodad[oa]|(?:call|calls|chamam|chamavam|chamava|llaman|llamaban|llamaba"
    r"|appellent|appelait)(?:\s+(?:him|her|them|-?lhe|-?o|-?a|de|le|la|lo))?)\s+"
    r"|(?<!我)叫\s*|(?:同事|朋友|邻居|老师|同学|室友|房东|合租的|财务部的|人事部的|部门的"
    # Family: "你女儿小冰", "我儿子Kimi".
    r"|女儿|儿子|孩子|宝宝|妈妈|爸爸|丈夫|妻子|老公|老婆|哥哥|姐姐|弟弟|妹妹|孙子|孙女|外甥|侄子)\s*)$"
)
# A person's pronoun later in the name's sentence: "Claude and his wife", "o Claude disse que
# ele", "Gemma si ella puede", "克劳德明天来，他". An assistant is "it", and one that speaks
# as itself was decided by its cue before.
_PRONOUN_AFTER = re.compile(
    r"[^.!?\n。！？]{0,80}?(?:(?<![a-z])(?:he|she|his|her|him|hers|himself|herself|ele|ela|dele"
    r"|dela|ella|il|elle)(?![a-z])|他|她)"
)
_PERSON_NEARBY = re.compile(r"sesame|sesamo|muppet|monet|debussy|bert(?![a-z])")


# Whose relative the speaker is: "我是小冰的妈妈", "I'm Claude's mother", "soy la madre de".
_RELATIVE_AFTER = re.compile(
    r"\s*(?:'s|的)\s*(?:mother|father|mom|mum|dad|parents?|grandmother|grandfather|wife"
    r"|husband|sister|brother|teacher|mama|baba|妈妈|爸爸|家长|母亲|父亲|奶奶|爷爷|外婆|姥姥"
    r"|妻子|丈夫|老师|姐姐|哥哥)(?![a-z])"
)
# Two names, the second described as a person: "Claude and Gemma, the colleagues who".
_AND_NAME = re.compile(r"\s+(?:and|e|y|et)\s+[^\W\d_]+(?=,)")


def is_relative_of(folded: str, end: int) -> bool:
    """Whether the speaker names a person it is related to ("我是小冰的妈妈"): a person's name,
    even after "I am"."""
    return _RELATIVE_AFTER.match(folded, end) is not None


def is_person(folded: str, start: int, end: int) -> bool:
    """Whether a given name ("Claude", "Ernie") is a person's: "meu vizinho Claude", "Claude,
    the neighbour", "Ernie and Bert"."""
    before = folded[max(0, start - _WINDOW) : start]
    after = folded[end : end + _WINDOW]
    pair = _AND_NAME.match(after)
    apposition = _APPOSITION.match(after, pair.end() if pair else 0)
    return (
        _PERSON_BEFORE.search(before[-40:]) is not None
        or _NAMED_BEFORE.search(before[-20:]) is not None
        or _PERSON_AFTER.match(after) is not None
        or (apposition is not None and _MODEL_WORDS.search(apposition.group("phrase")) is None)
        or _PERSON_NEARBY.search(before + " " + after) is not None
        or _PRONOUN_AFTER.match(after) is not None
    )


_SENTENCE_REST = re.compile(r"[^.!?\n。！？]{0,100}")


def is_described_as_model(folded: str, end: int) -> bool:
    """Whether the rest of the sentence after a name says it is software ("Sou o Claude
    Monet, um modelo de IA"): then a surname is a disguise, not a person's."""
    rest = _SENTENCE_REST.match(folded, end)
    return rest is not None and _MODEL_WORDS.search(rest.group()) is not None


# A person's life right after the name: "Sou o Rafael, tenho 34 anos", "I'm Sam, and I'm
# writing to", "Soy Ana y vivo en", "my name is Tom, a 40-year-old": a human, not the answer.
_HUMAN_DETAIL = re.compile(
    r"\s*[,;.]?\s*(?:(?:and|e|y)\s+)?(?:(?:i'?m|i\s+am|i|eu|yo)\s+)?(?:tenho|tengo|have|i\s+have)?"
    r"\s*(?:\d{1,3}\s*(?:anos|anos|years?|-year)|(?:writing|escrevendo|escribiendo|escrevo"
    r"|escribo|moro|vivo|live|living|trabalho|trabajo|work|working|estudo|estudio|study"
    r"|studying)(?![a-z])"
    # Whose relative or neighbour: "Sou o Pedro, pai da Ana", "soy Carlos, tu vecino".
    # A person of a group of people: "soy Jorge, del comité de vecinos".
    r"|(?:from|of|de|del|da|do|de\s+la)\s+(?:the\s+|la\s+|el\s+|a\s+|o\s+)?(?:comite|committee"
    r"|associacao|association|asociacion|neighbou?rhood|parents|pais|padres|turma|class|clase"
    r"|igreja|church|iglesia|clube|club|condominio)(?![a-z])"
    # A person asking: "Sou o João e gostaria de uma informação", "I'm Ana and I'd like".
    r"|(?:i'd\s+like|i\s+would\s+like|i\s+want|i\s+need|gostaria|queria|quero|preciso"
    r"|quisiera|quiero|necesito)(?![a-z])(?!\s+(?:de\s+)?(?:to\s+)?(?:te\s+|lhe\s+)?(?:help"
    r"|ajudar|ayudar|apoiar|explicar|orientar))"
    r"|(?:(?:your|tu|su|seu|sua|teu|tua|the|o|a|el|la|um|uma|un|una)\s+)?(?:[\w-]+'s\s+)?"
    rf"(?:new\s+|novo\s+|nueva?\s+)?(?:{_PERSON_NOUNS}|parent|landlady|responsavel"
    r"|profesor[a]?)(?![a-z]))"
)


def tells_a_human_life(folded: str, end: int) -> bool:
    """Whether what follows an introduced name is a person's life ("Sou o Rafael, tenho 34
    anos"), not software's ("Sou a Lia, trabalho como assistente virtual")."""
    human = _HUMAN_DETAIL.match(folded, end) is not None or is_relative_of(folded, end)
    return human and not is_described_as_model(folded, end)
