"""Names written apart or with digits for letters, for the anonymiser (anonymiser.anonymise):
"C l a u d e", "C-l-a-u-d-e", "G.P.T", "Cla ude", "Cl4ude", "L1ama", "0penAI".

Ordinary text is full of single letters and digits, so each of these counts only when what it
spells is a whole known name: a spaced run must spell one, a split pair must join into one,
and a word's digits are read as letters only when the word then spells one.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Iterable

from review_app.anonymiser.scripts import WORD
from review_app.anonymiser.textfold import FoldedText, fold

# Three or more single letters or digits, each followed by one separator run.
# Any mark but a line break parts them: "C l a u d e", "C~l~a~u~d~e", "G+P+T".
_SPACED_RUN = re.compile(rf"(?<!{WORD})(?:{WORD}(?:[^\w\n]|_){{1,2}})+{WORD}(?!{WORD})")
# A hyphen joins real compounds ("co-pilot"): only a space or a dot splits a name.
_PIECE = re.compile(rf"{WORD}+")
# Lookaheads over ASCII letters and digits only: over any letter, each character of a long
# Chinese run (no word to the lookbehind) scanned the rest of the run, which was quadratic.
_WORD_WITH_DIGITS = re.compile(
    rf"(?<!{WORD})(?=[a-z0-9]*\d)(?=[a-z0-9]*[a-z][a-z0-9]*[a-z])[a-z0-9]+(?!{WORD})"
)
_VERSION_AFTER = re.compile(r"[\s\-_.:]?\d++(?:[.,]\d++)*+")  # "L1ama 3": the version goes too
_LEET = str.maketrans("0134578@$\u20ac|!", "oleasbtaseli")
_LEET_I = str.maketrans("0134578@$\u20ac|!", "oieasbtasell")
# Symbols for letters inside a word: "Cl@ude", "G\u20acmini", "L|ama", "Gem!ni".
_WORD_WITH_SYMBOLS = re.compile(r"(?<![a-z0-9@$\u20ac|])[a-z0-9]*(?:[@$\u20ac|!][a-z0-9]+)+")
_MIN_SPELLED = 3  # "g.p.t": shorter runs spell too many words by chance
_MIN_JOINED = 5  # "Cla ude": shorter pairs join into names by chance ("me ta")
_MIN_JOINED_IN_MARKUP = 3  # "**G**rok", "Me**ta**", "~~x~~AI"
# Markup between two pieces of one word: emphasis, code or strike marks ("`Deep`-`Seek`"), or
# a table's cell border ("| Ll | ama |").
# A markdown escape ("Cl\\aude", "Gem\\_ini") or an emoji ("C\U0001f916laude") parts one too.
_EMOJI = "\u2600-\u27bf\U0001f000-\U0001faff"
_MARKUP_GAP = re.compile(
    r"[*_`~]{1,3}(?:-[*_`~]{1,3})?|[*_`~]{0,2} ?\| ?[*_`~]{0,2}|\\{1,2}[*_`~]?"
    # A LaTeX group ("\\textbf{Ne}motron"), an equals sign or an ellipsis ("Hu=nyu=an",
    # "01…AI": NFKC reads the ellipsis as three dots) parts one too.
    rf"|[{_EMOJI}]{{1,2}}|[{{}}]|=|\.{{2,3}}"
)


def spans_of_spaced_names(
    folded: str, find_name: Callable[[str], Iterable[tuple[int, int]]]
) -> Iterable[tuple[int, int]]:
    """Folded spans of names spelled letter by letter: the run's letters are joined and
    searched for names; each name found gives the span of the letters that spell it."""
    for run in _SPACED_RUN.finditer(folded):
        letters = [(m.start(), m.group()) for m in re.finditer(WORD, run.group())]
        if len(letters) < _MIN_SPELLED:
            continue
        joined = "".join(letter for _, letter in letters)
        for start, end in find_name(joined):
            if end - start >= _MIN_SPELLED:
                yield run.start() + letters[start][0], run.start() + letters[end - 1][0] + 1


def spans_of_split_names(
    folded: str, is_name: Callable[[str, str, bool], bool]
) -> Iterable[tuple[int, int]]:
    """Folded spans of two or three pieces that join into a name: "cla ude", "anth.ropic",
    and markup inside a word ("**cl**aude", "cl**au**de", "cl`aude`"). `is_name` is given
    the pieces before the last and the last, so that a name's own words ("assistente a")
    are no split."""
    pieces: list[tuple[int, str]] = []  # start and text of the pieces joined so far
    previous_end = -1
    for word in _PIECE.finditer(folded):
        start, text = word.start(), word.group()
        # Three pieces only around markup ("cl**au**de"): two spaces part ordinary words.
        kept = _joinable(folded, previous_end, start)
        pieces = pieces[len(pieces) - kept :] if kept else []
        # Markup inside a word is there to part it: shorter names count ("**G**rok").
        shortest = _MIN_JOINED_IN_MARKUP if kept == 2 else _MIN_JOINED
        if folded[previous_end : previous_end + 1] in ("=", "."):  # "me=ta" is no disguise
            shortest = _MIN_JOINED
        # Anything but a space parts a name's own words to hide them ("| Deep | Seek |").
        parted = kept == 2 or start - previous_end != 1 or folded[previous_end] not in " .\n"
        head = ""
        for index in range(len(pieces) - 1, -1, -1):  # the nearest piece first
            head = pieces[index][1] + head
            if len(head) + len(text) >= shortest and is_name(head, text, parted):
                yield pieces[index][0], word.end()
                break
        pieces.append((start, text))
        previous_end = word.end()


def _joinable(folded: str, previous_end: int, start: int) -> int:
    """How many pieces before a gap may join the next across it: one across a space or a
    dot ("cla ude"), two across markup ("cl**au**de"), none across anything else."""
    gap = start - previous_end
    if not 1 <= gap <= 5:
        return 0
    between = folded[previous_end:start]
    # A line break splits a word too: "Gem\nini", and hyphenated, "Clau-\nde".
    if (gap == 1 and between in " .\n") or between == "-\n":
        return 1
    if _MARKUP_GAP.fullmatch(between) is None:
        return 0
    # A table's cell border or a backslash parts a word like a space: short pairs join by
    # chance ("| me | ta |", "C:\\Users\\me\\ta").
    return 1 if between in ("\\", "\\\\") or "|" in between else 2


def spans_of_leet_names(folded: str, is_name: Callable[[str], bool]) -> Iterable[tuple[int, int]]:
    """Folded spans of words that spell a name once their digits are read as letters
    ("cl4ude", "l1ama", "0penai"); digits at the end stay a version ("cl4ude3")."""
    for word in (*_WORD_WITH_DIGITS.finditer(folded), *_WORD_WITH_SYMBOLS.finditer(folded)):
        text = word.group()
        stem = text.rstrip("0123456789") or text
        # A final digit may be a letter too ("gem1n1"), not only a version ("cl4ude3").
        candidates = [(stem, table) for table in (_LEET, _LEET_I)] + [
            (text, _LEET_I),
            (text, _LEET),
        ]
        for candidate, table in candidates:
            if not candidate.isalpha() and is_name(candidate.translate(table)):
                version = _VERSION_AFTER.match(folded, word.end())
                yield word.start(), word.end() if version is None else version.end()
                break


# Han and Hangul characters written apart ("通 义 千 问", "深·度·求·索"): Chinese puts no
# space between the characters of a word, so a spaced run that spells a name hides one.
_HAN_OR_HANGUL = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
# An emoji parts them too ("豆🫘包").
# Markup too, between some of a name's characters only ("*零一*万物") or as a table's cell
# border ("| 文心 | 一言 |"): a name counts when something parts its characters.
_CJK_SPACED_RUN = re.compile(
    rf"[{_HAN_OR_HANGUL}](?:[ \t.\-_*|/~`\u00b7\u2027\u2022\u30fb{_EMOJI}]{{0,3}}"
    rf"[{_HAN_OR_HANGUL}])+"
)
_HAN_OR_HANGUL_CHARACTER = re.compile(f"[{_HAN_OR_HANGUL}]")


def spans_of_spaced_cjk_names(
    folded: str, find_name: Callable[[str], Iterable[tuple[int, int]]]
) -> Iterable[tuple[int, int]]:
    """Folded spans of Chinese or Korean names written with spaces or dots between their
    characters: the run's characters are joined and searched for names."""
    for run in _CJK_SPACED_RUN.finditer(folded):
        # The run's text is taken once: run.group() copies it, which per character was
        # quadratic in a long run.
        text = run.group()
        characters = [m.start() for m in _HAN_OR_HANGUL_CHARACTER.finditer(text)]
        joined = "".join(text[index] for index in characters)
        for start, end in find_name(joined):
            # Written whole, the name is found as written; apart, it is hidden.
            apart = characters[end - 1] - characters[start] > end - start - 1
            if end - start >= 2 and apart:
                yield run.start() + characters[start], run.start() + characters[end - 1] + 1


# A capital I stands for an l ("CIaude", "LІama" with a Cyrillic І) and an l for an I
# ("OpenAl"): the two look alike in most fonts. A word is read the other way only when the
# letter cannot be the reading it has: a capital I inside a word before a small letter, a
# small l right after a capital at the word's end.
_I_LIKE = "I\u0406\u0399\u04c0"
_I_OR_L_WORD = re.compile(rf"(?<!{WORD}){WORD}*?(?:[{_I_LIKE}](?=[a-z])|[A-Z]l(?!{WORD})){WORD}*+")
_CAPITAL_I_BEFORE_SMALL = re.compile(rf"[{_I_LIKE}](?=[a-z])")
_SMALL_L_AT_END = re.compile(r"(?<=[A-Z])l$")


def spans_of_i_for_l_names(
    original: str, is_name: Callable[[str], bool], fold_word: Callable[[str], str]
) -> Iterable[tuple[int, int]]:
    """Original spans of words that spell a name once a capital I is read as an l or a final
    l after a capital as an I: "CIaude", "LІama 3", "OpenAl"."""
    for word in _I_OR_L_WORD.finditer(original):
        text = word.group()
        reading = _SMALL_L_AT_END.sub("i", _CAPITAL_I_BEFORE_SMALL.sub("l", text))
        stem = fold_word(reading).rstrip("0123456789")
        if reading != text and is_name(stem):
            version = _VERSION_AFTER.match(original, word.end())
            yield word.start(), word.end() if version is None else version.end()


def spans_of_disguised_names(
    document: FoldedText,
    bare_name: re.Pattern[str],
    spellable: frozenset[str],
    own_words: Container[tuple[str, ...]],
) -> list[tuple[int, int]]:
    """Original spans of the known names (`bare_name`) written apart, in digits or with an I
    for an l; a word spelled so must be one of `spellable`, and a name's `own_words`
    ("assistente a") are no split unless markup parts them ("`Deep`-`Seek`")."""
    folded = document.folded

    def find_name(letters: str) -> Iterable[tuple[int, int]]:
        return (m.span() for m in bare_name.finditer(letters) if m.end() > m.start())

    def is_split_name(first: str, second: str, in_markup: bool) -> bool:
        words = (first, second) in own_words and not in_markup
        return first + second in spellable and not words

    spans = [
        *spans_of_spaced_names(folded, find_name),
        *spans_of_spaced_cjk_names(folded, find_name),
        *spans_of_split_names(folded, is_split_name),
        *spans_of_leet_names(folded, spellable.__contains__),
    ]
    return [
        *(document.original_span(start, end) for start, end in spans),
        *spans_of_i_for_l_names(document.original, spellable.__contains__, fold),
    ]
