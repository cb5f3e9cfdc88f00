"""Folded text for matching names: NFKC, case-folded, accents and invisible characters removed,
and letters of other alphabets that look like Latin ones folded to them ("Сlаude" -> "claude").

Matching runs on the folded text while replacement happens in the original, so a folded
text keeps the way back: each folded character knows the original character it came from.
"""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from itertools import accumulate

from review_app.anon_scripts import is_cjk, latin_look_alike

# Quotes and dashes that NFKC keeps apart but a name may be written with ("I’m", "GPT‑4").
_PUNCTUATION = {"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'"}
_PUNCTUATION |= dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d", "-")


def _fold_character(character: str) -> str:
    if character in _PUNCTUATION:
        return _PUNCTUATION[character]
    # Format characters (category Cf) are the zero-width and bidirectional controls and the
    # soft hyphen: invisible to a reader, so they must not hide a name ("Cl\u200baude").
    if unicodedata.category(character) == "Cf":
        return ""
    # A capital that looks Latin may lose the likeness in lower case (Cyrillic "М", "м").
    if (capital_look_alike := latin_look_alike(character)) is not None:
        return capital_look_alike
    composed = unicodedata.normalize("NFKC", character).casefold()
    # A Hangul syllable decomposes into letters (jamo) that would read as a word of a spaced
    # alphabet, so that "하이퍼클로바X입니다" would hold no bounded name: it stays whole.
    if is_cjk(composed[:1]):
        return composed
    folded = unicodedata.normalize("NFD", composed)
    return "".join(latin_look_alike(c) or c for c in folded if not unicodedata.combining(c))


class _FoldTable(dict[int, str]):
    """A str.translate table computed on first use of each code point, then cached."""

    def __missing__(self, code: int) -> str:
        value = _fold_character(chr(code))
        self[code] = value
        return value


_TABLE = _FoldTable()


def fold(text: str) -> str:
    """The folded form of `text` (what names are matched against)."""
    return text.translate(_TABLE)


class FoldedText:
    """A text, its folded form, and the map from folded positions to original ones."""

    def __init__(self, original: str) -> None:
        self.original = original
        self.folded = fold(original)
        self._ends: list[int] | None = None  # folded end offset of each original character

    def _folded_ends(self) -> list[int]:
        # Built only when a match needs it: most texts hold no name at all.
        if self._ends is None:
            self._ends = list(accumulate(len(_TABLE[ord(c)]) for c in self.original))
        return self._ends

    def original_index(self, folded_index: int) -> int:
        """The original character that produced the folded character at `folded_index`."""
        return bisect_right(self._folded_ends(), folded_index)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind the folded span [start, end), with the invisible
        characters (accents written apart, zero-width and direction marks) around it."""
        ends = self._folded_ends()
        first = bisect_right(ends, start)
        while first > 0 and (ends[first - 1] == (ends[first - 2] if first > 1 else 0)):
            first -= 1
        last = bisect_right(ends, end - 1) + 1
        while last < len(self.original) and ends[last] == ends[last - 1]:
            last += 1
        return first, last
