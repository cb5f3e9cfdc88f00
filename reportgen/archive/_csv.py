"""The CSV tables of a round archive: read with the csv module, checked row by row.

Each reader reports every problem it finds (file, row, field, what was expected) and
returns the rows that are valid, so that one run reports everything wrong. models.csv
is the core's; a kind declares its own tables with the same tools.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from reportgen.archive._layout import MODELS_FILE, SLUG, parse_iso_date, read_text_file
from reportgen.archive._problems import FileProblems, Problems
from reportgen.errors import InputError
from reportgen.model import Manifest, Model

if TYPE_CHECKING:
    from reportgen.archive._kind import ArchiveKind

MODELS_HEADER = (
    "model_id",
    "display_name",
    "provider",
    "api_identifier",
    "snapshot",
    "evaluated_on",
)

T = TypeVar("T")
Record = tuple[int, dict[str, str]]  # 1-based data row number, field -> text


def read_csv_records(
    path: Path,
    rel: str,
    header: Sequence[str],
    problems: Problems,
    *,
    open_tail: bool = False,
    rule: str = "",
) -> list[Record] | None:
    """Rows of a CSV file whose header must be exactly `header` (with `open_tail`: start
    with `header`, any columns after it kept); `rule` explains a wrong header."""
    found = problems.in_file(rel)
    text = read_text_file(path, found)
    if text is None:
        return None
    if text.startswith("\ufeff"):
        # Invisible in a message: "expected a,b, got a,b" would not tell anyone why.
        found.add("header", "the file starts with a UTF-8 byte-order mark (BOM); save it without")
        return None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    try:
        rows = list(reader)
    except csv.Error as error:
        found.add(f"line {reader.line_num}", f"malformed CSV: {error}")
        return None
    if rows and open_tail and rows[0][: len(header)] == list(header):
        header = rows[0]
    if not rows or rows[0] != list(header):
        got = ",".join(rows[0]) if rows else "an empty file"
        because = f" ({rule})" if rule else ""
        found.add("header", f"expected {','.join(header)}{because}, got {got}")
        return None
    records: list[Record] = []
    for number, row in enumerate(rows[1:], start=1):
        if len(row) != len(header):
            found.add(f"row {number}", f"expected {len(header)} fields, got {len(row)}")
            continue
        broken = [name for name, value in zip(header, row, strict=True) if _has_line_break(value)]
        for name in broken:
            found.add(f"row {number}, {name}", "line breaks are not allowed in a value")
        if not broken:
            records.append((number, dict(zip(header, row, strict=True))))
    return records


class RowChecker:
    """Reports problems of one CSV row and remembers whether the row was valid."""

    def __init__(self, found: FileProblems, number: int, record: dict[str, str]) -> None:
        self.found = found
        self.row_number = number
        self.record = record
        self.valid = True

    def bad(self, field: str, message: str) -> None:
        self.valid = False
        self.found.add(f"row {self.row_number}, {field}", message)

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

    def iso_date(self, field: str) -> date:
        value = self.record[field]
        parsed = parse_iso_date(value)
        if parsed is None:
            self.bad(field, f"expected an ISO date YYYY-MM-DD, got {value!r}")
        return parsed or date.min

    def boolean(self, field: str) -> bool:
        """`true` / `false` in any case, as pandas and R write them."""
        value = self.record[field]
        if value.lower() not in ("true", "false"):
            self.bad(field, f"expected true or false, got {value!r}")
        return value.lower() == "true"

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
        else:
            self.first_seen(field, value, seen)
        return value

    def first_seen(self, field: str, value: str, seen: dict[str, int]) -> None:
        """Records this row as where `value` of `field` is first seen; a problem when an
        earlier row of `seen` has it."""
        if value in seen:
            self.bad(field, f"duplicate {field} {value!r} (first in row {seen[value]})")
        else:
            seen[value] = self.row_number


def parse_rows(
    records: Sequence[Record], found: FileProblems, build: Callable[[RowChecker], T]
) -> tuple[T, ...]:
    """`build` applied to every record; only the rows without problems are kept."""
    parsed: list[T] = []
    for number, record in records:
        checker = RowChecker(found, number, record)
        value = build(checker)
        if checker.valid:
            parsed.append(value)
    return tuple(parsed)


def parse_models(
    records: Sequence[Record],
    problems: Problems,
    *,
    kind: ArchiveKind | None = None,
    manifest: Manifest | None = None,
) -> tuple[Model, ...]:
    """models.csv's rows; `kind` reads its own columns (`Kind.model_columns`) into its
    model class, with the kind's `manifest` when round.json is valid."""
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Model:
        evaluated_on = row.iso_date("evaluated_on")
        core = Model(
            model_id=row.unique_id("model_id", seen, slug=True),
            display_name=row.text("display_name"),
            provider=row.text("provider"),
            api_identifier=row.text("api_identifier"),
            snapshot=row.record["snapshot"],
            evaluated_on=evaluated_on,
        )
        return core if kind is None else kind.parse_model(core, row, manifest)

    return parse_rows(records, problems.in_file(MODELS_FILE), build)


def float_text(value: float) -> str:
    # repr gives the shortest text that reads back to the same float: stable bytes.
    return repr(float(value))


def bool_text(value: bool) -> str:
    return "true" if value else "false"


def cell_text(value: object) -> str:
    """A CSV cell: "" for None, `bool_text`, `float_text`, an ISO date, a tuple's texts
    joined by ";", else the value's text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return bool_text(value)
    if isinstance(value, float):
        return float_text(value)
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, tuple):
        return ";".join(value)
    return str(value)


def record_row(record: object, header: Sequence[str]) -> list[str]:
    """A CSV row of `record`: its fields named by `header`, in that order (`cell_text`)."""
    return [cell_text(getattr(record, name)) for name in header]


def models_csv_row(model: Model) -> list[str]:
    return record_row(model, MODELS_HEADER)


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
