"""items.parquet and responses/<model_id>.parquet: schemas, reading, checks, writing.

The core checks the common columns; the kind checks its own (`Kind.check_items`,
`Kind.check_responses`). Responses are checked and aligned with the item order
column-wise with pyarrow compute, because a round holds tens of thousands of outputs.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any, cast

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reportgen.archive._kind import ArchiveKind, TableRead
from reportgen.archive._layout import ITEMS_FILE
from reportgen.archive._problems import FileProblems, Problems
from reportgen.model import ItemRecord

ITEM_FIELDS: tuple[pa.Field[Any], ...] = (
    pa.field("item_id", pa.string(), nullable=False),
    pa.field("language", pa.string(), nullable=False),
    pa.field("prompt", pa.string(), nullable=False),
    pa.field("canary", pa.string()),
    pa.field("published", pa.bool_(), nullable=False),
)


# A kind's columns, as its schemas module declares them (null: the column may be null).
def string_field(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.string(), nullable=null)


def int_field(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.int64(), nullable=null)


def bool_field(name: str, *, null: bool = False) -> pa.Field[Any]:
    return pa.field(name, pa.bool_(), nullable=null)


def item_schema(kind: ArchiveKind) -> pa.Schema:
    return items_schema(kind.item_columns())


def items_schema(columns: Sequence[pa.Field[Any]]) -> pa.Schema:
    """items.parquet: the core's columns, then a kind's `columns`."""
    return pa.schema([*ITEM_FIELDS, *columns])


def responses_schema(columns: Sequence[pa.Field[Any]], *, raw_text_nullable: bool) -> pa.Schema:
    """responses/<model_id>.parquet (version 2): the core's columns, then a kind's `columns`."""
    return pa.schema([*response_fields(raw_text_nullable=raw_text_nullable), *columns])


def response_fields(*, raw_text_nullable: bool, version: int = 2) -> list[pa.Field[Any]]:
    """The common response columns (`run` from version 2 on), before the kind's."""
    return [
        pa.field("item_id", pa.string(), nullable=False),
        pa.field("model_id", pa.string(), nullable=False),
        *([pa.field("run", pa.int64(), nullable=False)] if version >= 2 else []),
        pa.field("raw_text", pa.string(), nullable=raw_text_nullable),
        pa.field("latency_ms", pa.float64()),
    ]


def response_schema(kind: ArchiveKind, *, version: int, raw: bool) -> pa.Schema:
    """The common columns (`run` from version 2 on) and the kind's."""
    common = response_fields(raw_text_nullable=kind.raw_text_nullable, version=version)
    return pa.schema([*common, *kind.response_columns(raw=raw)])


def _compatible(actual: pa.DataType, expected: pa.DataType) -> bool:
    if pa.types.is_string(expected):
        return bool(
            pa.types.is_string(actual)
            or pa.types.is_large_string(actual)
            or pa.types.is_string_view(actual)
        )
    if pa.types.is_floating(expected):
        return bool(pa.types.is_floating(actual) or pa.types.is_integer(actual))
    if pa.types.is_integer(expected):
        return bool(pa.types.is_integer(actual))
    return bool(actual.equals(expected))


def _describe(data_type: pa.DataType) -> str:
    if pa.types.is_string(data_type):
        return "string"
    if pa.types.is_floating(data_type):
        return "float"
    if pa.types.is_integer(data_type):
        return "integer"
    return str(data_type)


def read_checked_table(
    path: Path,
    found: FileProblems,
    schema: pa.Schema,
    *,
    optional: Collection[str] = ("latency_ms",),
    skip: Sequence[str] = (),
) -> pa.Table | None:
    """The table cast to `schema` (columns in `skip` are type-checked but not read).

    Reports a missing or unreadable file, missing, unexpected or mistyped columns, and
    nulls in non-nullable columns; returns None when the file cannot be used.
    """
    if not path.is_file():
        found.add("", "missing file")
        return None
    try:
        parquet = pq.ParquetFile(path)
        actual = parquet.schema_arrow
    except (pa.ArrowException, OSError) as error:
        found.add("", f"unreadable Parquet file ({error})")
        return None
    mark = found.problems.mark()
    for field in schema:
        if field.name not in actual.names:
            if field.name not in optional:
                found.add(f"column {field.name}", "missing column")
        elif not _compatible(actual.field(field.name).type, field.type):
            got = actual.field(field.name).type
            found.add(f"column {field.name}", f"expected type {_describe(field.type)}, got {got}")
    for name in actual.names:
        if name not in schema.names:
            found.add(f"column {name}", f"unexpected column (expected: {schema.names})")
    if not found.problems.ok_since(mark):
        return None
    wanted = [f.name for f in schema if f.name in actual.names and f.name not in skip]
    try:
        # One thread: a round's files are small (one per model) and read one after the
        # other; Arrow's thread pool cost a thousand-model round twice the reading time.
        table = parquet.read(columns=wanted, use_threads=False)
    except (pa.ArrowException, OSError) as error:
        found.add("", f"unreadable Parquet file ({error})")
        return None
    columns = [table.column(f.name).cast(f.type) for f in schema if f.name in wanted]
    table = pa.table(columns, schema=pa.schema([schema.field(name) for name in wanted]))
    for field in schema:
        if field.name in wanted and not field.nullable and table.column(field.name).null_count:
            rows = np.flatnonzero(table.column(field.name).is_null().to_numpy())
            listed = ", ".join(str(r + 1) for r in rows[:10])
            found.add(
                f"column {field.name}",
                f"null in {len(rows)} row(s) (rows {listed}): a value is required",
            )
    return table if found.problems.ok_since(mark) else None


def read_items(
    round_dir: Path,
    kind: ArchiveKind,
    problems: Problems,
    *,
    languages: Collection[str] | None,
    tables: Mapping[str, TableRead],
) -> tuple[ItemRecord, ...] | None:
    """items.parquet (None when it cannot be read at all): common checks, then the kind's.

    Items are returned even when some rows are wrong, so that the responses and the
    ledger can still be checked against the item ids; the problems make the archive
    invalid. `languages` is None when round.json could not be read.
    """
    found = problems.in_file(ITEMS_FILE)
    table = read_checked_table(round_dir / ITEMS_FILE, found, item_schema(kind))
    if table is None:
        return None
    issues: dict[str, list[tuple[str, str]]] = {}
    columns = {f.name: table.column(f.name).to_pylist() for f in ITEM_FIELDS}
    first_row: dict[str, int] = {}
    for number, values in enumerate(zip(*columns.values(), strict=True), start=1):
        item_id, language, prompt, canary, _ = values
        where = f"row {number} (item {item_id!r})"
        if not item_id:
            issues.setdefault("item_id", []).append((where, "item_id must not be empty"))
        elif item_id in first_row:
            message = f"duplicate item_id (first in row {first_row[item_id]})"
            issues.setdefault("item_id", []).append((where, message))
        else:
            first_row[item_id] = number
        if languages is not None and language not in languages:
            message = f"language must be one of the round's languages {tuple(languages)}"
            issues.setdefault("language", []).append((where, f"{message}, got {language!r}"))
        # An empty prompt or canary would make the site's leak guard match everything.
        if not prompt.strip():
            issues.setdefault("prompt", []).append((where, "prompt must not be empty"))
        if canary is not None and not canary.strip():
            issues.setdefault("canary", []).append((where, "canary must not be empty"))
    for what, entries in issues.items():
        found.rows(entries, f"rows with a bad {what}")
    return kind.check_items(table, tables, found)


def read_responses(  # one flat pass of column checks, then the alignment
    path: Path,
    found: FileProblems,
    model_id: str,
    item_ids: pa.StringArray,
    kind: ArchiveKind,
    *,
    version: int,
    raw: bool = False,
    with_text: bool = True,
) -> pa.Table | None:
    """A response file checked against the items: rows name `model_id`, no unknown item,
    (item_id, run) unique; for a single-run kind, run 1 and every item exactly once,
    and the table is returned in the item order."""
    schema = response_schema(kind, version=version, raw=raw)
    optional = ("latency_ms", "run") if raw else ("latency_ms",)
    skip = () if with_text else ("raw_text",)
    table = read_checked_table(path, found, schema, optional=optional, skip=skip)
    if table is None:
        return None
    mark = found.problems.mark()
    ids = table.column("item_id").combine_chunks()
    row_ids = ids.to_pylist()

    def where(row: int) -> str:
        return f"row {row + 1} (item {row_ids[row]!r})"

    model_ids = table.column("model_id").combine_chunks()
    other = np.flatnonzero(
        pc.not_equal(model_ids, pa.scalar(model_id)).to_numpy(zero_copy_only=False)
    )
    found.rows(
        [
            (where(r), f"model_id is {model_ids[r].as_py()!r}, expected {model_id!r}")
            for r in other.tolist()
        ],
        "rows naming another model",
    )
    runs = (
        table.column("run").to_numpy()
        if "run" in table.column_names
        else np.ones(len(row_ids), dtype=np.int64)
    )
    _check_runs(runs, where, found, single_run=kind.single_run)
    positions = pc.index_in(ids, value_set=item_ids)
    is_known = positions.is_valid().to_numpy(zero_copy_only=False)
    unknown = np.flatnonzero(~is_known).tolist()
    found.rows([(where(r), "unknown item_id") for r in unknown], "unknown items")
    if "latency_ms" in table.column_names:
        negative = np.flatnonzero(table.column("latency_ms").to_numpy(zero_copy_only=False) < 0)
        found.rows(
            [(where(r), "latency_ms must not be negative") for r in negative.tolist()], "rows"
        )
    kind.check_responses(table, where, found)
    if not kind.single_run:
        _check_unique_runs(cast(list[str], row_ids), runs, where, found)
        return table if found.problems.ok_since(mark) else None
    known_rows = np.flatnonzero(is_known)
    known = pc.drop_null(positions).to_numpy(zero_copy_only=False).astype(np.int64)
    _check_coverage(known_rows, known, item_ids, where, found)
    if not found.problems.ok_since(mark):
        return None
    # Every item exactly once: `order[i]` is the row holding item i.
    order = np.empty(len(item_ids), dtype=np.int64)
    order[known] = known_rows
    return table if np.array_equal(order, np.arange(len(order))) else table.take(order)


def _check_runs(
    runs: npt.NDArray[np.int64],
    where: Callable[[int], str],
    found: FileProblems,
    *,
    single_run: bool,
) -> None:
    if single_run:
        bad = np.flatnonzero(runs != 1)
        entries = [(where(r), f"run is {runs[r]}, expected 1 (a single run)") for r in bad.tolist()]
    else:
        bad = np.flatnonzero(runs < 1)
        entries = [(where(r), f"run is {runs[r]}, expected an integer >= 1") for r in bad.tolist()]
    found.rows(entries, "rows with a bad run")


def _check_unique_runs(
    row_ids: list[str],
    runs: npt.NDArray[np.int64],
    where: Callable[[int], str],
    found: FileProblems,
) -> None:
    first: dict[tuple[str, int], int] = {}
    entries: list[tuple[str, str]] = []
    for row, key in enumerate(zip(row_ids, runs.tolist(), strict=True)):
        if key in first:
            entries.append(
                (where(row), f"duplicate (item_id, run) (first in row {first[key] + 1})")
            )
        else:
            first[key] = row
    found.rows(entries, "duplicate responses")


def _check_coverage(
    known_rows: npt.NDArray[np.int64],
    known: npt.NDArray[np.int64],
    item_ids: pa.StringArray,
    where: Callable[[int], str],
    found: FileProblems,
) -> None:
    counts = np.bincount(known, minlength=len(item_ids))
    first_row: dict[int, int] = {}
    duplicates: list[tuple[str, str]] = []
    for row, position in zip(known_rows.tolist(), known.tolist(), strict=True):
        if counts[position] > 1:
            if position in first_row:
                message = f"duplicate response (first in row {first_row[position] + 1})"
                duplicates.append((where(row), message))
            else:
                first_row[position] = row
    found.rows(duplicates, "duplicate responses")
    missing = np.flatnonzero(counts == 0)
    entries = [
        (f"item {item_ids[p].as_py()!r}", "no response for this item") for p in missing.tolist()
    ]
    found.rows(entries, "items without a response")


def records_table(records: Sequence[object], schema: pa.Schema) -> pa.Table:
    """A table of `schema` from objects holding an attribute per column."""
    return pa.table(
        {name: [getattr(record, name) for record in records] for name in schema.names},
        schema=schema,
    )


def table_bytes(
    rows: Iterable[object], schema: pa.Schema, cell: Callable[[object], object] | None = None
) -> bytes:
    """Parquet bytes of `rows` (objects with an attribute per column) under `schema`,
    each value through `cell` when given (`dates_as_text`); an empty table keeps its
    schema. The one table writer of the kinds' archives."""
    records = list(rows)
    if cell is None:
        return parquet_bytes(records_table(records, schema))
    columns = {name: [cell(getattr(record, name)) for record in records] for name in schema.names}
    return parquet_bytes(pa.table(columns, schema=schema))


def table_writer(
    cell: Callable[[object], object],
) -> Callable[[Iterable[object], pa.Schema], bytes]:
    """`table_bytes` with a kind's cell converter: the kind's one Parquet table writer."""
    return lambda rows, schema: table_bytes(rows, schema, cell)


def table_lines(
    rows: Iterable[object], schema: pa.Schema, cell: Callable[[object], object]
) -> bytes:
    """The raw round's (JSON Lines) form of `table_bytes`: one JSON object a line, the
    schema's columns in order, each value through `cell`."""
    lines = [
        json.dumps({name: cell(getattr(row, name)) for name in schema.names}, ensure_ascii=False)
        for row in rows
    ]
    return "".join(f"{line}\n" for line in lines).encode("utf-8")


def dates_as_text(timestamp: Callable[[datetime], str]) -> Callable[[object], object]:
    """A cell converter for `table_bytes`: a datetime as `timestamp` writes it (a kind's
    own format), a date in ISO 8601, any other value as it is."""

    def cell(value: object) -> object:
        if isinstance(value, datetime):  # before date: a datetime is a date too
            return timestamp(value)
        if isinstance(value, date):
            return value.isoformat()
        return value

    return cell


def parquet_bytes(table: pa.Table) -> bytes:
    """Parquet with every byte fixed by the input: explicit schema, codec and level."""
    sink = pa.BufferOutputStream()
    pq.write_table(
        table,
        sink,
        compression="zstd",
        compression_level=9,
        use_dictionary=True,
        write_statistics=True,
        data_page_version="1.0",
        version="2.6",
    )
    return bytes(sink.getvalue().to_pybytes())
