"""The raw counterfactual round: what `reportgen counterfactual render` writes, a team
fills in with any client, and `reportgen freeze` turns into an archive.

RAW_DIR holds the battery files as given (battery_sha256 is over their exact bytes),
round.json (the draft: freeze computes the dates, languages, battery_sha256 and adds the
required interpretations), models.csv (`evaluated_on` may be empty: freeze computes it),
items.parquet, `to_send.jsonl` and `to_send.csv` (every item x run with its `run_order`),
and, filled in by the team, one file per system (JSON lines, or CSV with a header):

- `responses/<model_id>.jsonl|csv`: a copy of to_send with `raw_text`, `called_at`
  (`YYYY-MM-DDThh:mm:ss[.fff]Z`, UTC), `latency_ms` (may be empty), and the
  `system_prompt_sha256` and `tools_sha256` actually sent, and the `prompt_sha256` and
  `context_sha256` (null: no context sent) of the user message and context actually
  sent, filled in (verify checks them against the item as rendered);
- `extractions/<model_id>.jsonl|csv`: `item_id`, `run`, `variable_id`, `value`,
  `input_text` (the masked text a model extractor or judge saw; empty for code),
  optionally `input_sha256` (computed when absent);
- `calibration.jsonl|csv` (only with a judged score): `variable_id`, `model_id`,
  `item_id`, `run`, `human_score`, `reviewer`, `scored_on`; `input_sha256` and
  `judge_score` are taken from the judge's extraction when absent.

This module reads those files row by row into plain values, reporting each bad line
(`line N` of a JSON lines file, `row N` of a CSV file) with what was expected.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from reportgen.archive import FileProblems, Problems
from reportgen.collect.plain import json_lines

TO_SEND = "to_send"
# to_send's columns: what to send, then what the team fills in (empty in to_send).
TO_SEND_COLUMNS: tuple[str, ...] = (
    "run_order",
    "item_id",
    "run",
    "template_id",
    "attribute_id",
    "variant_id",
    "language",
    "prompt",
    "context",
    "raw_text",
    "called_at",
    "latency_ms",
    "system_prompt_sha256",
    "tools_sha256",
    "prompt_sha256",
    "context_sha256",
)
# Informative columns of to_send that freeze reads past (the items are in items.parquet).
SENT_COLUMNS = frozenset(
    {"template_id", "attribute_id", "variant_id", "language", "prompt", "context"}
)
CALLED_AT = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z")

Type = Literal["str", "str?", "int", "int?", "float?"]


@dataclass(frozen=True)
class Column:
    name: str
    type: Type


RESPONSE_COLUMNS = (
    Column("item_id", "str"),
    Column("run", "int"),
    Column("run_order", "int"),
    Column("raw_text", "str"),
    Column("called_at", "str"),
    Column("latency_ms", "float?"),
    Column("system_prompt_sha256", "str"),
    Column("tools_sha256", "str"),
    Column("prompt_sha256", "str"),
    Column("context_sha256", "str?"),
)
EXTRACTION_COLUMNS = (
    Column("item_id", "str"),
    Column("run", "int"),
    Column("variable_id", "str"),
    Column("value", "str"),
    Column("input_text", "str?"),
    Column("input_sha256", "str?"),
)
CALIBRATION_COLUMNS = (
    Column("variable_id", "str"),
    Column("model_id", "str"),
    Column("item_id", "str"),
    Column("run", "int"),
    Column("human_score", "int"),
    Column("reviewer", "str"),
    Column("scored_on", "str"),
    Column("input_sha256", "str?"),
    Column("judge_score", "int?"),
)
OPTIONAL = frozenset({"latency_ms", "input_text", "input_sha256", "judge_score"})

Row = dict[str, object]  # column -> value, and WHERE -> "line N" / "row N" of the file
WHERE = "_where"


def parse_called_at(text: str) -> datetime | None:
    """A `called_at` as an aware UTC datetime; None when it is not the spec's form."""
    if CALLED_AT.fullmatch(text) is None:
        return None
    try:
        return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


def filled_file(folder: Path, stem: str) -> Path | None:
    """`<stem>.jsonl` or `<stem>.csv` in `folder` (the first present), or None."""
    for suffix in (".jsonl", ".csv"):
        path = folder / f"{stem}{suffix}"
        if path.is_file():
            return path
    return None


def read_filled(
    path: Path,
    rel: str,
    columns: Sequence[Column],
    problems: Problems,
    *,
    ignored: frozenset[str] = frozenset(),
) -> list[Row]:
    """The rows of a filled JSON lines or CSV file, typed per `columns`; every bad line
    is reported (and left out)."""
    found = problems.in_file(rel)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        found.add("", f"cannot be read as UTF-8 text ({error})")
        return []
    records = _json_lines(text, found) if path.suffix == ".jsonl" else _csv_rows(text, found)
    rows = []
    for where, record, from_csv in records:
        row = _typed(where, record, columns, ignored, found, from_csv=from_csv)
        if row is not None:
            rows.append(row)
    return rows


def _json_lines(text: str, found: FileProblems) -> list[tuple[str, Mapping[str, object], bool]]:
    records: list[tuple[str, Mapping[str, object], bool]] = []
    for where, value, problem in json_lines(text):
        if problem is not None:
            found.add(where, f"not valid JSON ({problem}): expected one object")
        elif not isinstance(value, dict):
            found.add(where, "expected a JSON object")
        else:
            records.append((where, value, False))
    return records


def _csv_rows(text: str, found: FileProblems) -> list[tuple[str, Mapping[str, object], bool]]:
    reader = csv.DictReader(io.StringIO(text, newline=""))
    records: list[tuple[str, Mapping[str, object], bool]] = []
    try:
        for number, record in enumerate(reader, start=1):
            if None in record:
                found.add(f"row {number}", "more fields than the header has")
                continue
            records.append((f"row {number}", dict(record), True))
    except csv.Error as error:
        found.add("", f"not valid CSV ({error})")
    return records


def _typed(
    where: str,
    record: Mapping[str, object],
    columns: Sequence[Column],
    ignored: frozenset[str],
    found: FileProblems,
    *,
    from_csv: bool,
) -> Row | None:
    known = {column.name for column in columns}
    unknown = sorted(set(record) - known - ignored)
    if unknown:
        found.add(where, f"unknown column(s) {', '.join(unknown)}: expected {', '.join(known)}")
        return None
    row: Row = {WHERE: where}
    for column in columns:
        if column.name not in record:
            if column.name in OPTIONAL:
                row[column.name] = None
                continue
            found.add(where, f"missing {column.name!r}")
            return None
        value = record[column.name]
        converted = _convert(value, column.type, from_csv=from_csv)
        if isinstance(converted, _Bad):
            found.add(
                f"{where}, {column.name}", f"{str(value)[:40]!r}: expected {converted.expected}"
            )
            return None
        row[column.name] = converted
    return row


@dataclass(frozen=True)
class _Bad:
    expected: str


def _convert(value: object, type_: Type, *, from_csv: bool) -> object:
    """`value` as `type_`; CSV gives text, where an empty cell is null (not for `str`)."""
    nullable = type_.endswith("?")
    if value is None or (from_csv and value == "" and nullable):
        return None if nullable else _Bad("a value (not null)")
    if type_ in ("str", "str?"):
        return value if isinstance(value, str) else _Bad("text")
    if type_ in ("int", "int?"):
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        if from_csv and isinstance(value, str) and re.fullmatch(r"-?\d+", value):
            return int(value)
        return _Bad("an integer")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if from_csv and isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            pass
    return _Bad("a number or empty")
