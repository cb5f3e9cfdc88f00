"""Long tables on the administrator's pages: one page of rows at a time, every row as CSV.

A table whose rows grow with the round (an audit holds thousands of responses) is not
sent whole to the browser: `paged_table` shows `PAGE_SIZE` rows, in the order given (the
caller puts the rows that decide first), a page control when there is more than one
page (a labelled number field: typed, or stepped with the arrow keys), a caption saying
which rows of how many are shown, and a download button with every row as CSV.

The callers give each cell as it is (names, codes, notes as typed; numbers already
written for the reader); the table's cells are escaped here for Markdown, which
`st.table` renders, and the CSV keeps them as typed, with the review app's one rule
against formula injection (review_app.core.spreadsheet).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import streamlit as st

from reportgen.i18n import exact_text
from review_app.core.spreadsheet import csv_text
from review_app.pages.common import language, t
from review_app.pages.text import escape_markdown

PAGE_SIZE: Final = 50

Row = Mapping[str, object]


def table_csv(rows: Sequence[Row]) -> bytes:
    """Every row as CSV in UTF-8: the first row's columns, in their order, as the header;
    CRLF line ends (RFC 4180; a cell may hold a line break); the same rows give the same
    bytes."""
    header = list(rows[0]) if rows else []
    cells = ([row[column] for column in header] for row in rows)
    return csv_text(header, cells, line_end="\r\n").encode("utf-8")


def page_count(total: int, page_size: int = PAGE_SIZE) -> int:
    """How many pages `total` rows fill (one, however few)."""
    return max(1, -(-total // page_size))


def _shown_cell(value: object) -> object:
    return escape_markdown(value) if isinstance(value, str) else value


def _page(key: str, pages: int) -> int:
    """The page asked for: the control's value, kept within the pages the rows fill now
    (a table may have shrunk since the page was chosen); no control for one page."""
    if pages == 1:
        return 1
    chosen = st.session_state.get(key)
    if isinstance(chosen, int) and not 1 <= chosen <= pages:
        st.session_state[key] = min(max(chosen, 1), pages)
    number = exact_text(pages, 0, language())
    page = st.number_input(
        t("table_page", pages=number), min_value=1, max_value=pages, value=1, step=1, key=key
    )
    return int(page)


def paged_table(
    rows: Sequence[Row], *, key: str, file_name: str, page_size: int = PAGE_SIZE
) -> None:
    """Show `rows` one page at a time (see the module's docstring). `key` names this table's
    widgets (`<key>_page`, `<key>_csv`) and must be unique on the page; `file_name` is the
    CSV's name."""
    total = len(rows)
    if not total:
        st.caption(t("table_no_rows"))
        return
    page = _page(f"{key}_page", page_count(total, page_size))
    start = (page - 1) * page_size
    shown = rows[start : start + page_size]
    st.table([{column: _shown_cell(value) for column, value in row.items()} for row in shown])
    reader = language()
    st.caption(
        t(
            "table_rows_shown",
            count=total,
            first=exact_text(start + 1, 0, reader),
            last=exact_text(start + len(shown), 0, reader),
            total=exact_text(total, 0, reader),
        )
    )
    st.download_button(
        t("table_download"),
        data=table_csv(rows),
        file_name=file_name,
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
        icon=":material/download:",
    )
