"""Refusals 25 and 27: canaries reproduced in responses; the response table's rows.

A full canary (metrics §8: NFKC + casefold of a test item's canary, a substring of the
NFKC + casefold raw text) may appear only when its item is superseded by a variant.
Every participant answers every test item (superseded ones and variants included) in
every run 1..runs: one row each, no more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.rules._index import RoundIndex, responses_file
from reportgen.kinds.multidomain.terms import normalise, superseded_ids

Trie = dict[str, "Trie"]
_END = ""  # the key marking the end of a canary in a trie node


def check_responses(round_: Round, index: RoundIndex, problems: Problems) -> None:
    _check_rows(round_, index, problems)
    _check_canaries(round_, problems)


def _check_rows(round_: Round, index: RoundIndex, problems: Problems) -> None:
    """Refusal 27: one row per (test item, run) for each participant of models.csv."""
    runs = range(1, round_.manifest.runs + 1)
    test_ids = sorted(i.item_id for i in round_.items if not i.calibration)
    expected = len(test_ids) * len(runs)
    for model_id in sorted(round_.responses.keys() - index.participants.keys()):
        problems.in_file(responses_file(model_id)).add(
            "", f"responses of {model_id!r}, which is no participant of models.csv"
        )
    for participant in round_.models:
        found = problems.in_file(responses_file(participant.model_id))
        rows = round_.responses.get(participant.model_id)
        if not rows:
            found.add("", f"no responses: expected {expected} rows (test items x runs)")
            continue
        seen = {(row.item_id, row.run) for row in rows}
        entries = [
            (f"item {item_id!r}, run {run}", "missing response row (every test item, every run)")
            for item_id in test_ids
            for run in runs
            if (item_id, run) not in seen
        ]
        entries += [
            (
                f"row {number} (item {row.item_id!r})",
                f"run {row.run} is outside 1..{round_.manifest.runs} (multidomain.runs)",
            )
            for number, row in enumerate(rows, start=1)
            if row.run not in runs
        ]
        found.rows(entries, "rows missing or extra")


def canary_pattern(canaries: Iterable[str]) -> re.Pattern[str] | None:
    """One regular expression matching any of `canaries`, built as a trie: the engine
    then follows one branch per character instead of trying every canary at every
    position of a text (a REG round has hundreds of canaries and 32,000 responses)."""
    trie: Trie = {}
    for canary in canaries:
        node = trie
        for char in canary:
            node = node.setdefault(char, {})
        node[_END] = {}
    trie.pop(_END, None)  # an empty canary marks nothing
    return re.compile(_trie_regex(trie)) if trie else None


def _trie_regex(node: Trie) -> str:
    """The regular expression of a trie node. A chain of single children becomes one
    literal (no recursion per character: a long canary cannot exhaust the stack). Where
    a canary ends inside a longer one, the empty branch goes last; _reproduced then reads
    every canary starting at a match, so the branch chosen never hides one."""
    branches = []
    for char, child in sorted(node.items()):
        if char == _END:
            continue
        chain = [char]
        while len(child) == 1 and _END not in child:
            ((char, child),) = child.items()
            chain.append(char)
        branches.append(re.escape("".join(chain)) + _trie_regex(child))
    if _END in node:
        branches.append("")
    return branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"


def _check_canaries(round_: Round, problems: Problems) -> None:
    """Refusal 25: no full canary of an item that is not superseded, in any raw text."""
    superseded = superseded_ids(round_.items)
    owner = {
        normalise(item.canary): item.item_id
        for item in round_.items
        if not item.calibration and item.canary and item.item_id not in superseded
    }
    pattern = canary_pattern(owner)
    if pattern is None:
        return
    lengths = sorted({len(canary) for canary in owner})
    for model_id, rows in round_.responses.items():
        entries = []
        for number, row in enumerate(rows, start=1):
            if row.raw_text is None:
                continue
            text = normalise(row.raw_text)
            for canary_item in sorted(_reproduced(pattern, text, owner, lengths)):
                entries.append(
                    (
                        f"row {number} (item {row.item_id!r}, run {row.run}), raw_text",
                        f"reproduces the canary of item {canary_item!r}, which no variant "
                        "supersedes (Art. 33)",
                    )
                )
        problems.in_file(responses_file(model_id)).rows(entries, "canary reproductions")


def _reproduced(
    pattern: re.Pattern[str], text: str, owner: Mapping[str, str], lengths: Sequence[int]
) -> set[str]:
    """The items whose canary occurs in `text`, overlapping and nested ones included
    (`lengths`: the canaries' distinct lengths)."""
    found: set[str] = set()
    position = 0
    while (match := pattern.search(text, position)) is not None:
        start = match.start()
        # Every canary starting here (one may be a prefix of another).
        for length in lengths:
            item_id = owner.get(text[start : start + length])
            if item_id is not None:
                found.add(item_id)
        position = start + 1
    return found
