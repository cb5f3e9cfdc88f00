"""The speaker and the organisation it serves, named where an answer opens, for the anonymiser
(review_app.anonymiser.anonymise): "Soy Tomi, de Seguros Alameda del Sur.", "Ollie here, from
Brightwater Housing Association.", "Atlas Assist by Northgate Insurance speaking.", "Aqui é o
Zeca, do plano de saúde Vida Serena.".

An answer that opens on who speaks and for which company is a deployed assistant introducing
itself; neither name is in any list. The organisation must read as one (a word such as
Insurance, Seguros, Clínica, Travel, Bank among its words, or a kind of company before it:
"do plano de saúde Vida Serena"), so that "Tom here, from apartment 4B" or "Soy Ana, de
Madrid" introduce nobody. A quotation introduces somebody else.

All patterns but the capitals run on folded text (review_app.anonymiser.textfold).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anonymiser.cues import BEING_CUES, MARKUP, NAME_CUES
from review_app.anonymiser.people import tells_a_human_life
from review_app.anonymiser.quotes import is_quoted
from review_app.anonymiser.scripts import CJK_RANGES, WORD
from review_app.anonymiser.textfold import FoldedText

# Greetings before the introduction: "Olá!", "Buenas,", "Good morning,".
_OPENING_GREETING = re.compile(
    r"[\W_]*+(?:(?:oi|ola|hi|hello|hey|hola|buenas|bom\s+dia|boa\s+tarde|boa\s+noite|buenos\s+dias"
    r"|buen\s+dia|buenas\s+tardes|good\s+(?:morning|afternoon|evening|day))[\W_]*+)?"
)
_OPENING_CUE = re.compile(
    r"(?:(?:i'?m|i\s+am|this\s+is|it'?s|eu\s+sou|sou|soy|yo\s+soy|aqui\s+(?:e|es|habla|fala)"
    r"|(?:te|le|lhe)\s+(?:habla|atiende|fala|escreve|escribe))\s+(?:(?:o|a|el|la)\s+)?)?"
    r"[*_`]{0,2}"
)
# A name of up to three capitalised words, a "+" or a version with it: "Atlas Assist".
_NAME = re.compile(r"[A-Z][\w'+.\-]*+(?:[ \t]+[A-Z][\w'+.\-]*+){0,2}")
_HERE = re.compile(r"[*_`]{0,2}[ \t]+(?:here|aqui|speaking|falando|al\s+habla)(?![a-z])")
_FROM = re.compile(
    r"[*_`]{0,2},?[ \t]+(?:from|with|at|of|by|de|da|do|del|de\s+la)[ \t]+"
    r"(?:(?:the|la|el|o|a)[ \t]+)?"
)
# What makes a phrase an organisation's name: its kind among its words.
_ORGANISATION_WORDS = re.compile(
    r"(?<![a-z])(?:insurance|assurance|seguros?|aseguradora|seguradora|bank|banco|banca"
    r"|credit\s+union|cooperativa|cooperative|association|associacao|asociacion|housing|clinic"
    r"|clinica|health|saude|salud|dental|medical|hospital|school|escola|escuela|college|colegio"
    r"|university|universidade|universidad|travel|viagens|viajes|turismo|tours|agency|agencia"
    r"|services|servicos|servicios|group|grupo|labs?|telecom|energy|energia|realty|imobiliaria"
    r"|inmobiliaria|properties|legal|law|advocacia|abogados|care|cuidados|foundation|fundacao"
    r"|fundacion|council|prefeitura|ayuntamiento|transit|transport|airlines?|hotels?|store|loja"
    r"|tienda|market|mercado|pharmacy|farmacia|institute|instituto|center|centre|centro"
    r"|plano\s+de\s+saude|operadora|mutual|mutua|savings|finance|financeira|financiera|capital"
    r"|consorcio|condominio|residencial|academia|gym)(?![a-z])"
)
_LOWER_WORD = re.compile(r"[^\W\d_A-Z][^\W\d_]*[ \t]+")
_CAPITALISED = re.compile(
    r"[A-Z][\w&'\-]*+(?:[ \t]+(?:(?:d[aoe]s?|of|del?|du|la|y|e|&|the)[ \t]+)?[A-Z][\w&'\-]*+){0,4}"
)
_SPEAKS_AFTER = re.compile(r"[ \t]+(?:here|speaking|falando|al\s+habla)(?![a-z])")


def spans_of_opening_speakers(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The name and the organisation of an answer's opening introduction."""
    folded, original = document.folded, document.original
    greeting = _OPENING_GREETING.match(folded)
    cue = _OPENING_CUE.match(folded, greeting.end() if greeting is not None else 0)
    if cue is None:
        return
    start = document.original_index(cue.end())
    name = _NAME.match(original, start)
    if name is None or is_quoted(original, start):
        return
    after = cue.end() + len(FoldedText(name.group()).folded)
    # "Hi, I'm Sam from the Parents Association": a person of a group of people.
    if tells_a_human_life(folded, after):
        return
    here = _HERE.match(folded, after)
    connector = _FROM.match(folded, here.end() if here is not None else after)
    if connector is None:
        return
    organisation = _organisation(document, connector.end())
    if organisation is None:
        return
    org_start, org_end, folded_org_end = organisation
    said = cue.end() > cue.start() or here is not None
    if said or _SPEAKS_AFTER.match(folded, folded_org_end) is not None:
        yield name.span()
        yield org_start, org_end


def _organisation(document: FoldedText, folded_start: int) -> tuple[int, int, int] | None:
    """The organisation's capitalised words after up to three lower-case ones, when the phrase
    reads as an organisation: (start, end in the original, end in the folded text)."""
    folded, original = document.folded, document.original
    position = folded_start
    for _ in range(3):
        word = _LOWER_WORD.match(folded, position)
        if word is None or original[document.original_index(position)].isupper():
            break
        position = word.end()
    start = document.original_index(position)
    words = _CAPITALISED.match(original, start)
    if words is None:
        return None
    folded_end = position + len(FoldedText(words.group()).folded)
    if _ORGANISATION_WORDS.search(folded, folded_start, folded_end) is None:
        return None
    return start, words.end(), folded_end


# A Chinese or Korean name right after a Latin self-introduction: "Soy 솔라, de …", "Te
# escribe 智谱清言": in a Latin sentence such a word is a name, in no list or not.
_CJK_AFTER_CUE = re.compile(
    rf"(?<!{WORD})(?:{'|'.join(NAME_CUES + BEING_CUES)})\s+(?:(?:o|a|el|la|the)\s+)?{MARKUP}"
    rf"(?P<name>[{CJK_RANGES}]{{1,12}})"
)


def spans_of_cjk_names_after_latin_cues(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The Chinese or Korean word a Latin self-introduction gives, unless quoted or a person's."""
    folded, original = document.folded, document.original
    for match in _CJK_AFTER_CUE.finditer(folded):
        start = document.original_index(match.start("name"))
        if is_quoted(original, start) or tells_a_human_life(folded, match.end()):
            continue
        yield document.original_span(match.start("name"), match.end("name"))
