"""Refusals 42, 43 and 44 on calibration.parquet, the judge's blind hand scores.

42: rows present if and only if some variable is a judged score (`type = score`,
`extractor = model`). 43: each judged variable has at least
`preregistration.calibration.min_items` distinct scored responses. 44, per row: a
judged variable, an existing response, no duplicate (variable, system, item, run), the
judge's `input_sha256`, the frozen value as `judge_score`, `human_score` in the scale.
With 42 broken, 43 and 44 are not checked (they would only repeat it), nor when rows
score a system whose responses file has no rows (rule 32's one line); a row naming an
unknown variable or response is reported once, not also for its hash or scores.
"""

from __future__ import annotations

from collections import defaultdict

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import CalibrationRow, Round
from reportgen.kinds.counterfactual.rules._index import CALIBRATION_FILE, RoundIndex
from reportgen.kinds.counterfactual.terms import numeric_value

Entries = list[tuple[str, str]]
CalibrationKey = tuple[str, str, str, int]  # (variable_id, model_id, item_id, run)


def check_calibration(round_: Round, index: RoundIndex, problems: Problems) -> None:
    found = problems.in_file(CALIBRATION_FILE)
    judged = [variable.variable_id for variable in round_.variables if variable.judged_score]
    if round_.calibration and not judged:
        found.add(
            "",
            "present without a judged score variable: expected no calibration.parquet "
            "(no variable has type score and extractor model)",
        )
        return
    if judged and not round_.calibration:
        found.add(
            "",
            f"missing: {', '.join(judged)} scored by a model judge; expected the blind hand "
            "scores of a sample of its responses",
        )
        return
    if any(
        row.model_id in index.systems and not round_.responses.get(row.model_id)
        for row in round_.calibration
    ):
        return  # scores of a system whose responses file has no rows: rule 32 says it
    entries, scored = _row_problems(round_, index)
    found.rows(entries, "calibration rows wrong")
    min_items = round_.manifest.preregistration.calibration.min_items
    for variable_id in judged:
        count = len(scored.get(variable_id, ()))
        if count < min_items:
            found.add(
                f"variable {variable_id}",
                f"fewer calibration items: {count} scored responses; expected at least "
                f"{min_items} (preregistration.calibration.min_items)",
            )


def _row_problems(
    round_: Round, index: RoundIndex
) -> tuple[Entries, dict[str, set[CalibrationKey]]]:
    """Refusal 44; returns the entries and each variable's distinct scored responses."""
    first_row: dict[CalibrationKey, int] = {}
    scored: dict[str, set[CalibrationKey]] = defaultdict(set)
    entries: Entries = []
    for number, row in enumerate(round_.calibration, start=1):
        key = (row.variable_id, row.model_id, row.item_id, row.run)
        problem = _identity_problem(row, index)
        if problem is not None:
            entries.append((f"row {number}", problem))
            continue
        if key in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"duplicate: a second score of the same response and variable "
                    f"(first in row {first_row[key]})",
                )
            )
            continue
        first_row[key] = number
        scored[row.variable_id].add(key)
        entries += [
            (f"row {number}, {where}", message) for where, message in _score_problems(row, index)
        ]
    return entries, scored


def _identity_problem(row: CalibrationRow, index: RoundIndex) -> str | None:
    """A judged variable and an existing response, or what is wrong."""
    variable = index.variables.get(row.variable_id)
    if variable is None:
        return f"variable {row.variable_id!r} is not in variables.csv"
    if not variable.judged_score:
        return f"variable {row.variable_id} is not a judged score (type score, extractor model)"
    if (row.item_id, row.run) not in index.responses.get(row.model_id, {}):
        return (
            f"response ({row.model_id}, {row.item_id}, run {row.run}) does not exist: expected "
            "a row of the system's responses"
        )
    return None


def _score_problems(row: CalibrationRow, index: RoundIndex) -> Entries:
    entries: Entries = []
    variable = index.variables[row.variable_id]
    extraction = index.extractions.get(row.model_id, {}).get(
        (row.item_id, row.run, row.variable_id)
    )
    if extraction is not None:  # a missing extraction is rule 36's
        if row.input_sha256 != extraction.input_sha256:
            entries.append(
                (
                    "input_sha256",
                    "differs from the judge's input_sha256 of that response: "
                    "expected the human to score what the judge saw",
                )
            )
        frozen = numeric_value(extraction.value)
        if row.judge_score != frozen:
            shown = extraction.value if frozen is None else str(frozen)
            entries.append(
                (
                    "judge_score",
                    f"{row.judge_score}: expected the frozen extraction value {shown}"
                    + (" (a response scored na cannot be sampled)" if frozen is None else ""),
                )
            )
    if variable.scale is not None and not variable.scale[0] <= row.human_score <= variable.scale[1]:
        entries.append(
            (
                "human_score",
                f"{row.human_score}: expected an integer in "
                f"{variable.scale[0]}..{variable.scale[1]} (variables.csv, {row.variable_id})",
            )
        )
    return entries
