"""screening.parquet: the personal-data screening of every item (Art. 37).

Art. 37: items hold no real personal data; characters are fictitious; where sensitive
data appear they are synthetic and declared so. The archive records, for each item (test
and calibration), who screened it, when, and the result: `no_personal_data`, or
`synthetic_personal_data` with the declaration in pt-BR and en that the pages print with
the item. A result saying the item holds real personal data has no value here: such an
item may not be in a bank. This module reads the rows (types, result, declarations,
date); rules/screening.py checks them against the items.
"""

from __future__ import annotations

from typing import Any

import pyarrow as pa

from reportgen.archive import FileProblems
from reportgen.kinds import ParquetTableSpec
from reportgen.kinds.multidomain import schemas
from reportgen.kinds.multidomain.archive_block import parse_day
from reportgen.kinds.multidomain.archive_columns import table_rows
from reportgen.kinds.multidomain.model import SCREENING_RESULTS, Screening

_RESULTS = " or ".join(SCREENING_RESULTS)


def _check(row: dict[str, Any]) -> list[tuple[str, str]]:
    problems = []
    if not row["screened_by"].strip():
        problems.append(("screened_by", "expected who screened the item (Art. 37), got ''"))
    if row["result"] not in SCREENING_RESULTS:
        problems.append(
            (
                "result",
                f"expected {_RESULTS} (Art. 37: items hold no real personal data), "
                f"got {row['result']!r}",
            )
        )
    synthetic = row["result"] == "synthetic_personal_data"
    for column in ("declaration_pt", "declaration_en"):
        value = row[column]
        if synthetic and not (value or "").strip():
            problems.append(
                (
                    column,
                    "an item with synthetic personal data carries the declaration that they "
                    "are synthetic (Art. 37): expected a non-empty text",
                )
            )
        elif not synthetic and value is not None:
            problems.append((column, f"expected null for result {row['result']!r}"))
    return problems


def parse_screening(table: pa.Table, found: FileProblems) -> tuple[Screening, ...]:
    def label(row: dict[str, Any]) -> str:
        return f"item {row['item_id']!r}"

    return table_rows(table, found, Screening, label, _check, {"screened_on": parse_day})


SCREENING_TABLE = ParquetTableSpec(
    schemas.SCREENING_FILE, schemas.SCREENING_SCHEMA, parse_screening, "item_id"
)
