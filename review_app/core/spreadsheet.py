"""CSV cells a spreadsheet opens as text: the one rule against formula injection.

A cell whose text begins with `=`, `+`, `-` or `@` (also after leading spaces or line
breaks, which spreadsheets skip), or with a tab or carriage return, may be run as a
formula when the file is opened in Excel, LibreOffice or Google Sheets (OWASP, "CSV
Injection"). Every CSV the review app or the review CLI writes passes its text cells
through `spreadsheet_cell`, which prefixes such a cell with a single quote so that it
reads as text; the quote is visible in the file. Numbers and absent values are left as
they are, and JSON Lines exports stay raw: a program reads them, not a spreadsheet.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from typing import Final

FORMULA_STARTS: Final = ("=", "+", "-", "@")
CONTROL_STARTS: Final = ("\t", "\r")


def spreadsheet_cell(value: object) -> object:
    """`value` as a CSV cell: text a spreadsheet would evaluate gets a leading `'`."""
    if not isinstance(value, str):
        return value
    if value.startswith(CONTROL_STARTS) or value.lstrip().startswith(FORMULA_STARTS):
        return "'" + value
    return value


def csv_text(
    header: Sequence[str], rows: Iterable[Sequence[object]], *, line_end: str = "\n"
) -> str:
    """`header` and `rows` as CSV, every text cell made safe. Free text (which may hold a
    carriage return) needs `line_end="\r\n"`: the csv module quotes a cell holding a
    character of the line end only, and an unquoted CR would split the row."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator=line_end)
    writer.writerow(header)
    writer.writerows([spreadsheet_cell(cell) for cell in row] for row in rows)
    return buffer.getvalue()
