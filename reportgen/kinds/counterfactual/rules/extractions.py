"""Refusals 36 to 40 on extractions/<model_id>.parquet, one system at a time.

36: exactly one row per response row x variable, none for an unknown response or
variable. 37/38/39: the value's canonical spelling for a binary, count or score
variable. 40: `input_text` and `input_sha256` present (and the hash right) for a model
extractor, both null for a code extractor. Only the responses that exist are expected:
a missing response (rule 32) is not also reported as missing extractions; a row for an
unknown response or variable is reported once, and its value is not checked. A file
with no rows is one line; a system whose responses file has none is rule 32's alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import NA, Extraction, Round, Variable
from reportgen.kinds.counterfactual.rules._index import (
    RoundIndex,
    extraction_path,
    response_path,
)
from reportgen.kinds.counterfactual.terms import (
    BINARY_VALUES,
    is_canonical_count,
    is_canonical_int,
    sha256_text,
)

Entries = list[tuple[str, str]]


def check_extractions(round_: Round, index: RoundIndex, problems: Problems) -> None:
    for system in round_.models:
        model_id = system.model_id
        rows = round_.extractions.get(model_id)
        if rows is None or not round_.responses.get(model_id):
            continue  # a missing file is rule 14's, a responses file without rows rule 32's
        found = problems.in_file(extraction_path(model_id))
        if not rows:  # an emptied file: one line, not every missing row
            found.add("", "no rows: expected one row per response x variable")
            continue
        entries, valid = _row_problems(model_id, rows, index)
        found.rows(entries, "extraction rows missing or extra")
        found.rows(_value_problems(valid, index), "extracted values misspelt")
        found.rows(_input_problems(valid, index), "extraction inputs wrong")


def _row_problems(
    model_id: str, rows: Sequence[Extraction], index: RoundIndex
) -> tuple[Entries, list[tuple[int, Extraction]]]:
    """Refusal 36; returns the entries and the rows whose other checks are meaningful."""
    responses = index.responses.get(model_id, {})
    cells = index.valid_cells.get(model_id, frozenset())
    variables = index.variables
    first_row: dict[tuple[str, int, str], int] = {}
    valid: list[tuple[int, Extraction]] = []
    entries: Entries = []
    for number, row in enumerate(rows, start=1):
        cell = (row.item_id, row.run)
        if row.model_id != model_id:  # a wrong label; the row still counts as this file's
            entries.append((f"row {number}, model_id", f"{row.model_id!r}: expected {model_id!r}"))
        if cell not in responses:
            entries.append(
                (
                    f"row {number}",
                    f"an extraction of {index.cell_where(row.item_id, row.run)}, which has no "
                    f"response in {response_path(model_id)}",
                )
            )
        elif cell not in cells:
            continue  # the response itself is refused (rule 32): nothing more to say
        elif row.variable_id not in variables:
            entries.append(
                (f"row {number}, variable_id", f"{row.variable_id!r} is not in variables.csv")
            )
        elif (key := (row.item_id, row.run, row.variable_id)) in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"duplicate: a second extraction of variable {row.variable_id} for "
                    f"{index.cell_where(row.item_id, row.run)} (first in row {first_row[key]})",
                )
            )
        else:
            first_row[key] = number
            valid.append((number, row))
    entries += [
        (
            f"{index.cell_where(item_id, run)}, variable {variable_id}",
            "missing extraction: expected one row per response x variable",
        )
        for item_id, run in responses
        if (item_id, run) in cells
        for variable_id in variables
        if (item_id, run, variable_id) not in first_row
    ]
    return entries, valid


def value_problem(variable: Variable, value: str) -> str | None:
    """Refusals 37/38/39: what is wrong with `value` for `variable`, or None."""
    if value == NA:
        return None
    if variable.type == "binary":
        if value in BINARY_VALUES:
            return None
        return f"binary variable {variable.variable_id}: expected yes, no or na"
    if variable.type == "count":
        if is_canonical_count(value):
            return None
        return (
            f"count variable {variable.variable_id}: expected a non-negative integer in "
            "canonical form (0, 17; no sign, no leading zeros) or na"
        )
    if (
        variable.scale is not None
        and is_canonical_int(value)
        and variable.scale[0] <= int(value) <= variable.scale[1]
    ):
        return None
    scale = "no scale" if variable.scale is None else f"{variable.scale[0]}..{variable.scale[1]}"
    return (
        f"score outside the declared scale: expected an integer in {scale} (variables.csv, "
        f"variable {variable.variable_id}) or na"
    )


def _value_problems(rows: list[tuple[int, Extraction]], index: RoundIndex) -> Entries:
    entries: Entries = []
    # A verdict depends on the variable and the value alone, and values repeat: each
    # distinct pair is judged once.
    verdicts: dict[tuple[str, str], str | None] = {}
    for number, row in rows:
        pair = (row.variable_id, row.value)
        if pair not in verdicts:
            verdicts[pair] = value_problem(index.variables[row.variable_id], row.value)
        problem = verdicts[pair]
        if problem is not None:
            entries.append((f"row {number}, value", f"{row.value!r} for a {problem}"))
    return entries


def _input_problems(rows: list[tuple[int, Extraction]], index: RoundIndex) -> Entries:
    """Refusal 40: the model extractor's input and its hash; nothing for code."""
    entries: Entries = []
    hashes: dict[str, str] = {}  # a judge's inputs repeat: each distinct text hashed once
    for number, row in rows:
        variable = index.variables[row.variable_id]
        if variable.extractor == "code":
            if row.input_text is not None or row.input_sha256 is not None:
                entries.append(
                    (
                        f"row {number}, input_text",
                        f"present for variable {variable.variable_id}, whose extractor is "
                        "code (it reads raw_text): expected input_text and input_sha256 null",
                    )
                )
        elif row.input_text is None:
            entries.append(
                (
                    f"row {number}, input_text",
                    f"missing for variable {variable.variable_id}, whose extractor is a "
                    "model: expected the masked text it received",
                )
            )
        elif row.input_sha256 != _hash(row.input_text, hashes):
            entries.append(
                (f"row {number}, input_sha256", "expected the SHA-256 of input_text (UTF-8)")
            )
    return entries


def _hash(text: str, known: dict[str, str]) -> str:
    """sha256_text(text), remembered in `known`."""
    if text not in known:
        known[text] = sha256_text(text)
    return known[text]
