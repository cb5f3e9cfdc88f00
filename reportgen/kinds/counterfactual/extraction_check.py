"""extraction_checks.parquet: people's spot checks of the extracted decisions (issue 21).

The audit guide's extraction step turns each answer into variables (a refund granted,
an escalation, options offered); a wrong extractor makes every gap wrong. People read a
stratified sample of the answers in the review app (`reportgen review sample --task
extraction`) without seeing the extracted value, and say what the answer decided: yes /
no / cannot tell for a binary variable, the number they count (a whole number >= 0, or
cannot tell) for a count variable. The export (`reportgen review export`) writes their
readings as `extraction_checks.jsonl` (a raw round, read by `reportgen freeze`) or
`extraction_checks.parquet` (an archive, then re-frozen), like the judge's calibration.

The round declares the check in `preregistration.extraction_check`: `min_items` (checked
responses per checked variable) and `threshold` (the lowest agreement accepted, a
rational in (0, 1]). The checked variables (`checked_variables`) are every binary
variable, and every count variable whose extractor is a model.

Decision: a count made by a `code` extractor (words, lines starting with a dash) is not
checked. variables.csv declares each variable's extractor (`code`: a deterministic
program on the raw text, `model`: a model answering in JSON, or a judge); a program's
count is what its question defines, so people would only re-run the program by hand. A
binary variable is a reading of what the answer decided ("does the answer grant the
refund?") whichever extractor gives it, rules in code included, and stays checked. The
spec (counterfactual-round.md) names spot checks only as a review that may lead to
annulments, so nothing there narrows this; the declared check covers every checked
variable: a model-extracted count variable without a row is refused, as a binary one.

The agreement of a variable is the share of checks whose human value equals the
extracted one (exact match: `3` agrees with `3` only, `na` with `na`), with its n and a
95 % Wilson interval; below the threshold the variable leaves the findings, as a judge
that fails its calibration does.

`reportgen verify` refuses: rows without a declared check, a declared check without
rows, a row naming no checked variable or no extraction of the round, an
`extracted_value` other than the frozen value, a `human_value` other than yes / no / na
(binary) or a canonical whole number >= 0 / na (count), a second check of one response
by the same reviewer, fewer checked responses of a variable than `min_items` (none at
all of a checked variable: "no checks").
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
from reportgen.kinds.counterfactual.terms import BINARY_VALUES, is_canonical_count
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
PRESENCE_RULE = "there only when a variable is binary, or a count whose extractor is a model"
MIN_ITEMS_FLOOR = 20  # fewer only in a synthetic round
ResponseKey = tuple[str, str, str, int]  # variable_id, model_id, item_id, run


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
            f"expected >= {MIN_ITEMS_FLOOR} checked responses per checked variable "
            f"(fewer only in a synthetic round), got {min_items}",
        )
    threshold = read.rational(f"{path}.threshold", checked["threshold"])
    if threshold is not None and not 0 < threshold <= 1:
        read.bad(f"{path}.threshold", f"expected a value in (0, 1], got {checked['threshold']!r}")
        return None
    return None if threshold is None else ExtractionCheckPlan(min_items, threshold)


def is_checked(variable_type: str, extractor: str) -> bool:
    """Whether people check a variable: binary (any extractor), or a model's count."""
    return variable_type == "binary" or (variable_type == "count" and extractor == "model")


def checked_variables(round_: Round) -> tuple[Variable, ...]:
    """The variables people check (`is_checked`), variables.csv order."""
    return tuple(v for v in round_.variables if is_checked(v.type, v.extractor))


def human_value_ok(variable: Variable, value: str) -> bool:
    """A reading of a binary variable is yes / no / na; of a count, a canonical whole
    number >= 0 ("0", "17": no sign, no leading zeros) or na."""
    if variable.type == "count":
        return value == "na" or is_canonical_count(value)
    return value in BINARY_VALUES


def extraction_checks_present(tables: Mapping[str, TableRead]) -> bool | None:
    """Optional where a variable is checked (`is_checked`); refused otherwise."""
    read = tables.get("variables.csv")
    if read is None or read.records is None:
        return None
    checked = any(is_checked(r["type"], r["extractor"]) for _, r in read.records)
    return None if checked else False


def parse_extraction_checks(table: pa.Table, found: FileProblems) -> tuple[ExtractionCheckRow, ...]:
    """extraction_checks.parquet's own columns; what names a response is the rules'."""
    rows: list[ExtractionCheckRow] = []
    entries: list[tuple[str, str]] = []
    allowed = f"{' / '.join(BINARY_VALUES)} or a whole number >= 0"
    for number, row in enumerate(table.to_pylist(), start=1):
        checked_on = parse_day(row["checked_on"])
        problems: list[tuple[str, str]] = []
        if checked_on is None:
            problems.append(("checked_on", f"expected YYYY-MM-DD, got {row['checked_on']!r}"))
        if row["human_value"] not in BINARY_VALUES and not is_canonical_count(row["human_value"]):
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
    """The declared check and its rows agree with the round's checked extractions."""
    found = problems.in_file(EXTRACTION_CHECKS_FILE)
    plan = round_.manifest.preregistration.extraction_check
    if plan is None:
        if round_.extraction_checks:
            found.add("", f"present without preregistration.{PLAN_KEY}: declare the check")
        return
    variables = {variable.variable_id: variable for variable in checked_variables(round_)}
    frozen = {
        (row.variable_id, row.model_id, row.item_id, row.run): row.value
        for rows in round_.extractions.values()
        for row in rows
        if row.variable_id in variables
    }
    first_row: dict[tuple[str, str, str, int, str], int] = {}
    checked: dict[str, set[ResponseKey]] = defaultdict(set)
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(round_.extraction_checks, start=1):
        key = (row.variable_id, row.model_id, row.item_id, row.run)
        problem = _row_problem(row, variables.get(row.variable_id), frozen.get(key))
        if problem is None and (*key, row.reviewer) in first_row:
            first = first_row[(*key, row.reviewer)]
            problem = (
                "",
                f"duplicate: {row.reviewer} checked this response twice (first in row {first})",
            )
        if problem is not None:
            where, message = problem
            entries.append((f"row {number}{', ' + where if where else ''}", message))
        else:
            first_row[(*key, row.reviewer)] = number
            checked[row.variable_id].add(key)
    found.rows(entries, "extraction check rows wrong")
    for variable in variables.values():
        count = len(checked.get(variable.variable_id, ()))
        if count == 0:
            found.add(
                f"variable {variable.variable_id}",
                f"no checks of this {variable.type} variable ({variable.extractor} extractor): "
                f"the declared check covers every binary variable and every count variable "
                f"whose extractor is a model (expected at least {plan.min_items}, "
                f"preregistration.{PLAN_KEY}.min_items)",
            )
        elif count < plan.min_items:
            found.add(
                f"variable {variable.variable_id}",
                f"fewer checked responses: {count}; expected at least {plan.min_items} "
                f"(preregistration.{PLAN_KEY}.min_items)",
            )


def _row_problem(
    row: ExtractionCheckRow, variable: Variable | None, value: str | None
) -> tuple[str, str] | None:
    """(field, message) of what is wrong with one row ("" names the row itself), or None."""
    if variable is None:
        return "variable_id", (
            f"{row.variable_id!r}: expected a binary variable, or a count variable whose "
            "extractor is a model"
        )
    if value is None:
        return "", (
            f"unknown reference: no {row.variable_id} extraction of "
            f"({row.model_id}, {row.item_id}, run {row.run})"
        )
    if row.extracted_value != value:
        return "extracted_value", (
            f"{row.extracted_value!r}: expected the frozen extraction value {value!r}"
        )
    if not human_value_ok(variable, row.human_value):
        expected = "a whole number >= 0 or na" if variable.type == "count" else "yes / no / na"
        return "human_value", (
            f"{row.human_value!r}: expected {expected} for the {variable.type} variable "
            f"{variable.variable_id}"
        )
    return None


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
