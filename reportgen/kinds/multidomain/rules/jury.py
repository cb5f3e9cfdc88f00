"""Refusals 34, 35 and 38 (with 12 and 13) on jury.parquet.

Each jury-scored response has exactly `jury.size` distinct judges of role juror, each
scoring every criterion of the item's rubric once with an integer in `jury.scale`, at
the seeded presentation position (derive.presentation_ranks); no other response has
jury rows. The juror means of every response whose jury is complete feed the
adjudication and audit rules.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from reportgen.archive import FileProblems, Problems
from reportgen.kinds.multidomain.derive import mean_score, presentation_ranks
from reportgen.kinds.multidomain.model import JuryScore, ResponseKey, Round
from reportgen.kinds.multidomain.rules._index import (
    JURY,
    RoundIndex,
    criteria_problem,
    response_where,
    scale_text,
)
from reportgen.kinds.multidomain.rules.conflicts import check_conflicts, check_declared


class ScoreRow(Protocol):
    """A row of jury.parquet or adjudications.parquet."""

    @property
    def item_id(self) -> str: ...
    @property
    def model_id(self) -> str: ...
    @property
    def run(self) -> int: ...
    @property
    def judge_id(self) -> str: ...
    @property
    def criterion_id(self) -> str: ...
    @property
    def score(self) -> int: ...


# response -> judge -> its (row number, row), in file order
Grouped = dict[ResponseKey, dict[str, list[tuple[int, ScoreRow]]]]


@dataclass(frozen=True)
class JuryResult:
    """What the adjudication and audit rules need of the jury."""

    jurors: dict[ResponseKey, frozenset[str]]  # every response with jury rows
    means: dict[ResponseKey, tuple[Fraction, ...]]  # complete, valid juries only


def group_by_response(rows: Iterable[ScoreRow]) -> Grouped:
    grouped: Grouped = defaultdict(lambda: defaultdict(list))
    for number, row in enumerate(rows, start=1):
        grouped[(row.item_id, row.model_id, row.run)][row.judge_id].append((number, row))
    return grouped


def why_not_jury_scored(index: RoundIndex, key: ResponseKey) -> str:
    response, item = index.responses.get(key), index.items.get(key[0])
    if response is None or item is None or key[1] not in index.participants:
        return "no such response"
    if item.calibration:
        return "a calibration item"
    if item.type != "open":
        return f"a {item.type} item"
    return f"status {response.status!r}, not scored"


def check_jury(round_: Round, index: RoundIndex, problems: Problems) -> JuryResult:
    found = problems.in_file(JURY)
    grouped = group_by_response(round_.jury)
    rules = round_.manifest.jury
    missing = [
        (response_where(key), f"no jury rows: expected {rules.size} jurors (Art. 24)")
        for key in sorted(index.jury_scored - grouped.keys())
    ]
    found.rows(missing, "responses without a jury")
    extra = [
        (
            response_where(key),
            f"jury rows on a response the jury does not score ({why_not_jury_scored(index, key)})",
        )
        for key in sorted(grouped.keys() - index.jury_scored)
    ]
    found.rows(extra, "responses scored but not jury-scored")
    _check_roles(grouped, index, found)
    means = _check_panels(grouped, index, round_.manifest.jury.scale, rules.size, found)
    _check_positions(round_.jury, rules.presentation_seed, found)
    check_conflicts(
        JURY,
        ((judge_id, key[1]) for key, judges in grouped.items() for judge_id in judges),
        index.judges,
        index.participants,
        problems,
    )
    check_declared(JURY, (row.judge_id for row in round_.jury), index.judges, problems)
    jurors = {key: frozenset(judges) for key, judges in grouped.items()}
    return JuryResult(jurors=jurors, means=means)


def _check_roles(grouped: Grouped, index: RoundIndex, found: FileProblems) -> None:
    """Refusal 34: only judges of role juror sit on a jury (one line per judge)."""
    responses = Counter(judge_id for judges in grouped.values() for judge_id in judges)
    entries = []
    for judge_id, count in sorted(responses.items()):
        judge = index.judges.get(judge_id)
        if judge is None:
            entries.append((f"judge {judge_id}", "not in judges.csv"))
        elif judge.role != "juror":
            entries.append(
                (
                    f"judge {judge_id}",
                    f"of role {judge.role!r} scores {count} response(s) as a juror",
                )
            )
    found.rows(entries, "judges who are no jurors")


def rater_problems(
    key: ResponseKey,
    judge_id: str,
    rows: Sequence[tuple[int, ScoreRow]],
    expected: Sequence[str],
    scale: tuple[int, int],
) -> list[tuple[str, str]]:
    """Refusal 35 for one rater of one response: criteria and score range."""
    entries = []
    problem = criteria_problem((row.criterion_id for _, row in rows), expected)
    if problem is not None:
        entries.append((f"{response_where(key)}, judge {judge_id}", problem))
    low, high = scale
    entries += [
        (f"row {number}", f"score {row.score}: expected {scale_text(scale)}")
        for number, row in rows
        if not low <= row.score <= high
    ]
    return entries


def _check_panels(
    grouped: Grouped,
    index: RoundIndex,
    scale: tuple[int, int],
    size: int,
    found: FileProblems,
) -> dict[ResponseKey, tuple[Fraction, ...]]:
    """Refusals 34 and 35 per response; the juror means of every valid panel."""
    panels: list[tuple[str, str]] = []
    criteria: list[tuple[str, str]] = []
    means: dict[ResponseKey, tuple[Fraction, ...]] = {}
    jurors = {judge_id for judge_id, judge in index.judges.items() if judge.role == "juror"}
    low, high = scale
    for key in sorted(grouped.keys() & index.jury_scored):
        judges = grouped[key]
        if len(judges) != size:
            panels.append(
                (response_where(key), f"expected {size} distinct jurors, got {len(judges)}")
            )
        expected = list(index.item_criteria(key[0]))
        mark = len(criteria)
        raters = sorted(judges.items())
        scores = []
        for judge_id, rows in raters:
            scored = [row.score for _, row in rows]
            # The usual rater (criteria in rubric order, scores in range) has no problem.
            if [row.criterion_id for _, row in rows] != expected or not (
                low <= min(scored) and max(scored) <= high
            ):
                criteria += rater_problems(key, judge_id, rows, expected, scale)
            scores.append(scored)
        if len(judges) == size and len(criteria) == mark and judges.keys() <= jurors and expected:
            means[key] = tuple(mean_score(scored) for scored in scores)
    found.rows(panels, "responses with a wrong number of jurors")
    found.rows(criteria, "wrong criteria or scores")
    return means


def _check_positions(rows: Sequence[JuryScore], seed: int, found: FileProblems) -> None:
    """Refusal 38: `position` is constant per (judge, response) and equals its rank."""
    # The first row's position per (judge, response); every position only where they differ.
    first: dict[tuple[str, str, str, int], tuple[int, int]] = {}
    mixed: dict[tuple[str, str, str, int], set[int]] = {}
    for number, row in enumerate(rows, start=1):
        key = (row.judge_id, row.item_id, row.model_id, row.run)
        _, position = first.setdefault(key, (number, row.position))
        if position != row.position:
            mixed.setdefault(key, {position}).add(row.position)
    ranks = presentation_ranks(seed, first)
    entries = [
        (
            f"row {number} (judge {key[0]}, {response_where(key[1:])})",
            f"position {', '.join(map(str, sorted(mixed.get(key, {position}))))}: expected "
            f"{ranks[key]} (seeded presentation rank, multidomain.jury.presentation_seed)",
        )
        for key, (number, position) in first.items()
        if key in mixed or position != ranks[key]
    ]
    found.rows(entries, "rows at a wrong position")
