"""Scripts and look-alike letters, for the anonymiser (review_app.anonymiser.anonymise) and its leak
report (review_app.anonymiser.leaks).

"Сlаudе" with a Cyrillic С and а reads "Claude" to a reviewer but is another string to a
regex. Letters of other alphabets that Unicode's confusables data (UTS #39, shipped by the
confusable-homoglyphs package) declares look-alikes of a Latin letter are folded to that
letter before names are matched; the original text is what gets replaced.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import cache

from confusable_homoglyphs import confusables

# Alphabets whose letters are folded to their Latin look-alikes. Latin letters keep their
# own folding (accents removed); Han, kana and Hangul have no Latin look-alike worth folding.
_FOLDED_SCRIPTS = ("CYRILLIC", "GREEK", "ARMENIAN", "CHEROKEE", "COPTIC", "LISU", "CANADIAN")
# Ideographs, kana and Hangul: written without spaces, so a Latin name may touch them
# ("我是Claude，由Anthropic开发") and a name in them may sit inside a longer run ("我是豆包").
# Kangxi and supplementary radicals too: "⾖包" reads as "豆包" (NFKC folds them).
CJK_RANGES = "\u2e80-\u2fdf\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
# A letter or digit of an alphabet written with spaces: what a Latin name may not touch.
WORD = rf"[^\W_{CJK_RANGES}]"
_CJK = re.compile(f"[{CJK_RANGES}]")


def is_cjk(character: str) -> bool:
    return _CJK.match(character) is not None


def is_word_character(character: str) -> bool:
    """A letter or digit of a spaced alphabet: "a", "ж", "7"; not "是", "_", " "."""
    return character.isalnum() and not is_cjk(character)


@cache
def _script(character: str) -> str:
    """The first word of the character's Unicode name: LATIN, CYRILLIC, GREEK, CJK ..."""
    return unicodedata.name(character, "UNKNOWN").split(" ", 1)[0]


def latin_look_alike(character: str) -> str | None:
    """The lower-case Latin letter that `character` is a look-alike of, when it is a letter of
    another alphabet: Cyrillic "а" -> "a", "М" -> "m", Greek "ο" -> "o"; None otherwise."""
    if character.isascii() or not character.isalpha():
        return None
    script = _script(character)
    # A Latin letter of no accented ASCII one ("Ƅ", "ɑ", "ı") may stand for one too.
    if script not in _FOLDED_SCRIPTS and not (
        script == "LATIN" and not unicodedata.normalize("NFD", character)[0].isascii()
    ):
        return None
    for homoglyph in _confusables_data().get(character, ()):
        glyph = homoglyph["c"]
        if len(glyph) == 1 and glyph.isascii() and glyph.isalpha():
            # UTS #39 gives "l" as the skeleton of a capital I; a capital is read as "I".
            return "i" if glyph == "l" and character.isupper() else glyph.lower()
    return None


@cache
def _confusables_data() -> dict[str, list[dict[str, str]]]:
    data: dict[str, list[dict[str, str]]] = confusables.confusables_data
    return data


def _looks_latin(character: str) -> bool:
    """Whether a letter looks Latin in the case it is written in (Cyrillic "В" does, "в" not)."""
    return latin_look_alike(character) is not None


def letter_scripts(word: str) -> set[str]:
    """The alphabets of the letters of `word`, Latin look-alikes counted as their own."""
    return {_script(c) for c in word if c.isalpha() and not is_cjk(c)}


_SPACED_WORD = re.compile(rf"{WORD}+")


def mixed_script_words(text: str) -> Iterable[tuple[int, int, bool]]:
    """Words of `text` that mix Latin letters with another alphabet's ("Сlaude"), or that are
    written wholly in look-alikes of Latin letters ("ОрепАІ"): span and whether mixed."""
    for match in _SPACED_WORD.finditer(text):
        word = match.group()
        if word.isascii():
            continue
        scripts = letter_scripts(word)
        if "LATIN" in scripts and scripts & set(_FOLDED_SCRIPTS):
            yield match.start(), match.end(), True
        elif len(word) >= 2 and all(_looks_latin(c) for c in word if c.isalpha()):
            yield match.start(), match.end(), False
