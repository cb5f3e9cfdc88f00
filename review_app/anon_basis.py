"""The model an assistant says it runs on, named in no list, for the anonymiser
(review_app.anonymise): "I'm the shop's assistant, running on the abab model", "funciono
com o modelo Tatu", "estoy basado en el modelo Quimera", "我基于星河大模型".

A model's own name is often a plain word ("abab", "tatu"), so it counts only in the
speaker's sentence and right beside "model": "the app runs on the Android system" and "a
car based on the Tesla model" name no speaker and are kept.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from review_app.anon_scripts import WORD
from review_app.textfold import FoldedText

_RUNS_ON = re.compile(
    rf"(?<!{WORD})(?:running|run|runs|built|based|powered|funciono|rodo|rodando|baseado"
    r"|baseada|construido|construida|basado|basada|funcionando|ejecutando|corriendo)\s+"
    r"(?:on\s+top\s+of|on|upon|em|no|na|en|el|sobre|com|con)\s+"
    r"(?:(?:the|an?|o|a|el|la|um|uma|un|una)\s+)?"
    r"(?:(?:model|modelo|modele|llm)\s+(?P<after>[\w.\-]{2,30})"
    r"|(?P<before>[\w.\-]{2,30})\s+(?:model|modelo|llm|family|familia|weights))(?![\w\-])"
)
_CJK_RUNS_ON = re.compile(
    r"(?:基于|运行在|采用|使用)(?P<name>[^\s，,。！？!?、的]{1,12}?)(?:大?模型|架构|底座)"
)
# The speaker earlier in the sentence, or the verb's own person: "I'm", "sou", "funciono",
# "我". Not "my": "my car is based on the Tesla model" is about the car.
_SPEAKER = re.compile(
    r"(?<![a-z])(?:i|i'm|me|eu|sou|estou|soy|estoy|yo|je|suis|funciono|rodo)"
    r"(?![a-z])"
)
_CJK_SPEAKER = re.compile(r"我(?!们|家|的朋友)|本(?:助手|模型|系统|机器人)")
_SENTENCE_BREAK = re.compile(r"[.!?\n。！？]")
_GENERIC = frozenset(
    {"language", "large", "same", "open", "new", "latest", "base", "foundation", "transformer"}
    | {"ai", "ia", "this", "that", "my", "own", "proprietary", "custom", "internal", "small"}
    | {"underlying", "big", "de", "of", "linguagem", "lenguaje", "mesmo", "mismo", "novo"}
    | {"nuevo", "seu", "su", "meu", "mi", "grande", "proprio", "propio", "ultimo", "previous"}
)


def spans_of_models_run_on(document: FoldedText) -> Iterable[tuple[int, int]]:
    folded = document.folded
    for match in _RUNS_ON.finditer(folded):
        group = "after" if match.group("after") is not None else "before"
        name = match.group(group).strip(".-")
        if name in _GENERIC or name.isdigit() or not _speaks(folded, match.start(group), _SPEAKER):
            continue
        start = match.start(group)
        yield document.original_span(start, start + len(name))
    for match in _CJK_RUNS_ON.finditer(folded):
        if _speaks(folded, match.start(), _CJK_SPEAKER):
            yield document.original_span(match.start("name"), match.end("name"))


def _speaks(folded: str, start: int, speaker: re.Pattern[str]) -> bool:
    """Whether the speaker is named in the sentence before `start` (at most 160 characters)."""
    window_start = max(0, start - 160)
    breaks = list(_SENTENCE_BREAK.finditer(folded, window_start, start))
    sentence_start = breaks[-1].end() if breaks else window_start
    return speaker.search(folded, sentence_start, start) is not None
