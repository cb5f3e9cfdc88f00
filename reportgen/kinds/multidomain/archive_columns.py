"""A Parquet table's rows as typed objects, checked column by column first.

`table_rows` checks whole columns with pyarrow compute (`Clean`) and converts each
distinct value of a date or timestamp column once; only a table that fails a column
check is read row by row, so that each problem names its row with the same message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import fields, is_dataclass
from itertools import starmap
from typing import Any, TypeVar

import pyarrow as pa
import pyarrow.compute as _compute

from reportgen.archive import FileProblems

# Masks and columns are read through Any: the stubs' overloads miss ChunkedArray masks.
pc: Any = _compute

T = TypeVar("T")


Check = Callable[[dict[str, Any]], list[tuple[str, str]]]  # row -> (column, message)
Clean = Callable[[pa.Table], bool]  # True: `check` finds nothing in any row of the table


def table_rows(
    table: pa.Table,
    found: FileProblems,
    make: Callable[..., T],
    label: Callable[[dict[str, Any]], str],
    check: Check,
    convert: Mapping[str, Callable[[Any], Any]],
    clean: Clean | None = None,
) -> tuple[T, ...]:
    """The valid rows of `table` built with `make`; `check` names each row's problems,
    `convert` turns a column's text (a date, a timestamp) into its value, None = bad.

    `clean`, when given, checks whole columns at once (pyarrow compute): when it holds and
    every value converts, the rows are built positionally without the per-row `check`;
    otherwise each row is checked as before, so each problem names its row."""
    names = table.column_names
    columns = [table.column(name).to_pylist() for name in names]
    for column, convert_value in convert.items():
        index = names.index(column)
        columns[index] = convert_column(columns[index], convert_value)
    in_order = is_dataclass(make) and [f.name for f in fields(make)] == names
    converted = all(None not in columns[names.index(column)] for column in convert)
    if clean is not None and in_order and converted and clean(table):
        return tuple(starmap(make, zip(*columns, strict=True)))
    originals = {column: table.column(column).to_pylist() for column in convert}
    parsed: list[T] = []
    entries: list[tuple[str, str]] = []
    for number, values in enumerate(zip(*columns, strict=True), start=1):
        row = dict(zip(names, values, strict=True))
        original = {column: texts[number - 1] for column, texts in originals.items()}
        problems = check({**row, **original})
        for column in convert:
            if row[column] is None:
                got = original[column]
                problems.append((column, f"expected {FORMATS[column]}, got {got!r}"))
        for column, message in problems:
            entries.append((f"row {number} ({label(row)}), {column}", message))
        if not problems:
            parsed.append(make(**row))
    found.rows(entries, "rows with a problem")
    return tuple(parsed)


FORMATS = {
    "judged_at": "a UTC timestamp YYYY-MM-DDTHH:MM:SSZ",
    "scored_at": "a UTC timestamp YYYY-MM-DDTHH:MM:SSZ",
    "scored_on": "an ISO date YYYY-MM-DD",
    "screened_on": "an ISO date YYYY-MM-DD",
}


def convert_column(values: list[Any], convert_value: Callable[[Any], Any]) -> list[Any]:
    """`convert_value` of each value, computed once per distinct value (a round's
    timestamps and dates repeat: 69,867 jury rows carry 4,731 distinct `judged_at`)."""
    converted = {value: convert_value(value) for value in set(values)}
    return [converted[value] for value in values]


def column_at_least(table: pa.Table, column: str, low: int) -> bool:
    """True when every value of `column` is non-null and >= `low`."""
    values = table.column(column)
    return values.null_count == 0 and (len(values) == 0 or bool(pc.min(values).as_py() >= low))


def column_matches(table: pa.Table, column: str, pattern: str) -> bool:
    """True when every value of `column` is non-null and matches `pattern` whole (an
    ASCII-only pattern, read alike by RE2 and `re`)."""
    values = table.column(column)
    matched = pc.match_substring_regex(values, f"^(?:{pattern})$")
    return values.null_count == 0 and bool(pc.all(matched).as_py())


def all_true(mask: Any) -> bool:
    """True when every value of a boolean mask is true (a null counts as false)."""
    return bool(pc.all(pc.fill_null(mask, False)).as_py())
