"""Names that no list holds, found by the self-introduction around them, for the anonymiser
(review_app.anonymiser.anonymise): "I'm Aria, your assistant", "Eu sou a Lia, assistente virtual do
Banco Tal", "I am an AI model developed by Initech Research", "我叫小智", "我由星辰科技开发".

A new model's name is in no list, so the sentence that introduces it is what tells it apart;
an ordinary "made by Ford" or "criado pela Prefeitura" is kept, because its subject is not the
speaker.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anonymiser.cues import BEING_CUES, MAKER_CUES, MARKUP, NAME_CUES, called_ends
from review_app.anonymiser.people import tells_a_human_life
from review_app.anonymiser.quotes import is_quoted
from review_app.anonymiser.scripts import WORD
from review_app.anonymiser.textfold import FoldedText

# The speaker as the subject: "I am an AI assistant made by", "fui criado pela", "Como uma
# IA desenvolvida pela", "As an AI model developed by", "soy un modelo entrenado por".
_SPEAKER = (
    r"i\s+(?:was|am|have\s+been)|i'm|i've\s+been|as\s+an?|(?:eu\s+)?(?:fui|sou)"
    r"|como\s+(?:um|uma|un|una)|(?:yo\s+)?(?:soy|fui)|je\s+suis|j'ai\s+ete|en\s+tant\s+qu'?\w*"
)
_AI_NOUN = re.compile(
    r"(?<![a-z])(?:ai|ia|assistant|assistente|asistente|model|modelo|modele|chatbot|llm|bot"
    r"|sistema|system|systeme|intelig\w*|intellig\w*)(?![a-z])"
)
_VIRTUAL_ASSISTANT_OF = (
    r"(?:assistente|assistant|asistente)\s+virtu\w+\s+(?:d[aoe]s?|of|from|del?|at|for)"
    r"|virtual\s+assistant\s+(?:of|from|at|for)"
)
_SELF_DESCRIPTION = re.compile(
    rf"(?<!{WORD})(?:{_SPEAKER})\s+(?P<between>(?:[^\W_]+[\s,]+){{0,6}}?)"
    rf"(?:{'|'.join(MAKER_CUES)}|{_VIRTUAL_ASSISTANT_OF}"
    # "I was built in-house at Alameda Clinic": only the speaker's ("Android was developed at").
    r"|(?:built|developed|made|created|trained)\s+(?:in-house\s+)?at)"
    rf"\s+(?:(?:the|a|o|la|el|le)\s+)?(?={WORD})"
)
# One to four capitalised words, joined by "do", "of"...: "Initech Research", "Banco do Brasil".
_CAPITALISED = re.compile(
    r"[^\W\d_][\w&'\-]*+\+?"
    r"(?:(?:[ \t]+(?:d[aoe]s?|of|the|del?|du|des|la|y|e|&))?[ \t]+[^\W\d_][\w&'\-]*+\+?){0,3}"
)
# A version after a name in no list, before what confirms it: "soy Nico 2.0, tu asistente".
_VERSION_AFTER = re.compile(r"[ \t]*[vV]?\d{1,3}(?:\.\d{1,3}){0,2}(?=\s*[,;:(\u2013\u2014-])")
_INTRODUCTION = re.compile(
    rf"(?<!{WORD})(?:{'|'.join(NAME_CUES + BEING_CUES)})\s+"
    # An article, or the speaker's role before its name: "Soy la asistente virtual Kira",
    # "aqui quem fala é o robô Bento", "I'm the virtual assistant Kira".
    r"(?P<article>(?:(?:o|a|el|la|the|um|uma|un|una|an?)\s+)?(?:virtual\s+|digital\s+)?"
    r"(?:assistente|asistente|assistant|robo|robot|bot|chatbot|agente|agent)"
    r"(?:\s+(?:virtual|digital))?\s+|(?:o|a|el|la)\s+)?"
    rf"{MARKUP}(?={WORD})"
)
# Where the answer opens by saying whom the reader talks to: "You're chatting with Kira from",
# "Estás hablando con Kira, de", "Você está conversando com a Kira.".
_CHATTING = re.compile(
    r"(?:you'?re|you\s+are)\s+(?:chatting|talking|speaking)\s+(?:with|to)\s+"
    r"|(?:voce\s+)?esta\s+(?:conversando|falando)\s+com\s+(?:o\s+|a\s+)?"
    r"|(?:estas|esta)\s+(?:hablando|conversando|chateando)\s+con\s+(?:el\s+|la\s+)?"
)
# The speaker's role, then its name, opening a sentence or signing: "Seu assistente virtual
# Kira, do Banco Aurora, informa", "from your AI assistant, Nova" ("Ask your assistant Maria"
# is a person's: a role without "virtual", "AI" or "bot" says nothing).
_YOUR_ASSISTANT = re.compile(
    r"(?:^|[.!?]\s+|\n[ \t>*_-]*|(?:from|d[oa]|de)\s+)(?:your|seu|sua|teu|tua|tu|su|votre|ton)\s+"
    r"(?:(?:virtual|digital|ai|ia|smart|personal|pessoal)\s+(?:assistant|assistente|asistente"
    r"|helper|ajudante|ayudante|companion|guide|guia|coach)|(?:assistant|assistente|asistente"
    r"|helper|ajudante|ayudante|guia)\s+(?:virtual|digital|inteligente|pessoal|personal)"
    r"|chatbot|bot)\s*,?\s+"
)
_INDEFINITE = re.compile(r"i(?:'?m|\s+am)\s+an?\s+[*_`'\"]*")
_LATIN_RUN = re.compile(r"[A-Za-z]*")
_CJK_LATIN_NAME = re.compile(r"(?:我是|我叫|我的名字是|我的名字叫)\s*(?=[a-z])")
_ROLE = (
    r"(?:assistant|assistente|asistente|model|modelo|modele|ia|ai|chatbot|bot|llm|helper"
    r"|ajudante|ayudante|sidekick|buddy|companion|copilot|tutor|concierge|robot|robo"
    r"|inteligencia\s+artificial|artificial\s+intelligence"
    # A person's job done by software: "the virtual adviser of", "su asesora digital".
    r"|(?:virtual|digital|automated)\s+(?:adviser|advisor|consultant|receptionist|agent|guide"
    r"|host|coach)|(?:asesor|assessor|consultor|recepcionista|atendente)a?\s+(?:virtual|digital))"
    r"(?![a-z])"
)
# What confirms that "I'm X" introduces a name: what X is, who made it, or that it speaks;
# also said after "and": "Me chamo Lara e sou a assistente", "Mi nombre es Brisa y fui
# entrenada por", "My name is Tavi and I was built by".
_CONFIRMS = re.compile(
    # "I'm Poppy from the Willowbank helpdesk, an AI": where it is from may come first.
    r"(?:\s+(?:from|at|of|de|da|do|del)\s+[^,.;:!?\n]{1,60}?)?"
    # "I'm Pip, think of me as your budgeting sidekick": up to six words before the role.
    r"\*{0,2}\s*[,;(\u2013-]\s*(?!(?:my|our|his|her|meu|minha|mi|su)\s)(?:[\w'\-]+\s+){0,6}?"
    rf"{_ROLE}"
    r"|\*{0,2},?\s+(?:here|aqui|speaking|ici)(?![a-z])"
    rf"|\*{{0,2}},?\s+(?:{'|'.join(MAKER_CUES)})"
    r"|\*{0,2}\s+(?:and|e|y|et)\s+(?:i\s+(?:am|was|have\s+been|work)|i'm|i've\s+been|sou|fui|soy"
    r"|trabalho|trabajo"
    r"|je\s+suis|j'ai\s+ete)\s+(?:[\w']+\s+){0,3}?"
    rf"(?:{_ROLE}|{'|'.join(MAKER_CUES)}|(?:built|made|developed|created|trained)\s+(?:at|in))"
)
# Introductions that say nothing by themselves ("This is Paris", "As Maria, I"): a name
# only when confirmed by what follows ("This is Juno, your helper", "As Quill, the writing
# assistant developed at").
_WEAK_INTRODUCTION = re.compile(
    rf"(?<!{WORD})(?:this\s+is|as|como|en\s+tant\s+que|(?:te|le)\s+atiende|quem\s+(?:te|lhe)"
    # "It's Milo, your coach", "Meet Ava, Northwind Bank's assistant", "Conheça a Iris, a".
    r"\s+atende\s+e|it'?s|it\s+is|meet|say\s+hello\s+to|conheca|conoce(?:\s+a)?|les\s+presento"
    # "Welcome to Wayfarer Desk, the assistant of": a service that speaks.
    r"|welcome\s+to|bem-vind[oa]\s+a[oa]?|bienvenid[oa]\s+a(?:l|\s+la)?"
    rf"(?:\s+a)?)\s+(?P<article>(?:o|a|el|la)\s+)?{MARKUP}(?={WORD})"
)
# An answer that opens with its speaker's name: "Sage here, the study buddy", "Aquí Lolo,
# el asistente", "Aqui é a Iara!".
_HERE = (
    r",?\s+(?:here|aqui|por\s+aqui|speaking|falando|al\s+habla|at\s+your\s+service|a\s+su\s+servicio"
    r"|a\s+seu\s+dispor|ao\s+seu\s+dispor|para\s+servirle)"
)
_OPENING_HERE = re.compile(
    r"(?P<cue>aqui(?:\s+(?:e|fala))?\s+(?:(?:o|a|el|la)\s+)?)?[*_]{0,2}"
    r"(?P<name>[^\W\d_]+(?:\s+(?!here|aqui|speaking|at\s)[^\W\d_]+)?)[*_]{0,2}"
    # What it is, in brackets: "Remy (Greenfield Transit's assistant) here".
    r"(?:\s*\((?P<aside>[^()\n]{1,60})\))?"
    # Whom it is with, before "here": "Lina, da Seguros Atalaia, falando", "Sol, asistente de
    # Inmobiliaria Brisa, al habla".
    r"(?:,?\s+(?:(?:the|o|a|el|la|your|seu|sua|tu)\s+)?(?:(?:assistant|assistente|asistente"
    r"|atendente|chatbot|bot|helper|ajudante|ayudante)(?:\s+(?:virtual|digital))?\s+)?"
    rf"(?:from|at|with|de|da|do|del)\s+(?P<org>[^,.!?\n]{{1,40}}?)(?={_HERE}))?"
    rf"(?P<here>{_HERE})?"
    r"[*_]{0,2}\s*(?:[,.!:\u2014\u2013-]|$)"
)
# The help an assistant offers right after saying who it is: "I'm Zorbel. How can I help?"
_HELP_OFFER = re.compile(
    r"[^\n]{0,80}?(?:how\s+can\s+i|how\s+may\s+i|what\s+can\s+i\s+do|here\s+to\s+help"
    r"|help\s+you\s+(?:today|with)|(?:como|em\s+que)\s+posso|posso\s+(?:te\s+|lhe\s+)?ajudar"
    r"|aqui\s+para\s+(?:te\s+|lhe\s+)?ajudar|(?:como|en\s+que)\s+(?:te\s+)?puedo"
    r"|puedo\s+ayudar|para\s+ayudarte|comment\s+puis-je|je\s+peux\s+vous\s+aider)"
)
# A greeting that opens the answer: "Olá! Sou Brisa." introduces the speaker.
_GREETING = re.compile(
    r"\W*+(?:(?:oi|ola|hi|hello|hey|hola|bonjour|salut|buenas(?:\s+(?:tardes|noches))?|bom\s+dia"
    r"|boa\s+tarde|boa\s+noite|good\s+(?:morning|afternoon|evening|day)|buenos\s+dias|buen\s+dia"
    r"|welcome|bem-vind[oa]s?|bienvenid[oa]s?|bienvenue|greetings|saudacoes|saludos|there)"
    r"(?:\s+(?:and|e|y)\s+|\W)*+){0,3}"
)
# Whom the speaker is with, in an opening introduction: "Good morning, I'm Zara with Oakridge
# Credit Union." ("I'm Tom from apartment 4B" names no organisation).
_AFFILIATION = re.compile(
    r",?\s+(?:from|with|at|of|de|da|do|das|dos|del|de\s+la)\s+(?:(?:the|la|el|o|a)\s+)?"
)
_SENTENCE_END = re.compile(r"\*{0,2}\s*(?:[.!]|$)")
_GREETED_END = re.compile(r"\*{0,2}\s*(?:[.!,;]|$)")
# Somebody else speaking: a verb of saying after a quotation.
_SAYING = re.compile(
    r"[^.!?\n]{0,40}?[\"\u201d\u00bb,\u2014\u2013-]\s*(?:disse|diz|respondeu|perguntou"
    r"|falou|said|says|replied|asked|dijo|respondio|pregunto|dit|repondit)(?![a-z])"
)
_WORDS_NOT_NAMES = (
    "ia ai llm bot chatbot sorry afraid happy glad sure not here just also able going ready"
    " unable really so very still i an a the it um uma no yes sim only always never"
    # Abbreviated titles, whose full stop ends no sentence: "Good morning, I'm Dr. Patel".
    " dr dra mr mrs ms sr sra srta prof profa"
)
_NOT_NAMES = frozenset(_WORDS_NOT_NAMES.split())


def spans_of_unknown_makers(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The capitalised maker after the speaker's own "developed by" ("Initech Research")."""
    folded, original = document.folded, document.original
    for match in _SELF_DESCRIPTION.finditer(folded):
        between = match.group("between")
        if len(between.split()) > 2 and _AI_NOUN.search(between) is None:
            continue  # "I am driving a car made by Ford": the car was made, not the speaker
        start = document.original_index(match.end())
        if is_quoted(original, start):  # a note drafted for the reader: '“您好，我叫Claude”'
            continue
        end = _capitalised_end(original, start)
        latin = re.match(r"[A-Za-z]+", original[start:end])
        if (
            latin is not None
            and latin.group()[0].isupper()
            and latin.group().casefold() not in _NOT_NAMES
        ):
            yield start, end


def spans_of_introduced_names(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The name a self-introduction gives, in no list, when the sentence says what it is or
    who made it: "I'm Aria, your assistant", "Sou a Lia, assistente virtual", "My name is
    Nimbus, from Initech", "我叫小智，由…开发". A person's "Me chamo Ana e moro em Recife" stays:
    an unconfirmed introduction is left to the leak report (review_app.anonymiser.leaks)."""
    folded, original = document.folded, document.original
    for match in _INTRODUCTION.finditer(folded):
        start = document.original_index(match.end())
        if not original[start].isupper() or is_quoted(original, start):
            continue
        end = _named_end(original, start)
        word = original[start:end].casefold().split(" ", 1)[0]
        if word in _NOT_NAMES or word.endswith(_ADJECTIVE_ENDINGS):
            continue
        folded_end = match.end() + len(FoldedText(original[start:end]).folded)
        if _SAYING.match(folded, folded_end) or tells_a_human_life(folded, folded_end):
            continue
        # "I'm a Gemini" (a star sign): an English indefinite article introduces no name.
        article = match.group("article")
        if article is not None and _INDEFINITE.fullmatch(folded, match.start(), match.end()):
            article = None
        if article is not None or _is_confirmed(document, match, folded_end):
            yield start, end
    greeting = _GREETING.match(folded)
    chatting = _CHATTING.match(folded, greeting.end() if greeting is not None else 0)
    if chatting is not None and (span := _capitalised_name(document, chatting.end())):
        yield span
    for match in _YOUR_ASSISTANT.finditer(folded):
        if span := _capitalised_name(document, match.end()):
            yield span
    for end in called_ends(folded):  # "I'm an AI assistant called Zorbel"
        span = _capitalised_name(document, end)
        if span is not None:
            yield span
    yield from _weak_introductions(document)
    yield from _opening_introduction(document)
    for match in _CJK_LATIN_NAME.finditer(folded):
        start = document.original_index(match.end())
        # A note drafted for the reader ('“您好，我叫Claude”'), a relative ("我是Gemma的妈妈").
        latin_end = _LATIN_RUN.match(original, start)
        folded_end = match.end() + (latin_end.end() - start if latin_end is not None else 0)
        if is_quoted(original, start) or tells_a_human_life(folded, folded_end):
            continue
        end = _capitalised_end(original, start)
        latin = re.match(r"[A-Za-z]+", original[start:end])
        if (
            latin is not None
            and latin.group()[0].isupper()
            and latin.group().casefold() not in _NOT_NAMES
        ):
            yield start, end


def _weak_introductions(document: FoldedText) -> Iterable[tuple[int, int]]:
    """ "This is Juno, your helper", "As Quill, the writing assistant", "Te atiende Sol, la
    inteligencia artificial de": confirmed by what follows the name, never by an article."""
    folded, original = document.folded, document.original
    for match in _WEAK_INTRODUCTION.finditer(folded):
        span = _capitalised_name(document, match.end())
        if span is None:
            continue
        folded_end = match.end() + len(FoldedText(original[span[0] : span[1]]).folded)
        if _CONFIRMS.match(folded, folded_end) or _HELP_OFFER.match(folded, folded_end):
            yield span


def _opening_introduction(document: FoldedText) -> Iterable[tuple[int, int]]:
    """The name that opens the answer, said with "here" or "aquí": "Sage here, the study
    buddy", "Aquí Lolo, el asistente de", "Olá! Aqui é a Iara."."""
    greeting = _GREETING.match(document.folded)
    start = greeting.end() if greeting is not None else 0
    opening = _OPENING_HERE.match(document.folded, start)
    if opening is None:
        return
    if opening.group("cue") is None and opening.group("here") is None:
        # "Lumen — assistente virtual": the opening names what speaks.
        if _ROLE_AT_OPENING.match(document.folded, opening.end("name")) is not None:
            yield from filter(None, [_capitalised_name(document, opening.start("name"))])
        return
    if opening.group("cue") is not None and opening.group("here") is not None:
        return
    span = _capitalised_name(document, opening.start("name"))
    if span is None:
        return
    # "Tom here." opens a note as well: with "here", what follows must say what speaks, or
    # the organisation before it ("Lina, da Seguros Atalaia, falando").
    after = opening.end("here") if opening.group("here") is not None else -1
    org = opening.start("org")
    named_org = org >= 0 and document.original[document.original_index(org)].isupper()
    aside = opening.group("aside")
    if (
        named_org
        or (aside is not None and _AI_NOUN.search(aside) is not None)
        or after < 0
        or any(
            pattern.match(document.folded, after) is not None
            for pattern in (_CONFIRMS, _HELP_OFFER, _ROLE_AFTER_HERE)
        )
    ):
        yield span
        # Whom it serves: "Sol, asistente de Inmobiliaria Brisa, al habla", "Remy (Greenfield
        # Transit's assistant) here".
        if named_org:
            start = document.original_index(org)
            yield start, _capitalised_end(document.original, start)
        if aside is not None:
            first, last = document.original_span(*opening.span("aside"))
            owner = _OWNER_IN_ASIDE.match(document.original, first, last)
            if owner is not None:
                yield owner.span("owner")


_OWNER_IN_ASIDE = re.compile(r"(?P<owner>(?:[A-Z][\w&\-]*+[ \t]+){0,3}[A-Z][\w&\-]*+)'s\s")


# Software's role only ("Maria — assistente administrativa" is a person's job).
_ROLE_AT_OPENING = re.compile(
    r"\*{0,2}\s*[,:\u2013\u2014-]\s*(?:(?:o|a|the|your|seu|sua|el|la|tu|an?|um|uma)\s+)?"
    r"(?:[\w'\-]+\s+)?(?:(?:assistant|assistente|asistente|helper|ajudante|ayudante|agent|agente)"
    r"\s+(?:virtual|digital|de\s+ia|inteligente)|(?:virtual|digital|ai|ia)\s+(?:assistant|helper"
    r"|agent|guide|coach)|chatbot|bot|llm|(?:language\s+)?model|modelo\s+de\s+(?:linguagem|lenguaje"
    r"|ia)|inteligencia\s+artificial|artificial\s+intelligence)(?![a-z])"
)
_ROLE_AFTER_HERE = re.compile(
    r",\s*(?:the|your|o|a|el|la|tu|seu|sua)\s+(?:[\w']+\s+){0,2}?(?:buddy|companion|guide"
    r"|agent|agente|guia|assistant|assistente|asistente|helper|ajudante)\s+(?:from|of|at|da|do|de)"
)


def _capitalised_name(document: FoldedText, folded_start: int) -> tuple[int, int] | None:
    """The capitalised words of the original at a folded position, unless they are no name
    ("I", "Sorry") or a quotation's."""
    original = document.original
    start = document.original_index(folded_start)
    if start >= len(original) or not original[start].isupper() or is_quoted(original, start):
        return None
    end = _named_end(original, start)
    word = original[start:end].casefold().split(" ", 1)[0]
    if word in _NOT_NAMES or word.endswith(_ADJECTIVE_ENDINGS) or end <= start:
        return None
    return start, end


_ADJECTIVE_ENDINGS = ("ian", "ese", "ish")  # "I'm Brazilian", "I'm Japanese", "I'm British"


def _is_confirmed(document: FoldedText, match: re.Match[str], name_end: int) -> bool:
    """Whether an introduction gives the speaker's name: what it is, who made it or that it
    speaks follows ("I'm Aria, your assistant"), help is offered right after ("I'm Zorbel.
    How can I help?"), or it opens the answer and its sentence ends at the name ("Olá! Sou
    Brisa.")."""
    folded = document.folded
    if _CONFIRMS.match(folded, name_end) is not None:
        return True
    # Who made the speaker, said earlier in the sentence: "Fui desenvolvido pela Jaguar Tech
    # e me chamo Tupi" ("Fui criado pela minha avó" names no maker).
    window = max(0, match.start() - 200)
    sentence = max(window, *(folded.rfind(c, window, match.start()) + 1 for c in ".!?\n"))
    made = _SELF_DESCRIPTION.search(folded, sentence, match.start())
    if made is not None and document.original[document.original_index(made.end())].isupper():
        return True
    if _HELP_OFFER.match(folded, name_end) is not None:
        return True
    greeting = _GREETING.fullmatch(folded, 0, match.start())
    if greeting is None:
        return False
    greeted = any(c.isalpha() for c in folded[: match.start()])
    ends = _GREETED_END if greeted else _SENTENCE_END
    if ends.match(folded, name_end) is not None:
        return True
    affiliation = _AFFILIATION.match(folded, name_end) if greeted else None
    if affiliation is not None:
        start = document.original_index(affiliation.end())
        end = _capitalised_end(document.original, start)
        if end > start and document.original[start].isupper():
            name_end = affiliation.end() + len(FoldedText(document.original[start:end]).folded)
    return ends.match(folded, name_end) is not None


def _named_end(original: str, start: int) -> int:
    """Where an introduced name ends: its capitalised words and a version ("Nico 2.0")."""
    end = _capitalised_end(original, start)
    version = _VERSION_AFTER.match(original, end) if end > start else None
    return end if version is None else version.end()


def _capitalised_end(original: str, start: int) -> int:
    """Where the capitalised words from `start` end ("Acme Labs para" -> after "Labs"; "Banco
    do Brasil, que" -> after "Brasil")."""
    words = _CAPITALISED.match(original, start)
    if words is None:
        return start
    end = start
    for word in re.finditer(r"\S+", words.group()):
        text = word.group()
        if text[0].isupper():
            end = start + word.end()
        elif not re.fullmatch(r"d[aoe]s?|of|the|del?|du|des|la|y|e|&", text):
            break
    return end
