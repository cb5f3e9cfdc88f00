"""The organisation a self-introduction names as the speaker's own, for the anonymiser
(review_app.anonymiser.anonymise): "I'm Nora, the virtual assistant of Pinecrest Savings", "sou a
assistente digital da Clínica Vida Plena", "soy Max, tu asistente de la aseguradora
Solvera", "我是小北，北辰银行的智能客服".

A deployed assistant names the company it serves right after its own name; that company is
in no list, and tells a reviewer which participant wrote the answer as well as a name does.
It counts only in the sentence of a self-introduction: "I asked the assistant of Dr. Silva"
introduces nobody.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from heapq import heappop, heappush

from review_app.anonymiser.cues import BEING_CUES, MAKER_CUES, NAME_CUES
from review_app.anonymiser.quotes import is_quoted
from review_app.anonymiser.scripts import WORD
from review_app.anonymiser.textfold import FoldedText

# The speaker's role, then "of", "from", "da", "de la"...: "your helper from", "a IA da".
_ROLE_WORDS = (
    r"assistant|assistente|asistente|helper|ajudante|ayudante|buddy|companion|model|modelo|bot"
    r"|robo|ia|ai|chatbot|agent|agente|concierge|guide|guia|atendimento|atencion|support"
    r"|suporte|soporte|inteligencia\s+artificial|artificial\s+intelligence"
    # People's jobs an assistant takes: "o atendente digital da", "la asesora virtual de".
    r"|atendente|atendiente|asesor[a]?|assessor[a]?|consultor[a]?|recepcionista|receptionist"
    r"|representative|tutor|mascote|mascot|helpdesk|plataforma|platform"
    r"|(?:virtual|digital)\s+(?:adviser|advisor|consultant|coach|guide|host|receptionist)"
)
_ROLE_OF = re.compile(
    rf"(?<!{WORD})(?:{_ROLE_WORDS})s?"
    # What the role is for, up to two words: "de compras", "de viajes escolares".
    r"(?:\s+(?:virtual|digital|online|inteligente|oficial|official|exclusiv[oa]|automatic[oa]"
    r"|de\s+\w+(?:\s+\w+)?|for\s+\w+))?"
    # "an AI assistant made by Fenwick", "the writing assistant developed at Mossgrove".
    r"(?:\s+(?:developed|built|made|created|trained|designed|desarrollad[oa]|entrenad[oa]"
    r"|cread[oa]|criad[oa]|desenvolvid[oa]|treinad[oa])\s+(?:by|at|por|pel[oa]|em|en|in)"
    r"|\s+(?:of|from|at|for|da|do|das|dos|de\s+la|del|de|d'))\s+"
)
# A self-introduction earlier in the same sentence: "I'm Nora, the ...", "Sage here, the".
_INTRODUCED = re.compile(
    rf"(?<!{WORD})(?:{'|'.join(NAME_CUES + BEING_CUES)}|this\s+is|here|aqui|as|como|speaking"
    r"|(?:te|le)\s+atiende|it'?s|meet|conheca|conoce|welcome\s+to|bem-vind[oa]\s+a[oa]?"
    r"|bienvenid[oa]\s+a(?:l|\s+la)?)[\s,]"
)
# "the HR assistant that Halvorsen Group uses": the owner as the subject of a relative clause.
_ROLE_THAT = re.compile(rf"(?<!{WORD})(?:{_ROLE_WORDS})s?\s+(?:that|which|que)\s+(?=[^\W\d_])")
_OWNER_VERB = re.compile(
    r"[ \t]+(?:uses|use|used|runs|deploys|deployed|offers|built|made|created|usa|utiliza|emplea"
    r"|oferece|ofrece|criou|creo|desenvolveu|desarrollo)(?![^\W\d_])"
)
# A speaker's name or maker, then whom it is from: "I'm [Poppy] from the Willowbank
# Primary helpdesk", "soy [Spark] de iFlytek", "created by [Tallwood] for the Ridgeway
# Foundation's office". Only after a span already masked.
_OF_AFTER_NAME = re.compile(
    # An emoji may come between: "Sou a [Bia] 🤖, da Clínica Viver".
    r"(?:\*{1,2}|\])?(?:[ \t]*[\u2600-\u27bf\U0001f000-\U0001faff]{1,3})?,?[ \t]+"
    r"(?:from|of|at|by|for|with|de|da|do|del|pela|pelo|por)"
    r"[ \t]+(?:(?:the|la|el|o|a)[ \t]+)?(?=[A-Z])"
)
_SENTENCE_BREAK = re.compile(r"[.!?\n]")
# Who made the speaker, said in its self-introduction's sentence without "I": "Aqui é o Kiko,
# assistente da operadora, criado pela Lumiar Dados"; "an AI created by Brookline EdTech".
_MAKER = re.compile(rf"(?<!{WORD})(?:{'|'.join(MAKER_CUES)})\s+(?:(?:the|a|o|la|el|le)\s+)?")
# Whose assistant the speaker is: "I'm Harbor, Cresthaven Health's symptom-checker assistant".
_ROLE = re.compile(
    rf"(?<!{WORD})(?:assistant|assistente|asistente|helper|ajudante|bot|chatbot|ia|ai|model"
    rf"|modelo|agent|agente|inteligencia\s+artificial)(?!{WORD})"
)
_OWNER_OF_ROLE = re.compile(
    # Each word opens where no word character precedes it, and is read whole (possessive):
    # tried from every capital of a long word, the pattern was quadratic.
    r"(?<![\w&\-])(?P<owner>(?:[A-Z][\w&\-]*+[ \t]+){0,3}[A-Z][\w&\-]*+)'s[ \t]+"
    r"(?:[\w\-]+[ \t]+){0,2}?"
    r"(?:assistant|helper|bot|chatbot|agent|guide|companion|AI)(?![a-z])"
)
_CAPITALISED_WORDS = re.compile(
    r"[^\W\d_][\w&'\-]*(?:[ \t]+(?:(?:d[aoe]s?|of|del?|du|la|y|e|&)[ \t]+)?[^\W\d_][\w&'\-]*){0,3}"
)
_AI_WORDS = frozenset({"ia", "ai", "llm", "inteligência artificial", "artificial intelligence"})
_LOWER_WORDS_BEFORE = 3  # "de la aseguradora Solvera", "da operadora de saúde Bem-Cuidar"
# "我是小北，北辰银行的智能客服", "我是阿福，是安居租房平台的AI助手".
_CJK_OWN_ORGANISATION = re.compile(
    r"(?:我是|我叫|这里是|我的名字叫|名为)[^，,。！？!?\n]{1,10}[，,]\s*(?:是)?(?:一个|一款|一种|一位|一名)?由?"
    r"(?P<organisation>[^\s，,。！？!?的]{2,12}?)(?:自主研发|开发|训练|推出)?的"
    r"[^，,。！？!?\n]{0,8}?(?:助手|助理|客服|机器人|顾问|管家|导购|向导|ai)"
)


def spans_of_own_organisations(document: FoldedText) -> Iterable[tuple[int, int]]:
    """Each organisation found, unless its self-introduction is quoted: 'She said, "Hi, I'm
    Dave, a representative of Northwind"' is somebody else's ('Sou a Lia, assistente da loja
    "Casa Bela"' quotes only the name, and still goes)."""
    for introduction, span in _organisations(document):
        if not is_quoted(document.original, document.original_index(introduction)):
            yield span


def _organisations(document: FoldedText) -> Iterable[tuple[int, tuple[int, int]]]:
    """(where the introduction or role is in the folded text, the organisation's span)."""
    folded, original = document.folded, document.original
    for match in _ROLE_OF.finditer(folded):
        sentence_start = _sentence_start(folded, match.start())
        if _INTRODUCED.search(folded, sentence_start, match.start()) is None:
            continue
        span = _capitalised_after(original, document.original_index(match.end()))
        if span is not None and original[span[0] : span[1]].casefold() not in _AI_WORDS:
            yield match.start(), span
    for match in _MAKER.finditer(folded):
        sentence_start = _sentence_start(folded, match.start())
        introduced = _INTRODUCED.search(folded, sentence_start, match.start())
        # What the speaker is comes between: "Sou a Ana e o bolo foi feito pela Maria" is kept.
        if introduced is None or not _ROLE.search(folded, introduced.end(), match.start()):
            continue
        span = _capitalised_after(original, document.original_index(match.end()))
        if span is not None and original[span[0] : span[1]].casefold() not in _AI_WORDS:
            yield match.start(), span
    for match in _OWNER_OF_ROLE.finditer(original):
        # Right after the speaker's name: "I'm Harbor, Cresthaven Health's assistant".
        if not original.endswith((", ", "(", "\u2014 ", "\u2013 ", "- "), 0, match.start()):
            continue
        folded_start = document.original_span(match.start(), match.start() + 1)[0]
        sentence_start = _sentence_start(folded, folded_start)
        if _INTRODUCED.search(folded, sentence_start, folded_start) is not None:
            yield folded_start, match.span("owner")
    for match in _ROLE_THAT.finditer(folded):
        sentence_start = _sentence_start(folded, match.start())
        if _INTRODUCED.search(folded, sentence_start, match.start()) is None:
            continue
        span = _capitalised_after(original, document.original_index(match.end()), lower=0)
        if span is not None and _OWNER_VERB.match(original, span[1]) is not None:
            yield match.start(), span
    for match in _CJK_OWN_ORGANISATION.finditer(folded):
        organisation = document.original_span(
            match.start("organisation"), match.end("organisation")
        )
        yield match.start(), organisation


def _sentence_start(folded: str, position: int) -> int:
    window_start = max(0, position - 120)
    breaks = list(_SENTENCE_BREAK.finditer(folded, window_start, position))
    return breaks[-1].end() if breaks else window_start


def spans_after_names(original: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans`, with the capitalised words that say whom each is from or for ("[Poppy] from
    the Willowbank Primary helpdesk"), and so on along a chain ("by [Tallwood] for the
    Ridgeway Foundation's office")."""
    # A heap and a set: with thousands of spans, a sorted list's insertions and membership
    # tests were quadratic. A span found starts after the one it follows, so it is still ahead.
    waiting = sorted(set(spans))
    seen = set(waiting)
    found: list[tuple[int, int]] = []
    while waiting:
        span = heappop(waiting)
        found.append(span)
        connector = _OF_AFTER_NAME.match(original, span[1])
        if connector is not None:
            after = _capitalised_after(original, connector.end(), lower=0)
            if after is not None and after not in seen:
                seen.add(after)
                heappush(waiting, after)
    return found


_OPENERS = "\"'*_\u201c\u00ab\u300c"
_WORD_AFTER = re.compile(r"[^\s,.;:!?\"\u201d\u00bb*]+")


def _capitalised_after(
    original: str, start: int, *, lower: int = _LOWER_WORDS_BEFORE
) -> tuple[int, int] | None:
    """The capitalised words after up to three lower-case ones ("la aseguradora Solvera")."""
    position = start
    for _ in range(lower + 1):
        # An opening quote or bold before the name: 'da loja "Casa Bela"', "de **Solvera**".
        while position < len(original) and original[position] in _OPENERS:
            position += 1
        word = _WORD_AFTER.match(original, position)
        if word is None:
            return None
        if word.group()[0].isupper():
            words = _CAPITALISED_WORDS.match(original, word.start())
            return (
                None if words is None else (word.start(), _trimmed_end(words.group(), word.start()))
            )
        if not word.group().isalpha() or not word.group().islower():
            return None
        position = word.end()
        while position < len(original) and original[position] in " \t":
            position += 1
    return None


def _trimmed_end(words: str, start: int) -> int:
    """The end of the last capitalised word ("Banco do Brasil, que" -> after "Brasil")."""
    end = start
    for word in re.finditer(r"\S+", words):
        if word.group()[0].isupper():
            end = start + word.end()
    return end
