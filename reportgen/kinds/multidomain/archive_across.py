"""Rules across multidomain archives (multidomain-round.md, "Across archives"):
an item_id keeps its content_sha256 (refusal 22), a rubric_id its rows, and
`previous_round` names an earlier multidomain archive (read from beside the round
when the caller did not pass it). With the optional bank keys (archive_bank.py): two
rounds that name one `bank_version` hold the same bank items, and a declared revision
revises an item of an earlier round, of the same domain and language."""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.errors import Problem
from reportgen.kinds.multidomain.model import NAME, Criterion, Round
from reportgen.model import Round as CoreRound

_PREVIOUS = "multidomain.previous_round"


def check_across(rounds: Sequence[CoreRound]) -> list[Problem]:
    from reportgen.kinds.rounds import round_beside

    ours = [round_ for round_ in rounds if isinstance(round_, Round)]
    problems: list[Problem] = []
    known = {round_.round_id: round_ for round_ in ours}
    extra: list[Round] = []
    for round_ in ours:
        previous_id = round_.manifest.previous_round
        previous = round_beside(round_, previous_id, known, _PREVIOUS, (Round, NAME), problems)
        if previous is None:
            continue
        problems += _previous_ended(round_, previous)
        if previous.round_id not in known:
            known[previous.round_id] = previous
            extra.append(previous)
    # The earlier round holds the reference text; the later one is the edit.
    every = sorted([*ours, *extra], key=lambda r: (r.manifest.collected_on, r.round_id))
    problems += _items_across(every)
    problems += _rubrics_across(every)
    problems += _banks_across(every)
    return problems


def _previous_ended(round_: Round, previous: Round) -> list[Problem]:
    """A problem when the previous round did not end before this round's collection."""
    ended = previous.manifest.ended_on
    if ended is not None and ended < round_.manifest.collected_on:
        return []
    previous_id, collected = round_.manifest.previous_round, round_.manifest.collected_on
    message = (
        f"{previous_id!r} ended on {ended}, expected before this round's collected_on {collected}"
    )
    return [Problem(f"{round_.round_id}/round.json", _PREVIOUS, message)]


def _items_across(rounds: Sequence[Round]) -> list[Problem]:
    first: dict[str, tuple[str, str]] = {}  # item_id -> (content_sha256, round_id)
    problems: list[Problem] = []
    for round_ in rounds:
        for item in round_.items:
            seen = first.setdefault(item.item_id, (item.content_sha256, round_.round_id))
            if seen[0] != item.content_sha256:
                problems.append(
                    Problem(
                        f"{round_.round_id}/items.parquet",
                        f"item {item.item_id!r}",
                        f"content_sha256 {item.content_sha256} differs from {seen[0]} in round "
                        f"{seen[1]!r}: an item is never edited under the same id (Art. 17)",
                    )
                )
    return problems


def _rubrics_across(rounds: Sequence[Round]) -> list[Problem]:
    first: dict[str, tuple[tuple[Criterion, ...], str]] = {}
    problems: list[Problem] = []
    for round_ in rounds:
        by_rubric: dict[str, list[Criterion]] = {}
        for criterion in round_.rubrics:
            by_rubric.setdefault(criterion.rubric_id, []).append(criterion)
        for rubric_id, criteria in by_rubric.items():
            rows = tuple(sorted(criteria, key=lambda c: c.position))
            seen = first.setdefault(rubric_id, (rows, round_.round_id))
            if seen[0] != rows:
                problems.append(
                    Problem(
                        f"{round_.round_id}/rubrics.parquet",
                        f"rubric {rubric_id!r}",
                        f"its rows differ from those in round {seen[1]!r}: a rubric is never "
                        "edited under the same id",
                    )
                )
    return problems


def bank_items(round_: Round) -> dict[str, str]:
    """The round's bank: item_id -> content_sha256 of its test items that are no variant."""
    return {
        item.item_id: item.content_sha256
        for item in round_.items
        if not item.calibration and item.variant_of is None
    }


def _banks_across(rounds: Sequence[Round]) -> list[Problem]:
    problems: list[Problem] = []
    first: dict[str, Round] = {}
    for round_ in rounds:
        version = round_.manifest.bank_version
        if version is None:
            continue
        seen = first.setdefault(version, round_)
        if bank_items(seen) != bank_items(round_):
            problems.append(
                Problem(
                    f"{round_.round_id}/round.json",
                    "multidomain.bank_version",
                    f"{version!r} names the bank of round {seen.round_id!r}, but the bank items "
                    "(id and content_sha256) differ: a changed bank is a new version (Art. 17)",
                )
            )
    for later, round_ in enumerate(rounds):
        problems += _revisions_across(round_, rounds[:later])
    return problems


def _revisions_across(round_: Round, earlier: Sequence[Round]) -> list[Problem]:
    """Each declared revision against the earlier rounds the caller knows."""
    problems: list[Problem] = []
    if not earlier:
        return problems
    items = {item.item_id: item for item in round_.items}
    for index, revision in enumerate(round_.manifest.bank_revisions):
        where = f"multidomain.bank_revisions[{index}].revises"
        old = next(
            (i for r in reversed(earlier) for i in r.items if i.item_id == revision.revises), None
        )
        new = items.get(revision.item_id)
        if old is None:
            message = f"{revision.revises!r} is an item of no earlier round"
        elif new is not None and (old.domain_id, old.language) != (new.domain_id, new.language):
            message = (
                f"{revision.revises!r} ({old.domain_id}, {old.language}) and its revision "
                f"{revision.item_id!r} ({new.domain_id}, {new.language}): expected the same "
                "domain and language"
            )
        else:
            continue
        problems.append(Problem(f"{round_.round_id}/round.json", where, message))
    return problems
