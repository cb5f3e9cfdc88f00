"""Refusal 39 on judge_views.parquet: one view per jury-scored response, its hash, the
`presented_as` labels and blindness (Art. 19).

Blindness: tokens(view_text) holds no contiguous tokens(name) for any name of the cast.
Before tokenising, this check deletes every Unicode format character (category Cf:
zero-width spaces and joiners, bidi controls, soft hyphens, ...). They are invisible to a
reader, so "Au<U+200B>rora" reads as "Aurora" to a judge; tokens() treats them as
separators and would split the name in two. Fullwidth letters are folded by tokens()'s
NFKC, case by its casefold; markup is no letter, so "<b>Aurora</b>" holds the token
"aurora"; every CJK ideograph is a token, so a Chinese name matches inside Chinese text.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from functools import cache

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Participant, Round
from reportgen.kinds.multidomain.rules._index import JUDGE_VIEWS, RoundIndex, response_where
from reportgen.kinds.multidomain.terms import sha256_text, tokens

_API_PARTS = re.compile(r"[/:@]")


# Unicode puts format characters (Cf) in planes 0, 1 and 14 only; scanning those keeps
# building the pattern below a few milliseconds.
_CF_PLANES = (range(0x0, 0x20000), range(0xE0000, 0xE1000))


@cache
def _format_set() -> frozenset[str]:
    """Every character of category Cf."""
    return frozenset(
        chr(code)
        for plane in _CF_PLANES
        for code in plane
        if unicodedata.category(chr(code)) == "Cf"
    )


@cache
def _format_characters() -> re.Pattern[str]:
    """Matches every character of category Cf."""
    return re.compile("[" + "".join(re.escape(char) for char in sorted(_format_set())) + "]")


def visible_tokens(text: str) -> list[str]:
    """tokens() of the text a reader sees: format characters (Cf) deleted first."""
    if _format_set().isdisjoint(text):  # the common case, ten times faster than sub()
        return tokens(text)
    return tokens(_format_characters().sub("", text))


def cast_names(participants: Iterable[Participant]) -> dict[str, str]:
    """Every name of the cast (Art. 19) -> the model_id it names."""
    names: dict[str, str] = {}
    for participant in participants:
        parts = [p for p in _API_PARTS.split(participant.api_identifier) if len(p) >= 2]
        for name in (
            participant.model_id,
            participant.display_name,
            participant.organization,
            participant.provider,
            participant.api_identifier,
            *parts,
            participant.snapshot,
        ):
            if name:
                names.setdefault(name, participant.model_id)
    return names


class NameMatcher:
    """Finds a name's tokens as a contiguous run of a text's tokens in one pass: names
    are indexed by their first token, so each text token costs one dict lookup."""

    def __init__(self, names: Iterable[str]) -> None:
        self._by_first: dict[str, list[tuple[tuple[str, ...], str]]] = defaultdict(list)
        for name in names:
            name_tokens = tuple(visible_tokens(name))
            if name_tokens:
                self._by_first[name_tokens[0]].append((name_tokens, name))

    def find(self, text: str) -> str | None:
        """The first cast name the text holds, or None."""
        words = visible_tokens(text)
        if self._by_first.keys().isdisjoint(words):  # the usual view: no name's first word
            return None
        for start, word in enumerate(words):
            for name_tokens, name in self._by_first.get(word, ()):
                if tuple(words[start : start + len(name_tokens)]) == name_tokens:
                    return name
        return None


def check_views(round_: Round, index: RoundIndex, problems: Problems) -> None:
    found = problems.in_file(JUDGE_VIEWS)
    rows_by_response: dict[tuple[str, str, int], list[int]] = defaultdict(list)
    for number, view in enumerate(round_.judge_views, start=1):
        rows_by_response[(view.item_id, view.model_id, view.run)].append(number)
    entries = [
        (response_where(key), "no judge view: expected one per jury-scored response (Art. 19)")
        for key in sorted(index.jury_scored - rows_by_response.keys())
    ]
    entries += [
        (f"row {rows[0]}", f"a view of {response_where(key)}, which the jury does not score")
        for key, rows in sorted(rows_by_response.items())
        if key not in index.jury_scored
    ]
    entries += [
        (f"row {rows[1]}", f"a second view of {response_where(key)} (first in row {rows[0]})")
        for key, rows in sorted(rows_by_response.items())
        if len(rows) > 1
    ]
    found.rows(entries, "views missing or extra")
    found.rows(_text_problems(round_, index), "views with a wrong text or hash")
    found.rows(_label_problems(round_), "repeated labels")
    found.rows(_name_problems(round_, cast_names(round_.models)), "views naming the cast")


def _text_problems(round_: Round, index: RoundIndex) -> list[tuple[str, str]]:
    entries = []
    for number, view in enumerate(round_.judge_views, start=1):
        response = index.responses.get((view.item_id, view.model_id, view.run))
        if view.view_text is None:
            if response is not None and response.status != "discarded_personal_data":
                entries.append(
                    (f"row {number}", "view_text is null: expected the text the judges saw")
                )
        elif view.view_sha256 != sha256_text(view.view_text):
            entries.append(
                (f"row {number}", f"view_sha256 {view.view_sha256}: expected sha256(view_text)")
            )
    return entries


def _label_problems(round_: Round) -> list[tuple[str, str]]:
    """`presented_as` is distinct among the responses of one (item, run)."""
    labels: Mapping[tuple[str, int], Counter[str]] = defaultdict(Counter)
    for view in round_.judge_views:
        labels[(view.item_id, view.run)][view.presented_as] += 1
    return [
        (
            f"item {item_id!r}, run {run}",
            f"presented_as {label!r} is given to {count} responses: expected distinct labels",
        )
        for (item_id, run), counted in sorted(labels.items())
        for label, count in sorted(counted.items())
        if count > 1
    ]


def _name_problems(round_: Round, names: Mapping[str, str]) -> Sequence[tuple[str, str]]:
    matcher = NameMatcher(names)
    entries = []
    for number, view in enumerate(round_.judge_views, start=1):
        if view.view_text is None:
            continue
        name = matcher.find(view.view_text)
        if name is not None:
            entries.append(
                (
                    f"row {number} ({response_where((view.item_id, view.model_id, view.run))})",
                    f"view_text names the cast ({name!r}, a name of {names[name]}): the judges "
                    "must not know whose answer they score (Art. 19)",
                )
            )
    return entries
