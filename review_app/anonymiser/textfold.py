"""Folded text for matching names: NFKC, case-folded, accents and invisible characters removed,
and letters of other alphabets that look like Latin ones folded to them ("Сlаude" -> "claude").

Matching runs on the folded text while replacement happens in the original, so a folded
text keeps the way back: each folded character knows the original character it came from.
"""

from __future__ import annotations

import html
import re
import unicodedata
from bisect import bisect_right
from functools import cached_property
from itertools import accumulate

from review_app.anonymiser.hant import SIMPLIFIED_OF
from review_app.anonymiser.scripts import is_cjk, latin_look_alike

# Quotes and dashes that NFKC keeps apart but a name may be written with ("I’m", "GPT‑4").
_PUNCTUATION = {"\u2018": "'", "\u2019": "'", "\u02bc": "'", "\u2032": "'", "\u00b4": "'"}
_PUNCTUATION |= dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212\ufe63\uff0d", "-")
# Unicode's default-ignorable code points that are not format characters: the combining
# grapheme joiner, Hangul fillers, variation selectors, Mongolian free variation selectors
# and Khmer inherent vowels. A reader sees nothing; "Cl\u034faude" must read "claude".
_IGNORABLE_RANGES = (
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


def _is_ignorable(character: str) -> bool:
    code = ord(character)
    return unicodedata.category(character) == "Cf" or any(
        low <= code <= high for low, high in _IGNORABLE_RANGES
    )


def _fold_character(character: str) -> str:
    if character in _PUNCTUATION:
        return _PUNCTUATION[character]
    # Format characters (category Cf) are the zero-width and bidirectional controls and the
    # soft hyphen: invisible to a reader, so they must not hide a name ("Cl\u200baude").
    if _is_ignorable(character):
        return ""
    # A capital that looks Latin may lose the likeness in lower case (Cyrillic "М", "м").
    if (capital_look_alike := latin_look_alike(character)) is not None:
        return capital_look_alike
    composed = unicodedata.normalize("NFKC", character).casefold()
    # A Hangul syllable decomposes into letters (jamo) that would read as a word of a spaced
    # alphabet, so that "하이퍼클로바X입니다" would hold no bounded name: it stays whole.
    if is_cjk(composed[:1]):
        # A traditional character reads as its simplified form: "通義千問" is "通义千问".
        return SIMPLIFIED_OF.get(composed, composed)
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


# HTML a reviewer sees rendered: a tag shows nothing and an entity one character, so
# "<b>Cl</b>aude", "C&#108;aude" and "Llama&nbsp;3" read as names. A tag that breaks a line
# reads as one; inline tags join what they part ("<span>Gem</span><span>ini</span>").
_MARKUP = re.compile(
    r"</?(?P<tag>[A-Za-z][A-Za-z0-9]{0,15})(?P<attributes>\s[^<>]{0,300})?/?>"
    r"|&(?:#[0-9]{1,7}|#[xX][0-9A-Fa-f]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});"
)
_INLINE_TAGS = frozenset(
    [
        "a",
        "abbr",
        "b",
        "bdi",
        "bdo",
        "big",
        "cite",
        "code",
        "del",
        "dfn",
        "em",
        "font",
        "i",
        "ins",
        "kbd",
        "mark",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strong",
        "sub",
        "sup",
        "time",
        "tt",
        "u",
        "var",
        "wbr",
    ]
)


def _folded_markup(token: re.Match[str]) -> str | None:
    """What a tag or an entity shows, folded; None when it is no markup ("&foo;")."""
    text = token.group()
    if text.startswith("&"):
        shown = html.unescape(text)
        return None if shown == text else fold(shown)
    return "" if token.group("tag").lower() in _INLINE_TAGS else "\n"


class FoldedText:
    """A text, its folded form, and the map from folded positions to original ones."""

    def __init__(self, original: str) -> None:
        self.original = original
        self._ends: list[int] | None = None  # folded end offset of each original character
        self._lengths: list[int] | None = None  # folded length of each, when markup is read
        self._in_tag = bytearray()  # 1 for each character of a tag, kept around a name
        if "<" in original or "&" in original:
            self.folded = self._fold_markup()
        else:
            self.folded = fold(original)

    def _fold_markup(self) -> str:
        """The folded text with tags and entities read as a browser shows them; the folded
        form of a tag or an entity belongs to its first character, the others fold to none."""
        pieces: list[str] = []
        lengths: list[int] = []

        def add(start: int, end: int, shown: str | None = None) -> None:
            if shown is None:  # plain text, folded character by character
                pieces.append(fold(self.original[start:end]))
                lengths.extend(len(_TABLE[ord(c)]) for c in self.original[start:end])
            elif end > start:
                pieces.append(shown)
                lengths.extend([len(shown)] + [0] * (end - start - 1))

        previous = 0
        for token in _MARKUP.finditer(self.original):
            shown = _folded_markup(token)
            if shown is None:
                continue
            add(previous, token.start())
            previous = token.end()
            if token.group().startswith("&"):
                add(token.start(), token.end(), shown)
                continue
            self._in_tag.extend(bytes(token.start() - len(self._in_tag)))
            self._in_tag.extend(b"\x01" * (token.end() - token.start()))
            # Attributes stay readable ('<span title="Claude">'); the tag itself shows nothing.
            attributes_start, attributes_end = token.span("attributes")
            if attributes_start < 0:
                add(token.start(), token.end(), shown)
                continue
            add(token.start(), attributes_start, shown)
            add(attributes_start, attributes_end)
            add(attributes_end, token.end(), " ")
        if not pieces:
            return fold(self.original)
        add(previous, len(self.original))
        self._lengths = lengths
        return "".join(pieces)

    @cached_property
    def _has_silent_characters(self) -> bool:
        """Whether some character of the original shows nothing (most texts have none)."""
        return self._lengths is not None or any(_TABLE[ord(c)] == "" for c in set(self.original))

    def _folded_ends(self) -> list[int]:
        # Built only when a match needs it: most texts hold no name at all.
        if self._ends is None:
            lengths = self._lengths or (len(_TABLE[ord(c)]) for c in self.original)
            self._ends = list(accumulate(lengths))
        return self._ends

    def original_index(self, folded_index: int) -> int:
        """The original character that produced the folded character at `folded_index`."""
        return bisect_right(self._folded_ends(), folded_index)

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """The original span behind the folded span [start, end), with the invisible
        characters (accents written apart, zero-width and direction marks) around it."""
        ends = self._folded_ends()
        first = bisect_right(ends, start)
        while (
            first > 0
            and ends[first - 1] == (ends[first - 2] if first > 1 else 0)
            and not self._is_tag(first - 1)
        ):
            first -= 1
        last = bisect_right(ends, end - 1) + 1
        while last < len(self.original) and ends[last] == ends[last - 1] and not self._is_tag(last):
            last += 1
        return first, last

    def hides_inside(self, start: int, end: int) -> bool:
        """Whether an original character between the first and the last behind the folded
        span [start, end) shows nothing: an invisible character, a tag or an entity's tail
        inside a word ("Gem\u2060ini", "Gem<b>ini</b>"); an accent written apart is none."""
        if end - start < 2 or not self._has_silent_characters:
            return False
        ends = self._folded_ends()
        first, last = bisect_right(ends, start), bisect_right(ends, end - 1)
        return any(
            ends[index] == ends[index - 1] and not unicodedata.combining(self.original[index])
            for index in range(first + 1, last)
        )

    def _is_tag(self, index: int) -> bool:
        """Whether the original character at `index` is in an HTML tag: "<b>Claude</b>"
        keeps its tags around the marker."""
        return index < len(self._in_tag) and self._in_tag[index] == 1
