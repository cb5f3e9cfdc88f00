"""items.parquet and responses/<model_id>.parquet: schemas, reading and checks.

Responses are checked and aligned with the item order column-wise with pyarrow
compute, because a round holds tens of thousands of outputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from reportgen.errors import Problem
from reportgen.model import GENDERS, LABELS, LANGUAGES, STYLES, Item, ResponseRow

ITEMS_FILE = "items.parquet"
RESPONSES_DIR = "responses"
# At most this many rows are listed for one kind of problem in one file; the rest are
# counted, so that a wholly wrong file gives a readable report.
MAX_LISTED = 10

ITEMS_SCHEMA = pa.schema(
    [  # type: ignore[arg-type]  # the stubs miss non-nullable fields
        pa.field("item_id", pa.string(), nullable=False),
        pa.field("stigma_id", pa.string()),
        pa.field("structure_id", pa.string(), nullable=False),
        pa.field("style", pa.string(), nullable=False),
        pa.field("target_gender", pa.string(), nullable=False),
        pa.field("language", pa.string(), nullable=False),
        pa.field("pair_item_id", pa.string()),
        pa.field("prompt", pa.string(), nullable=False),
        pa.field("canary", pa.string(), nullable=False),
        pa.field("published", pa.bool_(), nullable=False),
    ]
)
RESPONSES_SCHEMA = pa.schema(
    [  # type: ignore[arg-type]  # the stubs miss non-nullable fields
        pa.field("item_id", pa.string(), nullable=False),
        pa.field("model_id", pa.string(), nullable=False),
        pa.field("raw_text", pa.string(), nullable=False),
        pa.field("label", pa.string(), nullable=False),
        pa.field("latency_ms", pa.float64()),
    ]
)
# A raw round (before freeze) has no labels.
RAW_RESPONSES_SCHEMA = pa.schema([f for f in RESPONSES_SCHEMA if f.name != "label"])
OPTIONAL_COLUMNS = frozenset({"latency_ms"})


def response_path(model_id: str) -> str:
    return f"{RESPONSES_DIR}/{model_id}.parquet"


def _compatible(actual: pa.DataType, expected: pa.DataType) -> bool:
    if pa.types.is_string(expected):
        return bool(
            pa.types.is_string(actual)
            or pa.types.is_large_string(actual)
            or pa.types.is_string_view(actual)
        )
    if pa.types.is_floating(expected):
        return bool(pa.types.is_floating(actual) or pa.types.is_integer(actual))
    return bool(actual.equals(expected))


def _describe(data_type: pa.DataType) -> str:
    if pa.types.is_string(data_type):
        return "string"
    if pa.types.is_floating(data_type):
        return "float"
    return str(data_type)


def read_checked_table(
    path: Path,
    rel: str,
    schema: pa.Schema,
    problems: list[Problem],
    *,
    skip: Sequence[str] = (),
) -> pa.Table | None:
    """The table cast to `schema` (columns in `skip` are type-checked but not read).

    Reports a missing or unreadable file, missing, unexpected or mistyped columns, and
    nulls in non-nullable columns; returns None when the file cannot be used.
    """
    if not path.is_file():
        problems.append(Problem(rel, "", "missing file"))
        return None
    try:
        parquet = pq.ParquetFile(path)
        actual = parquet.schema_arrow
    except (pa.ArrowException, OSError) as error:
        problems.append(Problem(rel, "", f"unreadable Parquet file ({error})"))
        return None
    start = len(problems)
    for field in schema:
        if field.name not in actual.names:
            if field.name not in OPTIONAL_COLUMNS:
                problems.append(Problem(rel, f"column {field.name}", "missing column"))
        elif not _compatible(actual.field(field.name).type, field.type):
            problems.append(
                Problem(
                    rel,
                    f"column {field.name}",
                    f"expected type {_describe(field.type)}, got {actual.field(field.name).type}",
                )
            )
    for name in actual.names:
        if name not in schema.names:
            problems.append(
                Problem(rel, f"column {name}", f"unexpected column (expected: {schema.names})")
            )
    if len(problems) > start:
        return None
    wanted = [f.name for f in schema if f.name in actual.names and f.name not in skip]
    try:
        table = parquet.read(columns=wanted)
    except (pa.ArrowException, OSError) as error:
        problems.append(Problem(rel, "", f"unreadable Parquet file ({error})"))
        return None
    columns = [table.column(f.name).cast(f.type) for f in schema if f.name in wanted]
    table = pa.table(columns, schema=pa.schema([schema.field(name) for name in wanted]))
    for field in schema:
        if field.name in wanted and not field.nullable and table.column(field.name).null_count:
            rows = np.flatnonzero(table.column(field.name).is_null().to_numpy())
            listed = ", ".join(str(r + 1) for r in rows[:MAX_LISTED])
            problems.append(
                Problem(
                    rel,
                    f"column {field.name}",
                    f"null in {len(rows)} row(s) (rows {listed}): a value is required",
                )
            )
    return None if len(problems) > start else table


def report_rows(
    problems: list[Problem], rel: str, entries: Sequence[tuple[str, str]], what: str
) -> None:
    """Add (where, message) entries, listing at most MAX_LISTED of them."""
    for where, message in entries[:MAX_LISTED]:
        problems.append(Problem(rel, where, message))
    if len(entries) > MAX_LISTED:
        problems.append(
            Problem(rel, "", f"... and {len(entries) - MAX_LISTED} more {what} not listed")
        )


def read_items(
    round_dir: Path,
    problems: list[Problem],
    *,
    stigma_ids: frozenset[str] | None,
    structure_ids: frozenset[str] | None,
) -> tuple[Item, ...] | None:
    """items.parquet (None when it cannot be read at all).

    Unknown-id checks are skipped when stigma_ids or structure_ids is None (their
    table could not be read)."""
    table = read_checked_table(round_dir / ITEMS_FILE, ITEMS_FILE, ITEMS_SCHEMA, problems)
    if table is None:
        return None
    columns = {name: table.column(name).to_pylist() for name in ITEMS_SCHEMA.names}
    items = tuple(
        Item(*values) for values in zip(*(columns[n] for n in ITEMS_SCHEMA.names), strict=True)
    )
    issues: dict[str, list[tuple[str, str]]] = {}

    def bad(kind: str, number: int, item_id: str, message: str) -> None:
        issues.setdefault(kind, []).append((f"row {number} (item {item_id!r})", message))

    by_id: dict[str, tuple[int, Item]] = {}
    for number, item in enumerate(items, start=1):
        if not item.item_id:
            bad("item_id", number, item.item_id, "item_id must not be empty")
        elif item.item_id in by_id:
            first = by_id[item.item_id][0]
            bad("item_id", number, item.item_id, f"duplicate item_id (first in row {first})")
        else:
            by_id[item.item_id] = (number, item)
        for field, allowed in (
            ("style", STYLES),
            ("target_gender", GENDERS),
            ("language", LANGUAGES),
        ):
            value = getattr(item, field)
            if value not in allowed:
                bad(field, number, item.item_id, f"{field} must be one of {allowed}, got {value!r}")
        for field in ("prompt", "canary", "structure_id"):
            if not getattr(item, field).strip():
                # An empty prompt or canary would make the site's leak guard match everything.
                bad(field, number, item.item_id, f"{field} must not be empty")
        if item.style == "base" and item.stigma_id is not None:
            bad("stigma_id", number, item.item_id, "a base control must have a null stigma_id")
        elif item.style != "base" and item.stigma_id is None:
            bad("stigma_id", number, item.item_id, f"a {item.style!r} item needs a stigma_id")
        elif (
            stigma_ids is not None
            and item.stigma_id is not None
            and item.stigma_id not in stigma_ids
        ):
            bad("stigma_id", number, item.item_id, f"unknown stigma_id {item.stigma_id!r}")
        if structure_ids is not None and item.structure_id not in structure_ids:
            message = f"unknown structure_id {item.structure_id!r}"
            bad("structure_id", number, item.item_id, message)
    for number, item in enumerate(items, start=1):
        pair_problem = _pair_problem(item, by_id)
        if pair_problem:
            bad("pair_item_id", number, item.item_id, pair_problem)
    for kind, entries in issues.items():
        report_rows(problems, ITEMS_FILE, entries, f"rows with a bad {kind}")
    # Returned even when some rows are wrong, so that the responses and the ledger can
    # still be checked against the item ids; the problems make the archive invalid.
    return items


def _pair_problem(item: Item, by_id: Mapping[str, tuple[int, Item]]) -> str | None:
    if item.language != "en":
        return "a pt-BR item must have a null pair_item_id" if item.pair_item_id else None
    if item.pair_item_id is None:
        return "an en item needs the pair_item_id of the pt-BR item it realises"
    target = by_id.get(item.pair_item_id)
    if target is None:
        return f"pair_item_id {item.pair_item_id!r} is not an item of the archive"
    pair = target[1]
    if pair.language != "pt-BR":
        return f"pair_item_id {item.pair_item_id!r} must be a pt-BR item, it is {pair.language!r}"
    for field in ("stigma_id", "structure_id", "style"):
        if getattr(pair, field) != getattr(item, field):
            return (
                f"pair_item_id {item.pair_item_id!r} has {field} {getattr(pair, field)!r}, "
                f"expected the same as this item ({getattr(item, field)!r})"
            )
    return None


@dataclass(frozen=True)
class AlignedResponses:
    """One model's responses reordered to the item order."""

    raw_text: tuple[str, ...]  # () when read without text
    label_codes: npt.NDArray[np.int8] | None  # None for a raw (unlabelled) round
    latency_ms: tuple[float | None, ...]


def read_responses(
    path: Path,
    rel: str,
    model_id: str,
    item_ids: pa.StringArray,
    problems: list[Problem],
    *,
    labelled: bool = True,
    with_text: bool = True,
) -> AlignedResponses | None:
    """A response file (`rel` names it in problems), checked against the items and aligned
    with them: rows name `model_id`, every item exactly once, labels in LABELS."""
    schema = RESPONSES_SCHEMA if labelled else RAW_RESPONSES_SCHEMA
    skip = () if with_text else ("raw_text",)
    table = read_checked_table(path, rel, schema, problems, skip=skip)
    if table is None:
        return None
    start = len(problems)
    ids = table.column("item_id").combine_chunks()
    model_ids = table.column("model_id").combine_chunks()
    row_ids = ids.to_pylist()

    def where(row: int) -> str:
        return f"row {row + 1} (item {row_ids[row]!r})"

    other = np.flatnonzero(
        pc.not_equal(model_ids, pa.scalar(model_id)).to_numpy(zero_copy_only=False)
    )
    entries = [
        (where(r), f"model_id is {model_ids[r].as_py()!r}, expected {model_id!r}")
        for r in other.tolist()
    ]
    report_rows(problems, rel, entries, "rows naming another model")
    positions = pc.index_in(ids, value_set=item_ids)
    is_known = positions.is_valid().to_numpy(zero_copy_only=False)
    unknown = np.flatnonzero(~is_known)
    report_rows(
        problems, rel, [(where(r), "unknown item_id") for r in unknown.tolist()], "unknown items"
    )
    known_rows = np.flatnonzero(is_known)
    known = pc.drop_null(positions).to_numpy(zero_copy_only=False).astype(np.int64)
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
    report_rows(problems, rel, duplicates, "duplicate responses")
    missing = np.flatnonzero(counts == 0)
    entries = [
        (f"item {item_ids[p].as_py()!r}", "no response for this item") for p in missing.tolist()
    ]
    report_rows(problems, rel, entries, "items without a response")
    codes = None
    if labelled:
        labels = table.column("label").combine_chunks()
        label_positions = pc.index_in(labels, value_set=pa.array(LABELS))
        bad_rows = np.flatnonzero(label_positions.is_null().to_numpy(zero_copy_only=False))
        expected = " | ".join(LABELS)
        entries = [
            (where(r), f"label {labels[r].as_py()!r} is not one of {expected}")
            for r in bad_rows.tolist()
        ]
        report_rows(problems, rel, entries, "rows with an unknown label")
    if "latency_ms" in table.column_names:
        latency = table.column("latency_ms").to_numpy(zero_copy_only=False)
        negative = np.flatnonzero(latency < 0)
        report_rows(
            problems,
            rel,
            [(where(r), "latency_ms must not be negative") for r in negative.tolist()],
            "rows",
        )
    if len(problems) > start:
        return None
    # Every item exactly once: `order[i]` is the row holding item i.
    order = np.empty(len(item_ids), dtype=np.int64)
    order[known] = known_rows
    if not np.array_equal(order, np.arange(len(order))):
        table = table.take(order)
    if labelled:
        label_column = table.column("label").combine_chunks()
        codes = pc.index_in(label_column, value_set=pa.array(LABELS)).to_numpy().astype(np.int8)
        codes.flags.writeable = False
    raw_text: tuple[str, ...] = (
        tuple(cast(list[str], table.column("raw_text").to_pylist())) if with_text else ()
    )
    latency_ms: tuple[float | None, ...] = (
        tuple(table.column("latency_ms").to_pylist())
        if "latency_ms" in table.column_names
        else (None,) * len(order)
    )
    return AlignedResponses(raw_text=raw_text, label_codes=codes, latency_ms=latency_ms)


def items_table(items: Sequence[Item]) -> pa.Table:
    return pa.table(
        {name: [getattr(item, name) for item in items] for name in ITEMS_SCHEMA.names},
        schema=ITEMS_SCHEMA,
    )


def responses_table(rows: Sequence[ResponseRow]) -> pa.Table:
    return pa.table(
        {name: [getattr(row, name) for row in rows] for name in RESPONSES_SCHEMA.names},
        schema=RESPONSES_SCHEMA,
    )


def write_parquet(table: pa.Table, path: Path | pa.NativeFile) -> None:
    """Parquet with every byte fixed by the input: explicit schema, codec and level."""
    pq.write_table(
        table,
        path,
        compression="zstd",
        compression_level=9,
        use_dictionary=True,
        write_statistics=True,
        data_page_version="1.0",
        version="2.6",
    )
