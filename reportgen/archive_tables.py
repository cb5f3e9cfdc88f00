"""The CSV tables of a round archive: read with the csv module, checked row by row.

Each reader appends every problem it finds (file, row, field, what was expected) and
returns the rows that are valid, so that one run reports everything wrong.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TypeVar, cast

from reportgen.archive_manifest import SLUG, parse_iso_date
from reportgen.errors import InputError, Problem
from reportgen.model import AXES, ORIGINS, Axis, Model, Stigma, Structure

MODELS_FILE = "models.csv"
STIGMAS_FILE = "stigmas.csv"
STRUCTURES_FILE = "structures.csv"

MODELS_HEADER = (
    "model_id",
    "display_name",
    "provider",
    "api_identifier",
    "snapshot",
    "evaluated_on",
)
STIGMAS_HEADER = ("stigma_id", "name_pt", "name_en", "origin", "peril", "peril_source", "axis")
STRUCTURES_HEADER = (
    "structure_id",
    "scenario_id",
    "scenario_pt",
    "scenario_en",
    "biased_answer",
    "brazilian",
)
PERIL_SOURCES = ("pachankis2018", "assigned")
ANSWERS = ("yes", "no")
PERIL_RANGE = (0.0, 6.0)

T = TypeVar("T")
Record = tuple[int, dict[str, str]]  # 1-based data row number, field -> text


def read_text_file(path: Path, rel: str, problems: list[Problem]) -> str | None:
    """The file's text, or None after reporting it missing, unreadable or not UTF-8."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        problems.append(Problem(rel, "", "missing file"))
        return None
    except OSError as error:
        problems.append(Problem(rel, "", f"unreadable file: {error.strerror}"))
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        problems.append(
            Problem(
                rel,
                f"line {line}",
                f"not valid UTF-8 (byte 0x{data[error.start]:02x} at offset {error.start})",
            )
        )
        return None


def read_csv_records(
    path: Path, rel: str, header: Sequence[str], problems: list[Problem]
) -> list[Record] | None:
    """Rows of a CSV file whose header must be exactly `header`."""
    text = read_text_file(path, rel, problems)
    if text is None:
        return None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = list(reader)
    except csv.Error as error:
        problems.append(Problem(rel, f"line {reader.line_num}", f"malformed CSV: {error}"))
        return None
    if not rows or rows[0] != list(header):
        got = ",".join(rows[0]) if rows else "an empty file"
        problems.append(Problem(rel, "header", f"expected {','.join(header)}, got {got}"))
        return None
    records: list[Record] = []
    for number, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            problems.append(
                Problem(rel, f"row {number}", f"expected {len(header)} fields, got {len(row)}")
            )
            continue
        broken = [name for name, value in zip(header, row, strict=True) if _has_line_break(value)]
        for name in broken:
            problems.append(
                Problem(rel, f"row {number}, {name}", "line breaks are not allowed in a value")
            )
        if not broken:
            records.append((number, dict(zip(header, row, strict=True))))
    return records


class _RowChecker:
    """Reports problems of one CSV row and remembers whether the row was valid."""

    def __init__(self, problems: list[Problem], rel: str, number: int, record: dict[str, str]):
        self.problems = problems
        self.rel = rel
        self.row_number = number
        self.record = record
        self.valid = True

    def bad(self, field: str, message: str) -> None:
        self.valid = False
        self.problems.append(Problem(self.rel, f"row {self.row_number}, {field}", message))

    def text(self, field: str) -> str:
        value = self.record[field]
        if not value.strip() or value != value.strip():
            self.bad(field, f"expected a non-empty value without surrounding spaces, got {value!r}")
        return value

    def choice(self, field: str, allowed: Sequence[str]) -> str:
        value = self.record[field]
        if value not in allowed:
            self.bad(field, f"expected one of {' | '.join(allowed)}, got {value!r}")
        return value

    def iso_date(self, field: str) -> str:
        value = self.record[field]
        if parse_iso_date(value) is None:
            self.bad(field, f"expected an ISO date YYYY-MM-DD, got {value!r}")
        return value

    def boolean(self, field: str) -> bool:
        value = self.record[field]
        if value not in ("true", "false"):
            self.bad(field, f"expected true or false, got {value!r}")
        return value == "true"

    def number(self, field: str, low: float, high: float) -> float:
        value = self.record[field]
        try:
            parsed = float(value)
        except ValueError:
            self.bad(field, f"expected a number, got {value!r}")
            return math.nan
        if not low <= parsed <= high:  # also rejects nan
            self.bad(field, f"expected a number between {low:g} and {high:g}, got {value!r}")
        return parsed

    def unique_id(self, field: str, seen: dict[str, int], *, slug: bool) -> str:
        value = self.text(field) if not slug else self.record[field]
        if slug and not SLUG.fullmatch(value):
            self.bad(field, f"{value!r} is not a slug [a-z0-9][a-z0-9-]*")
        elif value in seen:
            self.bad(field, f"duplicate {field} {value!r} (first in row {seen[value]})")
        else:
            seen[value] = self.row_number
        return value


def _parse_rows(
    records: list[Record],
    rel: str,
    problems: list[Problem],
    build: Callable[[_RowChecker], T],
) -> tuple[T, ...]:
    parsed: list[T] = []
    for number, record in records:
        checker = _RowChecker(problems, rel, number, record)
        value = build(checker)
        if checker.valid:
            parsed.append(value)
    return tuple(parsed)


def parse_models(records: list[Record], problems: list[Problem]) -> tuple[Model, ...]:
    seen: dict[str, int] = {}

    def build(row: _RowChecker) -> Model:
        evaluated_on = row.iso_date("evaluated_on")
        return Model(
            model_id=row.unique_id("model_id", seen, slug=True),
            display_name=row.text("display_name"),
            provider=row.text("provider"),
            api_identifier=row.text("api_identifier"),
            snapshot=row.record["snapshot"],
            evaluated_on=parse_iso_date(evaluated_on) or date.min,
        )

    return _parse_rows(records, MODELS_FILE, problems, build)


def parse_stigmas(records: list[Record], problems: list[Problem]) -> tuple[Stigma, ...]:
    seen: dict[str, int] = {}

    def build(row: _RowChecker) -> Stigma:
        axis = row.choice("axis", ("", *AXES))
        return Stigma(
            stigma_id=row.unique_id("stigma_id", seen, slug=False),
            name_pt=row.text("name_pt"),
            name_en=row.text("name_en"),
            origin=row.choice("origin", ORIGINS),  # type: ignore[arg-type]
            peril=row.number("peril", *PERIL_RANGE),
            peril_source=row.choice("peril_source", PERIL_SOURCES),  # type: ignore[arg-type]
            axis=cast(Axis | None, axis or None),
        )

    return _parse_rows(records, STIGMAS_FILE, problems, build)


def parse_structures(records: list[Record], problems: list[Problem]) -> tuple[Structure, ...]:
    seen: dict[str, int] = {}

    def build(row: _RowChecker) -> Structure:
        return Structure(
            structure_id=row.unique_id("structure_id", seen, slug=False),
            scenario_id=row.text("scenario_id"),
            scenario_pt=row.text("scenario_pt"),
            scenario_en=row.text("scenario_en"),
            biased_answer=row.choice("biased_answer", ANSWERS),  # type: ignore[arg-type]
            brazilian=row.boolean("brazilian"),
        )

    return _parse_rows(records, STRUCTURES_FILE, problems, build)


def _float_text(value: float) -> str:
    # repr gives the shortest text that reads back to the same float: stable bytes.
    return repr(float(value))


def models_csv_row(model: Model) -> list[str]:
    return [
        model.model_id,
        model.display_name,
        model.provider,
        model.api_identifier,
        model.snapshot,
        model.evaluated_on.isoformat(),
    ]


def stigmas_csv_row(stigma: Stigma) -> list[str]:
    return [
        stigma.stigma_id,
        stigma.name_pt,
        stigma.name_en,
        stigma.origin,
        _float_text(stigma.peril),
        stigma.peril_source,
        stigma.axis or "",
    ]


def structures_csv_row(structure: Structure) -> list[str]:
    return [
        structure.structure_id,
        structure.scenario_id,
        structure.scenario_pt,
        structure.scenario_en,
        structure.biased_answer,
        "true" if structure.brazilian else "false",
    ]


def _has_line_break(value: str) -> bool:
    return "\n" in value or "\r" in value


def csv_text(header: Sequence[str], rows: Sequence[Sequence[str]], *, name: str = "") -> str:
    """CSV with `\\n` line ends and minimal quoting: the same rows give the same bytes.

    Values must be single lines (the csv module would not quote a lone carriage
    return with `\\n` line ends); InputError names the table, row and field otherwise.
    """
    for number, row in enumerate(rows, start=1):
        for field, value in zip(header, row, strict=True):
            if _has_line_break(value):
                raise InputError(f"{name}: row {number}, {field}: a value must be a single line")
    buffer = io.StringIO(newline="")
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()
