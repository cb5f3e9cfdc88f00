"""mask_audit.parquet: the mask audit's decisions, frozen with the round (issue 21).

A reviewer scoring the judge's masked input in the review app may mark it "this answer
still reveals the attribute"; the administrator decides each flag: the mask **held**
(the judge score stands) or **leaked** (the judge could read the customer's group: its
score of that response is void). The review app's export writes the decisions as
`mask_audit.jsonl` (a raw round, read by `reportgen freeze`) or `mask_audit.parquet`
(an archive, then re-frozen), one row per decided response, like the calibration.

The file is optional, and refused in a round without a judged score. `reportgen verify`
refuses, per row: a decision other than held/leaked, a malformed date, an empty `ref`,
a variable that is not a judged score, a response with no judge score (unknown, or
`na`), an `input_sha256` other than the judge's, a second decision on one response.
A voided score is read as undetermined by every statistic (`Round.voided_scores`).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa

from reportgen.archive import FileProblems, Problems
from reportgen.kinds import TableRead
from reportgen.kinds.counterfactual.archive_rows import day_and_run
from reportgen.kinds.counterfactual.model import (
    MASK_DECISIONS,
    NA,
    MaskDecision,
    MaskDecisionValue,
    Round,
    ScoreKey,
)
from reportgen.kinds.counterfactual.raw import Column, Row, filled_file, read_filled
from reportgen.kinds.counterfactual.schemas import MASK_AUDIT_FILE, VARIABLES_FILE

MASK_AUDIT_STEM = "mask_audit"  # mask_audit.jsonl or mask_audit.csv in the raw round
MASK_AUDIT_COLUMNS = (
    Column("variable_id", "str"),
    Column("model_id", "str"),
    Column("item_id", "str"),
    Column("run", "int"),
    Column("input_sha256", "str"),
    Column("decision", "str"),
    Column("ref", "str"),
    Column("decided_on", "str"),
)
PRESENCE_RULE = "there only when a variable is a score scored by a model"


def mask_audit_present(tables: Mapping[str, TableRead]) -> bool | None:
    """Optional where a variable is a judged score; refused otherwise."""
    read = tables.get(VARIABLES_FILE)
    if read is None or read.records is None:
        return None
    judged = any(r["type"] == "score" and r["extractor"] == "model" for _, r in read.records)
    return None if judged else False


def parse_mask_audit(table: pa.Table, found: FileProblems) -> tuple[MaskDecision, ...]:
    """mask_audit.parquet's own columns: the decision, the date, the reference, the run;
    what names a response is the rules' (`check_mask_audit`)."""
    rows: list[MaskDecision] = []
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(table.to_pylist(), start=1):
        decision = row["decision"]
        if decision not in MASK_DECISIONS:
            expected = " or ".join(MASK_DECISIONS)
            entries.append((f"row {number}, decision", f"expected {expected}, got {decision!r}"))
        decided_on = day_and_run(row, number, "decided_on", entries)
        if not row["ref"].strip():
            entries.append((f"row {number}, ref", "expected the review app's sample code"))
        if decision in MASK_DECISIONS and decided_on is not None:
            rows.append(MaskDecision(**(row | {"decided_on": decided_on})))
    found.rows(entries, "mask audit rows with a problem")
    return tuple(rows)


def check_mask_audit(round_: Round, problems: Problems) -> None:
    """Each decision names a judged score of the round, with the judge's input, once."""
    found = problems.in_file(MASK_AUDIT_FILE)
    variables = {variable.variable_id: variable for variable in round_.variables}
    judged = {
        (row.variable_id, row.model_id, row.item_id, row.run): row
        for model_id, rows in round_.extractions.items()
        for row in rows
        if row.variable_id in variables and variables[row.variable_id].judged_score
    }
    first_row: dict[ScoreKey, int] = {}
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(round_.mask_audit, start=1):
        variable = variables.get(row.variable_id)
        extraction = judged.get(row.key)
        if variable is None or not variable.judged_score:
            entries.append(
                (
                    f"row {number}, variable_id",
                    f"{row.variable_id!r}: expected a judged score variable of variables.csv "
                    "(type score, extractor model)",
                )
            )
        elif extraction is None or extraction.value == NA:
            entries.append(
                (
                    f"row {number}",
                    f"unknown reference: no {row.variable_id} judge score of "
                    f"({row.model_id}, {row.item_id}, run {row.run}) in extractions/ "
                    "(a response scored na has no score to void)",
                )
            )
        elif row.input_sha256 != extraction.input_sha256:
            entries.append(
                (
                    f"row {number}, input_sha256",
                    "differs from the judge's input_sha256 of that response: expected the "
                    "masked input the reviewer read",
                )
            )
        elif row.key in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"duplicate: a second decision on the same judge score (first in row "
                    f"{first_row[row.key]})",
                )
            )
        else:
            first_row[row.key] = number
    found.rows(entries, "mask audit rows wrong")


def read_raw_mask_audit(raw_dir: Path, problems: Problems) -> tuple[list[Row], str | None]:
    """The raw round's mask_audit.jsonl|csv rows, and its name (None when absent)."""
    path = filled_file(raw_dir, MASK_AUDIT_STEM)
    if path is None:
        return [], None
    return read_filled(path, path.name, MASK_AUDIT_COLUMNS, problems), path.name


def decision_value(text: str) -> MaskDecisionValue | None:
    """`text` as a decision, or None."""
    for decision in MASK_DECISIONS:
        if text == decision:
            return decision
    return None
