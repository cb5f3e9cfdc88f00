"""extraction_checks.parquet: people's spot checks of the extracted decisions (issue 21).

The audit guide's extraction step turns each answer into variables (a refund granted, an
escalation, options offered); a wrong extractor makes every gap wrong. People read a
stratified sample of the answers in the review app (`reportgen review sample --task
extraction`: a choice task, yes / no / cannot tell) without seeing the extracted value,
and say what the answer decided. The export (`reportgen review export`) writes their
readings as `extraction_checks.jsonl` (a raw round, read by `reportgen freeze`) or
`extraction_checks.parquet` (an archive, then re-frozen), like the judge's calibration.

The round declares the check in `preregistration.extraction_check`: `min_items` (checked
responses per binary variable) and `threshold` (the lowest agreement accepted, a
rational in (0, 1]). The checked variables are the binary ones (yes / no / na). The
agreement of a variable is the share of checks whose human value equals the extracted
one, with its n and a 95 % Wilson interval; below the threshold the variable leaves the
findings, as a judge that fails its calibration does.

`reportgen verify` refuses: rows without a declared check, a declared check without
rows, a row naming no binary variable or no extraction of the round, an
`extracted_value` other than the frozen value, a `human_value` outside yes / no / na,
a second check of one response by the same reviewer, fewer checked responses of a
variable than `min_items`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa

from reportgen.archive import FileProblems, Problems
from reportgen.kinds import TableRead
from reportgen.kinds.counterfactual.archive_rows import parse_day
from reportgen.kinds.counterfactual.model import (
    ExtractionCheckPlan,
    ExtractionCheckRow,
    Round,
    Variable,
)
from reportgen.kinds.counterfactual.raw import Column, Row, filled_file, read_filled
from reportgen.kinds.counterfactual.schemas import EXTRACTION_CHECKS_FILE
from reportgen.kinds.counterfactual.terms import BINARY_VALUES
from reportgen.model import Manifest as CoreManifest

if TYPE_CHECKING:
    from reportgen.kinds.counterfactual.archive_manifest import BlockReader

PLAN_KEY = "extraction_check"
EXTRACTION_CHECKS_STEM = "extraction_checks"  # .jsonl or .csv in the raw round
EXTRACTION_CHECK_COLUMNS = (
    Column("variable_id", "str"),
    Column("model_id", "str"),
    Column("item_id", "str"),
    Column("run", "int"),
    Column("extracted_value", "str"),
    Column("human_value", "str"),
    Column("reviewer", "str"),
    Column("checked_on", "str"),
)
PRESENCE_RULE = "there only when a variable is binary"
MIN_ITEMS_FLOOR = 20  # fewer only in a synthetic round


def parse_plan(value: object, core: CoreManifest, read: BlockReader) -> ExtractionCheckPlan | None:
    """preregistration.extraction_check: {"min_items": int, "threshold": rational}."""
    path = f"preregistration.{PLAN_KEY}"
    checked = read.keys(path, value, ("min_items", "threshold"))
    if checked is None:
        return None
    min_items = read.integer(f"{path}.min_items", checked["min_items"], low=1)
    if min_items < MIN_ITEMS_FLOOR and not core.synthetic:
        read.bad(
            f"{path}.min_items",
            f"expected >= {MIN_ITEMS_FLOOR} checked responses per binary variable "
            f"(fewer only in a synthetic round), got {min_items}",
        )
    threshold = read.rational(f"{path}.threshold", checked["threshold"])
    if threshold is not None and not 0 < threshold <= 1:
        read.bad(f"{path}.threshold", f"expected a value in (0, 1], got {checked['threshold']!r}")
        return None
    return None if threshold is None else ExtractionCheckPlan(min_items, threshold)


def checked_variables(round_: Round) -> tuple[Variable, ...]:
    """The variables people check: the binary ones, variables.csv order."""
    return tuple(variable for variable in round_.variables if variable.type == "binary")


def extraction_checks_present(tables: Mapping[str, TableRead]) -> bool | None:
    """Optional where a variable is binary; refused otherwise."""
    read = tables.get("variables.csv")
    if read is None or read.records is None:
        return None
    return None if any(r["type"] == "binary" for _, r in read.records) else False


def parse_extraction_checks(table: pa.Table, found: FileProblems) -> tuple[ExtractionCheckRow, ...]:
    """extraction_checks.parquet's own columns; what names a response is the rules'."""
    rows: list[ExtractionCheckRow] = []
    entries: list[tuple[str, str]] = []
    allowed = " / ".join(BINARY_VALUES)
    for number, row in enumerate(table.to_pylist(), start=1):
        checked_on = parse_day(row["checked_on"])
        problems: list[tuple[str, str]] = []
        if checked_on is None:
            problems.append(("checked_on", f"expected YYYY-MM-DD, got {row['checked_on']!r}"))
        if row["human_value"] not in BINARY_VALUES:
            problems.append(("human_value", f"expected {allowed}, got {row['human_value']!r}"))
        if row["run"] < 1:
            problems.append(("run", f"expected an integer >= 1, got {row['run']}"))
        if not row["reviewer"].strip():
            problems.append(("reviewer", "expected a reviewer pseudonym"))
        entries += [(f"row {number}, {where}", message) for where, message in problems]
        if not problems and checked_on is not None:
            rows.append(ExtractionCheckRow(**(row | {"checked_on": checked_on})))
    found.rows(entries, "extraction check rows with a problem")
    return tuple(rows)


def check_extraction_checks(round_: Round, problems: Problems) -> None:
    """The declared check and its rows agree with the round's binary extractions."""
    found = problems.in_file(EXTRACTION_CHECKS_FILE)
    plan = round_.manifest.preregistration.extraction_check
    if plan is None:
        if round_.extraction_checks:
            found.add("", f"present without preregistration.{PLAN_KEY}: declare the check")
        return
    binary = {variable.variable_id for variable in checked_variables(round_)}
    frozen = {
        (row.variable_id, row.model_id, row.item_id, row.run): row.value
        for rows in round_.extractions.values()
        for row in rows
        if row.variable_id in binary
    }
    first_row: dict[tuple[str, str, str, int, str], int] = {}
    checked: dict[str, set[tuple[str, str, str, int]]] = defaultdict(set)
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(round_.extraction_checks, start=1):
        key = (row.variable_id, row.model_id, row.item_id, row.run)
        value = frozen.get(key)
        if row.variable_id not in binary:
            entries.append(
                (f"row {number}, variable_id", f"{row.variable_id!r}: expected a binary variable")
            )
        elif value is None:
            entries.append(
                (
                    f"row {number}",
                    f"unknown reference: no {row.variable_id} extraction of "
                    f"({row.model_id}, {row.item_id}, run {row.run})",
                )
            )
        elif row.extracted_value != value:
            entries.append(
                (
                    f"row {number}, extracted_value",
                    f"{row.extracted_value!r}: expected the frozen extraction value {value!r}",
                )
            )
        elif (*key, row.reviewer) in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"duplicate: {row.reviewer} checked this response twice (first in row "
                    f"{first_row[(*key, row.reviewer)]})",
                )
            )
        else:
            first_row[(*key, row.reviewer)] = number
            checked[row.variable_id].add(key)
    found.rows(entries, "extraction check rows wrong")
    for variable_id in sorted(binary, key=[v.variable_id for v in round_.variables].index):
        count = len(checked.get(variable_id, ()))
        if count < plan.min_items:
            found.add(
                f"variable {variable_id}",
                f"fewer checked responses: {count}; expected at least {plan.min_items} "
                f"(preregistration.{PLAN_KEY}.min_items)",
            )


def read_raw_extraction_checks(raw_dir: Path, problems: Problems) -> tuple[list[Row], str | None]:
    """The raw round's extraction_checks.jsonl|csv rows, and its name (None when absent)."""
    path = filled_file(raw_dir, EXTRACTION_CHECKS_STEM)
    if path is None:
        return [], None
    return read_filled(path, path.name, EXTRACTION_CHECK_COLUMNS, problems), path.name


def read_raw_reviews(raw_dir: Path, problems: Problems) -> tuple[list[Row], list[Row], list[str]]:
    """The raw round's mask-audit decisions and extraction checks, and the files read."""
    from reportgen.kinds.counterfactual.mask_audit import read_raw_mask_audit

    decisions, decisions_file = read_raw_mask_audit(raw_dir, problems)
    checks, checks_file = read_raw_extraction_checks(raw_dir, problems)
    return decisions, checks, [name for name in (decisions_file, checks_file) if name]


def agreement_counts(round_: Round) -> dict[str, tuple[int, int]]:
    """variable_id -> (checks, agreeing checks), for every checked variable that has rows."""
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row in round_.extraction_checks:
        counts[row.variable_id][0] += 1
        counts[row.variable_id][1] += row.human_value == row.extracted_value
    return {variable_id: (n, agree) for variable_id, (n, agree) in counts.items()}
