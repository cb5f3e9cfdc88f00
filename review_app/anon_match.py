"""What a match of a known name is, by the letters around it, for the anonymiser
(review_app.anonymise): part of a web address, a labelled name, a person's name with a
surname, a versioned everyday word; and the replacement of the spans found."""

from __future__ import annotations

import re

from review_app.anon_names import TLDS, parts_of_folded
from review_app.textfold import FoldedText

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
    following = _FOLLOWING_WORD.match(folded, end)
    if following is None or following.group(1) in known:
        return False
    original_start = document.original_index(following.start(1))
    return document.original[original_start].isupper()


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
