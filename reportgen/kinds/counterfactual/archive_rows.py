"""The Parquet tables of a counterfactual archive, read into rows: items.parquet's
kind columns, the responses' (a malformed `called_at` is refused here, refusal 34's
first half, because the typed round holds it as a datetime), extractions/<model_id>
.parquet and calibration.parquet. What compares rows with the battery or with each
other (refusals 29 to 44) is the rules' (`rules.check_rules`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import fields
from datetime import UTC, date, datetime
from typing import Any

import pyarrow as pa

from reportgen.archive import FileProblems
from reportgen.archive._block import parse_day as parse_day
from reportgen.kinds.counterfactual.model import CalibrationRow, Extraction, Item, Response

_CALLED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z")


def parse_called_at(text: str) -> datetime | None:
    """`YYYY-MM-DDThh:mm:ss[.fff]Z` as an aware UTC datetime, or None."""
    if not _CALLED_AT.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


def day_and_run(
    row: dict[str, Any], number: int, day_field: str, entries: list[tuple[str, str]]
) -> date | None:
    """Row `number`'s `day_field` as a date (None when it is not YYYY-MM-DD) and its `run`
    (at least 1): a problem in `entries` for each that is not so."""
    day = parse_day(row[day_field])
    if day is None:
        entries.append(
            (f"row {number}, {day_field}", f"expected YYYY-MM-DD, got {row[day_field]!r}")
        )
    if row["run"] < 1:
        entries.append((f"row {number}, run", f"expected an integer >= 1, got {row['run']}"))
    return day


def _rows(table: pa.Table) -> list[dict[str, Any]]:
    return table.to_pylist()


def _columns(table: pa.Table, names: Sequence[str]) -> list[list[Any]]:
    """The columns `names` as Python lists, in that order; a column the table lacks
    (the outputs' text, read without text) is all None. A column at a time converts
    several times faster than a row at a time (`Table.to_pylist` builds a dict per row)."""
    present = set(table.column_names)
    return [
        table.column(name).to_pylist() if name in present else [None] * table.num_rows
        for name in names
    ]


_RESPONSE_FIELDS = tuple(field.name for field in fields(Response))
_EXTRACTION_FIELDS = tuple(field.name for field in fields(Extraction))


def check_items(table: pa.Table, found: FileProblems) -> tuple[Item, ...]:
    """Every row of items.parquet as an Item (the core checked the columns' types)."""
    return tuple(Item(**row) for row in _rows(table))


def check_response_table(table: pa.Table, where: Callable[[int], str], found: FileProblems) -> None:
    """A response row's own columns: `called_at` well formed, `run_order` >= 1."""
    called = table.column("called_at").to_pylist()
    entries = [
        (f"{where(row)}, called_at", f"expected YYYY-MM-DDThh:mm:ss[.fff]Z (UTC), got {text!r}")
        for row, text in enumerate(called)
        if parse_called_at(str(text)) is None
    ]
    found.rows(entries, "rows with a malformed called_at")


def responses_of(table: pa.Table) -> tuple[Response, ...]:
    """A checked response file as rows, in file order."""
    columns = _columns(table, _RESPONSE_FIELDS)
    at = _RESPONSE_FIELDS.index("called_at")
    # check_response_table accepted every called_at (parse_called_at); on such a text
    # fromisoformat alone gives the same aware UTC datetime ("Z" is UTC since 3.11).
    columns[at] = [datetime.fromisoformat(text) for text in columns[at]]
    return tuple(Response(*values) for values in zip(*columns, strict=True))


def parse_extractions(
    model_id: str, table: pa.Table, found: FileProblems
) -> tuple[Extraction, ...]:
    """extractions/<model_id>.parquet: rows name their file's system and a run >= 1."""
    columns = _columns(table, _EXTRACTION_FIELDS)
    rows = tuple(Extraction(*values) for values in zip(*columns, strict=True))
    labels = columns[_EXTRACTION_FIELDS.index("model_id")]
    runs = columns[_EXTRACTION_FIELDS.index("run")]
    entries: list[tuple[str, str]] = []
    for number, (label, run) in enumerate(zip(labels, runs, strict=True), start=1):
        if label != model_id:
            entries.append((f"row {number}, model_id", f"expected {model_id!r}, got {label!r}"))
        if run < 1:
            entries.append((f"row {number}, run", f"expected an integer >= 1, got {run}"))
    found.rows(entries, "rows with a problem")
    return rows


def parse_calibration(table: pa.Table, found: FileProblems) -> tuple[CalibrationRow, ...]:
    """calibration.parquet: `scored_on` a date, `run` >= 1; the rest is the rules'."""
    rows: list[CalibrationRow] = []
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(_rows(table), start=1):
        scored_on = day_and_run(row, number, "scored_on", entries)
        if not row["reviewer"].strip():
            entries.append((f"row {number}, reviewer", "expected a reviewer pseudonym"))
        rows.append(CalibrationRow(**(row | {"scored_on": scored_on or date.min})))
    found.rows(entries, "rows with a problem")
    return tuple(rows)
