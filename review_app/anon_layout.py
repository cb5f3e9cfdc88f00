"""Where a name sits in an answer's layout, for the anonymiser (review_app.anonymise): a
signature under the answer ("— Tuiuiú", "Abraços,\nGemini", "---\nGemini", "——豆包（字节跳动）")
unless the answer drafts a letter for the reader, a value of an identity key in code or data
('"model": "gemini"'), and an everyday name modifying a noun no assistant is ("the Gemini
constellation").

All patterns run on folded text (review_app.textfold).
"""

from __future__ import annotations

import re

from review_app.anon_scripts import WORD

# A signature: a line that opens with a dash and holds only the name ("— Tuiuiú").
_SIGNATURE_BEFORE = re.compile(
    # A line of dashes above the name counts too: "\n---\nGemini".
    r"(?:(?:^|\n)[ \t]*(?:-{3,}|_{3,}|\*{3,})[ \t]*\n[ \t]*$)|"
    r"(?:^|\n|[.!?][ \t])[ \t]*-{1,2}[ \t]*(?:the[ \t]+)?"
    r"(?:(?:equipe|team|equipo|time)[ \t]+(?:d[aoe][ \t]+)?)?$"
)
# "— Equipe Gemini", "— The Grok team": a team signs too.
# With its maker in brackets or after a comma: "——豆包（字节跳动）", "— Gemini, Google"; a
# description after a comma is a list's item ("- Gemini, a constelação").
_SIGNATURE_AFTER = re.compile(
    r"(?:[ \t]+(?:team|equipe|equipo))?(?:[ \t]*\([^()\n]{1,30}\)|,[ \t]*(?!(?:a|o|the|an?|el"
    r"|la|um|uma|un|una|my|meu|minha|mi|your|seu|sua|tu|su)\s)[^\W\d_][^,.\n]{0,29})?"
    r"[ \t.!]*(?:\n|$)"
)
# A closing line, then the name alone: "Abraços,\nGemini", "Best regards, Grok".
_SIGN_OFF_BEFORE = re.compile(
    r"(?:^|\n)[ \t]*(?:best\s+regards|kind\s+regards|warm\s+regards|regards|best|cheers"
    r"|sincerely|yours|atenciosamente|abracos?|um\s+abraco|cordialmente|saudacoes|saludos"
    r"|un\s+saludo|atentamente|cordialement|amicalement|此致敬礼|此致)[ \t]*[,!.]?[ \t]*"
    r"(?:\n[ \t]*)?(?:-{1,2}[ \t]*)?$"
)


# A letter drafted for the reader opens on a salutation: its signature is the reader's name
# ("Dear Mr Lima, ... Best regards,\nAlice"), not the answer's.
_SALUTATION = re.compile(
    r"(?:^|\n)[ \t]*(?:dear|prezad[oa]s?|estimad[oa]s?|querid[oa]s?|car[oa]|cher|chere"
    r"|to\s+whom\s+it\s+may\s+concern|a\s+quem\s+possa\s+interessar|a\s+quien\s+corresponda"
    r"|尊敬的|亲爱的)(?!\s+(?:user|usuari[oa]|leitor|lector|reader|utilisateur))(?![a-z])"
)
_LETTER_REACH = 3000  # characters back searched for a salutation: a letter is no longer


# A value in code or data, where names are written in small letters: '"model": "gemini"',
# "  assistant: grok" in YAML, "| modelo | gemini |", 'model="llama"'.
_CODE_KEY_BEFORE = re.compile(
    r"(?:[\"'](?:model|modelo|assistant|assistente|asistente|provider|maker|author"
    r"|generated_by|generator|bot)[\"']\s*:\s*[\"']"
    r"|(?:^|\n)[ \t]*(?:-[ \t]*)?(?:model|modelo|assistant|assistente|asistente|provider|maker"
    r"|author|generated_by|generator|bot)[ \t]*:[ \t]*[\"']?"
    # A table's identity row: "| modelo | gemini |".
    r"|(?:model|modelo|modele|assistant|assistente|asistente|chatbot)[ \t]*\|[ \t]*"
    # A keyword argument: 'client.chat(model="llama")'.
    rf"|(?<!{WORD})(?:model|model_name|model_id|assistant|provider)[ \t]*=[ \t]*[\"'])$"
)


# An everyday name as the modifier of a noun that no assistant is: "This is the Gemini
# constellation", "é o signo de Gêmeos", "the Falcon rocket", "la misión Gemini".
_ORDINARY_HEAD = re.compile(
    r"[ \t]+(?:constellation|constelacao|constelacion|sign|signo|zodiac|zodiaco|mission|missao"
    r"|mision|programme|spacecraft|capsule|capsula|rocket|foguete|cohete|telescope|telescopio"
    rf"|satellite|satelite)(?!{WORD})"
)


def is_ordinary_head(folded: str, end: int) -> bool:
    """Whether the name ending at `end` modifies a noun no assistant is ("Gemini sign")."""
    return _ORDINARY_HEAD.match(folded, end) is not None


def is_code_value(folded: str, start: int) -> bool:
    """Whether the name at `start` is the value of an identity key in code or data."""
    return _CODE_KEY_BEFORE.search(folded, max(0, start - 40), start) is not None


def is_signature(folded: str, start: int, end: int) -> bool:
    """Whether the name at folded[start:end] signs the answer: "\n— Tuiuiú"."""
    before = folded[max(0, start - 40) : start]
    signs = _SIGNATURE_AFTER.match(folded, end) is not None and (
        _SIGNATURE_BEFORE.search(before[-20:]) is not None
        or _SIGN_OFF_BEFORE.search(before) is not None
    )
    return signs and _SALUTATION.search(folded, max(0, start - _LETTER_REACH), start) is None
