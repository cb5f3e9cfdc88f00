"""The whole-column checks of the multidomain Parquet readers (archive_columns): a table
that passes them gives the rows the per-row path gives; a bad value in row k is still
reported as row k, with the message of the per-row path, and no other problem."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from reportgen.archive import Problems
from reportgen.kinds.multidomain import archive_columns, archive_responses, archive_tables
from reportgen.kinds.multidomain.archive_block import parse_timestamp
from reportgen.kinds.multidomain.terms import sha256_text

ROUND = Path(__file__).resolve().parent.parent / "examples/multidomain/rounds/reg-2026-1"
ROWS = 40


def _old_parse_timestamp(text: str) -> datetime | None:
    """parse_timestamp before whole-column reads: regex, then the text without its Z."""
    import re

    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", text):
        return None
    try:
        return datetime.fromisoformat(text[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


@pytest.mark.parametrize(
    "text",
    [
        "2026-03-01T12:34:56Z",
        "2024-02-29T23:59:59Z",  # a leap day
        "2026-02-30T00:00:00Z",  # no such day
        "2026-02-29T00:00:00Z",  # not a leap year
        "2026-01-01T23:59:60Z",  # a leap second: not a Python datetime
        "2026-01-01T24:00:00Z",
        "2026-01-01T00:00:00z",  # lower-case z
        "2026-01-01T00:00:00",
        "2026-01-01T00:00:00+00:00",
        "2026-01-01T00:00:00.5Z",
        "2026-01-01 00:00:00Z",
        "2026-1-01T00:00:00Z",
        "٢٠٢٦-01-01T00:00:00Z",  # non-ASCII digits
        "",
    ],
)
def test_parse_timestamp_reads_as_before(text: str) -> None:
    got = parse_timestamp(text)
    assert got == _old_parse_timestamp(text)
    assert got is None or got.tzinfo is UTC


def _problems(table: pa.Table, parse: Callable[[pa.Table, Any], Any]) -> tuple[Any, list[str]]:
    problems = Problems()
    rows = parse(table, problems.in_file("f"))
    return rows, [f"{p.where}: {p.message}" for p in problems]


def _per_row(monkeypatch: pytest.MonkeyPatch, table: pa.Table, parse: Any) -> tuple[Any, list[str]]:
    """`parse` with the whole-column checks switched off: the per-row path alone."""
    with monkeypatch.context() as patch:
        real = archive_columns.table_rows
        patch.setattr(
            archive_tables,
            "table_rows",
            lambda table, found, make, label, check, convert, clean=None: real(
                table, found, make, label, check, convert
            ),
        )
        patch.setattr(archive_responses, "_clean", lambda table, *, with_text: False)
        return _problems(table, parse)


def _set(table: pa.Table, column: str, row: int, value: object) -> pa.Table:
    values = table.column(column).to_pylist()
    values[row] = value
    index = table.column_names.index(column)
    return table.set_column(index, table.field(column), pa.array(values, table.field(column).type))


TABLE_CASES = [
    ("jury.parquet", archive_tables.parse_jury, "run", 0),
    ("jury.parquet", archive_tables.parse_jury, "position", 0),
    ("jury.parquet", archive_tables.parse_jury, "judged_at", "2026-02-30T10:00:00Z"),
    ("jury.parquet", archive_tables.parse_jury, "judged_at", "2026-01-01T23:59:60Z"),
    ("adjudications.parquet", archive_tables.parse_adjudications, "run", -1),
    ("adjudications.parquet", archive_tables.parse_adjudications, "judged_at", "2026-01-01"),
    ("audit.parquet", archive_tables.parse_audit, "scored_at", "2026-01-01T00:00:00z"),
    ("audit.parquet", archive_tables.parse_audit, "run", 0),
    ("judge_views.parquet", archive_tables.parse_judge_views, "presented_as", "SISTEMA-a1"),
    ("judge_views.parquet", archive_tables.parse_judge_views, "presented_as", "SISTEMA-A1\n"),
    ("judge_views.parquet", archive_tables.parse_judge_views, "view_sha256", "A" * 64),
    ("judge_views.parquet", archive_tables.parse_judge_views, "view_sha256", "a" * 64 + "\n"),
    ("judge_views.parquet", archive_tables.parse_judge_views, "run", 0),
]


@pytest.mark.parametrize(("file", "parse", "column", "value"), TABLE_CASES)
@pytest.mark.parametrize("row", [0, 17, ROWS - 1])
def test_a_bad_value_in_row_k_is_row_k(
    monkeypatch: pytest.MonkeyPatch,
    file: str,
    parse: Any,
    column: str,
    value: object,
    row: int,
) -> None:
    table = pq.read_table(ROUND / file).slice(0, ROWS)
    good_rows, good = _problems(table, parse)
    assert good == []
    assert len(good_rows) == ROWS
    assert (good_rows, good) == _per_row(monkeypatch, table, parse)
    bad = _set(table, column, row, value)
    rows, found = _problems(bad, parse)
    assert (rows, found) == _per_row(monkeypatch, bad, parse)
    assert len(found) == 1
    assert found[0].startswith(f"row {row + 1} (")
    assert f", {column}: " in found[0]
    assert len(rows) == ROWS - 1


def _response_table(with_text: bool) -> pa.Table:
    path = sorted((ROUND / "responses").glob("*.parquet"))[0]
    table = pq.read_table(path).slice(0, ROWS)
    return table if with_text else table.drop_columns(["raw_text"])


def _check(table: pa.Table, found: Any) -> None:
    archive_responses.check_response_table(table, found)


def _with_status(table: pa.Table, row: int, status: str) -> pa.Table:
    return _set(table, "status", row, status)


RESPONSE_CASES: list[tuple[str, Callable[[pa.Table, int], pa.Table], bool]] = [
    ("status", lambda t, k: _set(t, "status", k, "oops"), False),
    ("called_at", lambda t, k: _set(t, "called_at", k, "2026-02-30T00:00:00Z"), False),
    ("called_at", lambda t, k: _set(t, "called_at", k, "2026-01-01T23:59:60Z"), False),
    ("cost_micro", lambda t, k: _set(t, "cost_micro", k, -1), False),
    ("prompt_sha256", lambda t, k: _set(t, "prompt_sha256", k, "F" * 64), False),
    ("response_language", lambda t, k: _set(t, "response_language", k, "PT-br"), False),
    ("scored_before_discard", lambda t, k: _set(t, "scored_before_discard", k, True), False),
    ("latency_ms", lambda t, k: _set(t, "latency_ms", k, None), False),
    ("raw_sha256", lambda t, k: _set(t, "raw_sha256", k, sha256_text("other")), True),
    ("raw_text", lambda t, k: _set(t, "raw_text", k, None), True),
    ("raw_text", lambda t, k: _set(_with_status(t, k, "timeout"), "latency_ms", k, None), True),
    (
        "raw_text",
        lambda t, k: _set(
            _with_status(t, k, "discarded_personal_data"), "scored_before_discard", k, True
        ),
        True,
    ),
]


@pytest.mark.parametrize(("column", "spoil", "text_only"), RESPONSE_CASES)
@pytest.mark.parametrize("with_text", [True, False])
@pytest.mark.parametrize("row", [0, 23, ROWS - 1])
def test_a_bad_response_value_in_row_k_is_row_k(
    monkeypatch: pytest.MonkeyPatch,
    column: str,
    spoil: Callable[[pa.Table, int], pa.Table],
    text_only: bool,
    with_text: bool,
    row: int,
) -> None:
    table = _response_table(with_text)
    assert archive_responses._clean(table, with_text=with_text)
    assert _problems(table, _check) == (None, [])
    bad = spoil(table, row) if with_text or column != "raw_text" else table
    if not with_text and column == "raw_text":
        return  # the text's rules need the text
    found = _problems(bad, _check)
    assert found == _per_row(monkeypatch, bad, _check)
    if text_only and not with_text:
        assert found == (None, [])  # without the text its hash is not checked
        return
    assert not archive_responses._clean(bad, with_text=with_text)
    assert found[1]
    assert all(line.startswith(f"row {row + 1} (") for line in found[1])
    assert any(f", {column}: " in line for line in found[1])
