"""Refusal 40 (with 13) on calibration.parquet (Art. 22).

Each calibration response belongs to one calibration item and has one text (hash
checked); every criterion of the item's rubric is scored by exactly
`calibration.jurors` distinct judges of role juror and `calibration.reviewers` distinct
human reviewers, with integers in `jury.scale`, on or before `collected_on`. Adjudicators
score them too, each on every criterion (Art. 16: the hit rate is theirs, and it gates,
rules/hit_rate.py). Every calibration item has at least one response.
"""

from __future__ import annotations

from collections import defaultdict

from reportgen.archive import FileProblems, Problems
from reportgen.kinds.multidomain.model import CalibrationScore, Round
from reportgen.kinds.multidomain.rules._index import (
    CALIBRATION,
    RoundIndex,
    criteria_problem,
    scale_text,
)
from reportgen.kinds.multidomain.rules.conflicts import check_declared
from reportgen.kinds.multidomain.terms import sha256_text


def check_calibration(round_: Round, index: RoundIndex, problems: Problems) -> None:
    found = problems.in_file(CALIBRATION)
    by_response: dict[str, list[tuple[int, CalibrationScore]]] = defaultdict(list)
    for number, row in enumerate(round_.calibration, start=1):
        by_response[row.response_id].append((number, row))
    entries: list[tuple[str, str]] = []
    for response_id, rows in sorted(by_response.items()):
        entries += _response_problems(response_id, rows, index)
        entries += _rater_problems(round_, response_id, rows, index)
    found.rows(entries, "calibration responses scored wrongly")
    _check_rows(round_, found)
    answered = {row.item_id for row in round_.calibration}
    for item in round_.items:
        if item.calibration and item.item_id not in answered:
            found.add(f"item {item.item_id!r}", "calibration item without any response (Art. 22)")
    check_declared(
        CALIBRATION, (row.rater_id for row in round_.calibration), index.judges, problems
    )


def _response_problems(
    response_id: str, rows: list[tuple[int, CalibrationScore]], index: RoundIndex
) -> list[tuple[str, str]]:
    """One item (a calibration item) and one text, its hash right."""
    where = f"response {response_id!r}"
    entries = []
    item_ids = sorted({row.item_id for _, row in rows})
    if len(item_ids) != 1:
        entries.append((where, f"expected one item, got {', '.join(item_ids)}"))
    for item_id in item_ids:
        item = index.items.get(item_id)
        if item is None or not item.calibration:
            entries.append((where, f"item {item_id!r} is no calibration item"))
    texts = {(row.response_text, row.response_sha256) for _, row in rows}
    if len({text for text, _ in texts}) != 1:
        entries.append((where, f"expected one response_text, got {len(texts)} different ones"))
    if any(digest != sha256_text(text) for text, digest in texts):
        entries.append((where, "response_sha256: expected sha256(response_text)"))
    return entries


def _rater_problems(
    round_: Round, response_id: str, rows: list[tuple[int, CalibrationScore]], index: RoundIndex
) -> list[tuple[str, str]]:
    """Jurors and human reviewers in the declared numbers, each on every criterion."""
    where = f"response {response_id!r}"
    rules = round_.manifest.calibration
    by_rater: dict[str, list[str]] = defaultdict(list)
    for _, row in rows:
        by_rater[row.rater_id].append(row.criterion_id)
    jurors, reviewers, others = [], [], []
    for rater_id in sorted(by_rater):
        judge = index.judges.get(rater_id)
        if judge is not None and judge.role == "adjudicator":
            continue  # Art. 16: the adjudicator's hit rate (rules/hit_rate.py)
        if judge is not None and judge.role == "juror":
            jurors.append(rater_id)
        elif judge is not None and judge.role == "reviewer" and judge.kind == "human":
            reviewers.append(rater_id)
        else:
            others.append(rater_id)
    entries = []
    if len(jurors) != rules.jurors or len(reviewers) != rules.reviewers or others:
        entries.append(
            (
                where,
                f"expected {rules.jurors} jurors and {rules.reviewers} human reviewers "
                f"(multidomain.calibration), got jurors {_ids(jurors)}, reviewers "
                f"{_ids(reviewers)}" + (f", other raters {_ids(others)}" if others else ""),
            )
        )
    item_ids = {row.item_id for _, row in rows}
    expected = index.item_criteria(min(item_ids))
    for rater_id, criteria in sorted(by_rater.items()):
        problem = criteria_problem(criteria, expected)
        if problem is not None:
            entries.append((f"{where}, rater {rater_id}", problem))
    return entries


def _check_rows(round_: Round, found: FileProblems) -> None:
    """Scores in the scale, scored on or before collected_on."""
    low, high = round_.manifest.jury.scale
    collected_on = round_.manifest.collected_on
    entries = []
    for number, row in enumerate(round_.calibration, start=1):
        if not low <= row.score <= high:
            entries.append(
                (f"row {number}", f"score {row.score}: expected {scale_text((low, high))}")
            )
        if row.scored_on > collected_on:
            entries.append(
                (
                    f"row {number}",
                    f"scored_on {row.scored_on}: expected on or before collected_on {collected_on}",
                )
            )
    found.rows(entries, "rows with a bad score or date")


def _ids(rater_ids: list[str]) -> str:
    return "{" + ", ".join(rater_ids) + "}"
