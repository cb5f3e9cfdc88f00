"""A neutral table model rendered to HTML, Markdown or CSV.

Page builders describe a table once (already formatted for one language) and
choose the output. Every cell's text is data: it is escaped on the way out, so
a model called `<script>` shows as text and never becomes markup.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from fractions import Fraction

from markupsafe import Markup, escape

from reportgen.results.exact import Exact

# Characters Python-Markdown would interpret; written as numeric references they
# stay literal text in the rendered page.
_MARKDOWN_SPECIALS = frozenset("\\`*_{}[]()<>#+-.!|~&\"'$^:=")
# A table with more rows than this stays out of the search index and its snippets (Material's
# `data-search-exclude`): its cells are numbers and names that only drown the results, and
# indexing them is most of the search plugin's time.
SEARCH_INDEX_MAX_ROWS = 12
# Where a cell's text may break, for layout (site.css): a short bracketed part (an interval
# "[80,59; 86,05]", a footnote mark "[1]") is kept on one line with the punctuation that
# follows it, so a score wraps at most once, before its interval; a long unbroken token (a
# SHA-256, an identifier) may break anywhere, so that it does not push the table's other
# columns out of view.
_LAYOUT_PARTS = re.compile(r"(?P<together>\[[^\[\]\n]{1,32}\][^\s\[\]]*)|(?P<long>[^\s\[\]]{32,})")
_LAYOUT_CLASSES = {"together": "rg-together", "long": "rg-breakable"}


def escape_markdown(text: object) -> Markup:
    """Data text for a Markdown source: every active character as an entity."""
    return Markup("".join(f"&#{ord(ch)};" if ch in _MARKDOWN_SPECIALS else ch for ch in str(text)))


class _Shown(Enum):
    AS_SHOWN = "as shown"


# A cell whose value is its text (a name, an identifier, a label): its download writes it.
AS_SHOWN = _Shown.AS_SHOWN
# What a cell's download writes: a number in full precision, never its display text.
CellValue = Exact | Fraction | float | int | bool | str | None


@dataclass(frozen=True)
class Estimate:
    """A value with its interval, shown in one cell ("80,59 [78,10; 83,00]"): a table's
    CSV writes it as three columns (the value, the lower and the upper bound)."""

    value: CellValue
    lo: CellValue
    hi: CellValue


class ValueText(str):
    """A number's display text that carries the value it shows ("1,3%" and 0.0130434...):
    wherever it is used as text it is its text (a sentence made from it is plain text);
    as a table cell, the table's CSV writes its value (`Cell.value`)."""

    value: CellValue | Estimate

    def __new__(cls, text: str, value: CellValue | Estimate) -> ValueText:
        made = super().__new__(cls, text)
        made.value = value
        return made


@dataclass(frozen=True)
class Cell:
    """One table cell: its value and its display text (as HELM's `Cell`), an optional
    machine value for sorting. The page shows `text` (rounded, in the page's language); a
    table's CSV writes `value` in full precision (`csv_value`), or the text when the cell's
    value is its text (`AS_SHOWN`). A value of None is one that does not exist (shown as a
    dash, written as an empty field)."""

    text: str
    sort_value: float | str | None = None
    numeric: bool = False
    link: str | None = None  # relative URL built by the site, never from data
    title: str | None = None  # a tooltip (the exact fraction of a rounded number)
    value: CellValue | Estimate | _Shown = AS_SHOWN

    @classmethod
    def of(cls, text: str, *, numeric: bool = False) -> Cell:
        """The cell of `text`: with its value when it is a `ValueText`, else as shown."""
        if isinstance(text, ValueText):
            return cls(str(text), numeric=numeric, value=text.value)
        return cls(text, numeric=numeric)


def text_cells(label: Callable[[str], str], *keys: str) -> tuple[Cell, ...]:
    """Text cells (a header's, say): the `label` of each message key."""
    return tuple(Cell(label(key)) for key in keys)


def numeric_headers(label: Callable[[str], str], *keys: str) -> tuple[Cell, ...]:
    """The header cells of numeric columns: the `label` of each message key."""
    return tuple(Cell(label(key), numeric=True) for key in keys)


def csv_value(value: CellValue) -> str | None:
    """A cell's value as a download writes it: a number in full precision (the float
    nearest an exact value, as `repr`; an integer as its digits), a truth value as JSON
    writes it, text as it is, an empty field for a value that does not exist."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Exact):
        return repr(value.value)
    return repr(float(value))


def cell_download(cell: Cell, width: int = 1) -> tuple[str | None, ...]:
    """The `width` fields a table's CSV writes for `cell`: its value in full precision, or
    its text; an `Estimate` as its value and bounds (`width` 3), another value followed by
    empty fields."""
    fields: tuple[str | None, ...]
    if isinstance(cell.value, Estimate):
        fields = (csv_value(cell.value.value), csv_value(cell.value.lo), csv_value(cell.value.hi))
    elif cell.value is AS_SHOWN:
        fields = (cell.text,)
    else:
        fields = (csv_value(cell.value),)
    return fields + (None,) * (width - len(fields))


@dataclass(frozen=True)
class Table:
    """A captioned table of rows of cells with a header row."""

    table_id: str
    caption: str
    header: tuple[Cell, ...]
    rows: tuple[tuple[Cell, ...], ...]
    sortable: bool = False
    notes: tuple[str, ...] = field(default=())
    # The column that names each row: it stays in view while a narrow screen scrolls the
    # others (None: no such column).
    sticky_column: int | None = 0
    wrap_cells: bool = False  # cells may wrap (a matrix of short phrases), not only titles
    # A long table the theme's script pages and filters (site.js, `setUpPager`): the
    # labels of its controls in the page's language, as (name, text) pairs; the whole
    # table stays in the HTML for readers without JavaScript. Empty: no controls.
    pager: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        if self.sticky_column is not None and not 0 <= self.sticky_column < len(self.header):
            raise ValueError(
                f"table {self.table_id}: sticky column {self.sticky_column} is not one of its "
                f"{len(self.header)} columns"
            )
        for number, row in enumerate(self.rows, start=1):
            if len(row) != len(self.header):
                raise ValueError(
                    f"table {self.table_id}: row {number} has {len(row)} cells, "
                    f"expected {len(self.header)}"
                )


@functools.lru_cache(maxsize=1 << 16)
def cell_text_html(text: str) -> str:
    """`text` escaped, its bracketed parts and long tokens marked for layout (see above);
    kept per text: a site of a thousand models prints the same rates and counts in
    millions of cells."""
    pieces, start = [], 0
    for match in _LAYOUT_PARTS.finditer(text):
        css = _LAYOUT_CLASSES[match.lastgroup or "together"]
        before, part = escape(text[start : match.start()]), escape(match.group())
        pieces.append(f'{before}<span class="{css}">{part}</span>')
        start = match.end()
    return "".join(pieces) + str(escape(text[start:]))


# A cell's class attribute by (numeric, sticky).
_CLASS_ATTRIBUTE = {
    (False, False): "",
    (True, False): ' class="num"',
    (False, True): ' class="rg-sticky"',
    (True, True): ' class="num rg-sticky"',
}


@functools.lru_cache(maxsize=1 << 14)
def _sort_attribute(sort_text: str) -> str:
    """A cell's data-sort attribute, kept per text (not per value: 1 == 1.0 == True and
    0.0 == -0.0 are written differently)."""
    return f' data-sort="{escape(sort_text)}"'


def _cell_html(cell: Cell, tag: str, sticky: bool = False) -> str:
    attributes = _CLASS_ATTRIBUTE[cell.numeric, sticky]
    if cell.sort_value is not None:
        attributes += _sort_attribute(str(cell.sort_value))
    if cell.title:
        attributes += f' title="{escape(cell.title)}"'
    body = cell_text_html(cell.text)
    if cell.link is not None:
        body = f'<a href="{escape(cell.link)}">{body}</a>'
    return f"<{tag}{attributes}>{body}</{tag}>"


def _row_html(cells: tuple[Cell, ...], tag: str, sticky: int | None) -> str:
    return f"<tr>{''.join([_cell_html(c, tag, i == sticky) for i, c in enumerate(cells)])}</tr>"


def to_html(table: Table) -> Markup:
    """The table as one HTML block (Markdown passes it through untouched).

    The table scrolls sideways inside a region that takes keyboard focus and is named by
    the caption, so a reader without a pointer can scroll it too (WCAG 2.1.1).
    """
    classes = "rg-table" + " sortable" * table.sortable + " rg-wrap" * table.wrap_cells
    table_id = escape(table.table_id)
    unindexed = " data-search-exclude" if len(table.rows) > SEARCH_INDEX_MAX_ROWS else ""
    if table.pager:
        unindexed += " data-rg-pager" + "".join(
            f' data-rg-pager-{escape(name)}="{escape(text)}"' for name, text in table.pager
        )
    lines = [
        f'<div class="rg-table-wrap" role="region" tabindex="0" '
        f'aria-labelledby="{table_id}-caption"{unindexed}>'
        f'<table id="{table_id}" class="{classes}">',
        f'<caption id="{table_id}-caption">{escape(table.caption)}</caption>',
        f"<thead>{_row_html(table.header, 'th', table.sticky_column)}</thead>",
        "<tbody>",
    ]
    lines += [_row_html(row, "td", table.sticky_column) for row in table.rows]
    lines.append("</tbody></table>")
    lines += [f'<p class="rg-note">{escape(note)}</p>' for note in table.notes]
    lines.append("</div>")
    return Markup("\n".join(lines))


def to_markdown(table: Table) -> str:
    """The table as a pipe table, every cell escaped."""

    def row_text(cells: tuple[Cell, ...]) -> str:
        return "| " + " | ".join(str(escape_markdown(c.text)) for c in cells) + " |"

    alignment = "| " + " | ".join("---:" if c.numeric else "---" for c in table.header) + " |"
    return "\n".join([row_text(table.header), alignment, *(row_text(r) for r in table.rows)])


def to_csv(header: tuple[str, ...], rows: Sequence[tuple[object, ...]]) -> str:
    """Machine-readable CSV (raw values, dot decimals, LF line ends)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["" if value is None else value for value in row])
    return buffer.getvalue()
