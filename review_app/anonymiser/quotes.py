"""Quotations and lines of dialogue, for the anonymiser (review_app.anonymiser.anonymise): a name
introduced inside one is somebody else's ('Ela disse: "Oi, eu sou a Marina"', "— Eu sou o
Pedro — respondeu"), not the answer's."""

from __future__ import annotations

import re

_QUOTE_REACH = 300
_DIALOGUE_LINE = re.compile(r"[ \t]*[\u2014\u2013]")


def is_quoted_speech(original: str, start: int) -> bool:
    """Whether the name at `start` is said in a quotation that opened before its words
    ('He said, "My name is Claude, I'll take"'): somebody else introducing themselves. A
    name quoted alone ('Sou o "Claude"') is no speech."""
    if not is_quoted(original, start):
        return False
    before = original[max(0, start - _QUOTE_REACH) : start]
    opening = max(before.rfind(q) for q in '"\u201c\u00ab\u300c\u300e')
    return opening >= 0 and len(re.findall(r"[^\W\d_]+", before[opening + 1 :])) >= 2


def is_quoted(original: str, start: int) -> bool:
    """Whether `start` is inside a quotation or a line of dialogue ("— Eu sou o Pedro —
    respondeu", 'Ela disse: "Oi, eu sou a Marina"'): a person speaking, not the answer."""
    # Looked for in the last few hundred characters only: a quotation spans no more, and a
    # search back to the line's start would make a long line quadratic.
    line_start = original.rfind("\n", max(0, start - _QUOTE_REACH), start) + 1
    line_start = max(line_start, start - _QUOTE_REACH)
    line = original[line_start:start]
    if _DIALOGUE_LINE.match(line) is not None:
        return True
    opened = any(line.count(left) > line.count(right) for left, right in _QUOTE_PAIRS)
    return opened or line.count('"') % 2 == 1


_QUOTE_PAIRS = (
    ("\u201c", "\u201d"),
    ("\u00ab", "\u00bb"),
    ("\u300c", "\u300d"),
    ("\u300e", "\u300f"),
)
