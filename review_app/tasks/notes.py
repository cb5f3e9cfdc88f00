"""Free text written by people (notes, justifications, replies) made safe to show.

A note is data, never layout: before it is shown, the characters that change how text is
laid out without being seen are removed (bidirectional controls such as U+202E, zero-width
characters, the byte-order mark, other control characters), and every line is quoted, so
that no line of a note can pass for a line the app wrote (a vote, a name, a status).
"""

from __future__ import annotations

import unicodedata

QUOTE = "> "
# Unicode categories that are never seen: format (bidi controls, zero-width characters,
# BOM, soft hyphen), control, private use and surrogates.
_INVISIBLE_CATEGORIES = frozenset({"Cf", "Cc", "Co", "Cs"})
# Letters and marks that draw nothing either (Hangul fillers, the combining grapheme joiner,
# the braille blank).
_BLANK_CHARACTERS = frozenset("\u034f\u115f\u1160\u3164\uffa0\u2800")
# Line and paragraph separators break a line like "\n" does: keep the break, quoted.
_LINE_BREAKS = str.maketrans({"\r": "\n", "\u0085": "\n", "\u2028": "\n", "\u2029": "\n"})


def visible_text(text: str) -> str:
    """`text` without invisible characters; every line break becomes "\\n", a tab a space."""
    unified = text.replace("\r\n", "\n").translate(_LINE_BREAKS).replace("\t", " ")
    return "".join(
        character
        for character in unified
        if character == "\n"
        or (
            unicodedata.category(character) not in _INVISIBLE_CATEGORIES
            and character not in _BLANK_CHARACTERS
        )
    )


def quoted_text(text: str) -> str:
    """`text` made visible (`visible_text`) with every line quoted ("> ")."""
    return "\n".join(QUOTE + line for line in visible_text(text).split("\n"))
