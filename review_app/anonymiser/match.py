"""What a match of a known name is, by the letters around it, for the anonymiser
(review_app.anonymiser.anonymise): part of a web address, a labelled name, a person's name with a
surname, a versioned everyday word; and the replacement of the spans found."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable

from review_app.anonymiser.cues import cue_ends
from review_app.anonymiser.names import TLDS, parts_of_folded
from review_app.anonymiser.scripts import is_cjk, is_word_character
from review_app.anonymiser.textfold import FoldedText, fold

MARKER = "[SISTEMA]"
_FOLLOWING_WORD = re.compile(r"[ \t]+([^\W\d_]+)")
_MIDDLE_DOTS = "\u00b7\u30fb\u2027\u2022"
_NAME_JOINERS = "-" + _MIDDLE_DOTS


_WEB_ADDRESS_AFTER = re.compile(r"(?:\.[a-z0-9\-]++)++")
_TOP_LEVEL_DOMAINS = frozenset(TLDS.split("|"))


def is_in_web_address(folded: str, end: int) -> bool:
    """A name as a label of a web address: "gemini.google.com", "chat.qwen.ai"."""
    if not folded.startswith(".", end):
        return False
    labels = _WEB_ADDRESS_AFTER.match(folded, end)
    return labels is not None and labels.group().rsplit(".", 1)[-1] in _TOP_LEVEL_DOMAINS


def is_labelled_as_written(document: FoldedText, match: re.Match[str]) -> bool:
    """A name ending in a one-letter label ("Assistente A") is that name only with the
    label in capitals: "o assistente a seguir" is Portuguese. Joined by a hyphen, an
    underscore or a dot ("assistente-a"), it is an identifier, whatever its case."""
    name = match.group("name")
    if len(name) < 2 or not name[-1].isalpha() or name[-2].isalnum() or name[-2] in "-_.:/":
        return True
    return document.original[document.original_index(match.end("name") - 1)].isupper()


def is_person_name(document: FoldedText, match: re.Match[str], known: frozenset[str]) -> bool:
    """Whether a given name is a person's: "Jean-Claude", "Claude Monet", and in Chinese with
    a middle dot between the names ("克劳德·莫奈", "让·克劳德")."""
    folded, start, end = document.folded, match.start(), match.end()
    if start >= 2 and folded[start - 1] in _NAME_JOINERS and folded[start - 2].isalpha():
        return True
    if end + 1 < len(folded) and folded[end] in _MIDDLE_DOTS and folded[end + 1].isalpha():
        return True
    if _is_nickname(document, start, end):
        return True
    following = _FOLLOWING_WORD.match(folded, end)
    if following is None or following.group(1) in known:
        return False
    original_start = document.original_index(following.start(1))
    return document.original[original_start].isupper()


_QUOTES = "\"'\u201c\u201d\u00ab\u00bb"
_AFTER_NICKNAME = re.compile(f"[{_QUOTES}][ \t]+(?=[^\\W\\d_])")


def _is_nickname(document: FoldedText, start: int, end: int) -> bool:
    """A name quoted between a first name and a surname: 'Ernesto "Ernie" Vaz'."""
    folded = document.folded
    if start < 3 or folded[start - 1] not in _QUOTES or not folded[start - 3].isalpha():
        return False
    after = _AFTER_NICKNAME.match(folded, end)
    return (
        folded[start - 2] == " "
        and after is not None
        and document.original[document.original_index(after.end())].isupper()
    )


def is_versioned_name(version: str) -> bool:
    """An everyday word with a version is a name ("Llama-3", "Gemini 2.5", "Falcon 180B"), but
    a bare number after a space is too common to count ("sabia 3 línguas", "Falcon 9")."""
    return not (version[:1].isspace() and version[1:].isdigit())


def replace_spans(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with each span replaced by MARKER; overlapping spans, and spans apart only by
    spaces, dashes or slashes ("Google DeepMind", "meta-llama/llama"), become one marker."""
    if not spans:
        return text
    merged: list[list[int]] = []
    for start, end in sorted(spans):
        if merged and (start <= merged[-1][1] or _only_joiners(text[merged[-1][1] : start])):
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    pieces: list[str] = []
    previous = 0
    for start, end in merged:
        pieces += [text[previous:start], MARKER]
        previous = end
    pieces.append(text[previous:])
    return "".join(pieces)


def _only_joiners(gap: str) -> bool:
    return re.fullmatch(r"[ \t\-/]+", gap) is not None


_LINK_AFTER = re.compile(r"\]\((?P<address>[^)\s]{1,300})\)")


def is_link_to_itself(folded: str, match: re.Match[str]) -> bool:
    """A name as the text of a link to its own address: "[Gemini](https://gemini.google.com)"
    (a label of its host; "[Meta](https://www.ibge.gov.br/metas)" links elsewhere)."""
    link = _LINK_AFTER.match(folded, match.end())
    if link is None:
        return False
    host = link.group("address").split("://", 1)[-1].split("/", 1)[0]
    return "".join(parts_of_folded(match.group("name"))) in re.split(r"[.\-]", host)


# A word of Latin letters, as shown by a right-to-left override.
_LATIN_WORD = re.compile(r"\s*[A-Za-z][A-Za-z0-9.\-]{2,30}\s*")


def is_latin_word_after_cue(text: str, start: int, shown: str) -> bool:
    """ "由 \u202ecipohtnA\u202c 开发": a Latin word turned round right after a cue is the
    speaker's maker or name, even misspelt or in no list."""
    if _LATIN_WORD.fullmatch(shown) is None:
        return False
    before = fold(text[max(0, start - 40) : start])
    return len(before) in cue_ends(before)


def bounded_matches(pattern: re.Pattern[str], folded: str) -> Iterable[re.Match[str]]:
    """Matches that do not start inside a word ("Geminiano" holds no "gemini"); a Chinese
    character is no word to a Latin name ("我是Claude"). Checked here rather than by a
    lookbehind, which would hide the pattern's first letters from the engine's fast scan."""
    position = 0
    while (match := pattern.search(folded, position)) is not None:
        start = match.start()
        # An underscore is markup ("_Gemini_") or a separator ("my_claude_bot"), not a letter.
        if start > 0 and is_word_character(folded[start - 1]) and not is_cjk(folded[start]):
            position = start + 1
            continue
        if match.end() > start:
            yield match
        position = max(match.end(), start + 1)


# After a name: the address of the link it is the text of ("[万知](https://example.org/wanzhi)":
# an address often spells the name), and a capitalised word joined by a hyphen, which names
# the model's variant ("Yi-Lightning", "Qwen-Max").
_LINK_TARGET = re.compile(r"\]\([^)\s]{1,300}\)")
_HYPHENATED_WORD = re.compile(r"-[A-Z][\w]*+")


def spans_with_what_follows(text: str, spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """`spans`, each with the address of a link it is the text of and a hyphenated variant."""
    found: list[tuple[int, int]] = []
    links: list[tuple[int, int]] = []
    for start, end in spans:
        variant = _HYPHENATED_WORD.match(text, end)
        if variant is not None:
            end = variant.end()
        found.append((start, end))
        link = _LINK_TARGET.match(text, end)
        if link is not None:
            links.append((link.start() + 2, link.end() - 1))
    # An address whose names were found keeps the rest ("https://[X].[X]").
    starts = sorted(start for start, _ in found)
    for start, end in links:
        inside = bisect_left(starts, start)
        if inside == len(starts) or starts[inside] >= end:
            found.append((start, end))
    return found


_MOST_REPEATED = 20  # names looked for again in one answer: a handful in any real one


def spans_of_repeats(text: str, spans: list[tuple[int, int]]) -> Iterable[tuple[int, int]]:
    """Every other place where a name found by its context is written again: "Meet Ava,
    Northwind Bank's digital assistant. Ava can help" (the second "Ava" has no context).
    Looked for with str.find: a regex per answer's set of names was compiled every time."""
    written = sorted({text[start:end].strip() for start, end in spans})[:_MOST_REPEATED]
    for name in written:
        if not any(c.isalpha() for c in name) or len(name) < (2 if is_cjk(name[0]) else 3):
            continue
        # A Chinese name is no word to look for whole; a Latin one is ("Ava", not "Avalon").
        whole = not is_cjk(name[0])
        start = text.find(name)
        while start >= 0:
            end = start + len(name)
            if not whole or not (
                (start and text[start - 1].isalnum()) or (end < len(text) and text[end].isalnum())
            ):
                yield start, end
            start = text.find(name, end)
