"""The review app's long tables (review_app/pages/tables.py `paged_table`), in AppTest and
in both languages: the first page holds the first rows given (the callers put the rows
that decide first), the page control moves to the next rows and shows only when there is
more than one page, the caption says which rows of how many (numbers written for the
reader), and the download holds every row as CSV, in order, the same bytes each time."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable

import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import DownloadButton

from review_app.i18n import translate
from review_app.pages.tables import PAGE_SIZE, page_count, table_csv

LANGUAGES = ["pt-BR", "en"]


def _app() -> None:
    """Rows numbered from 1; a name a spreadsheet would run, and one Markdown would format."""
    import streamlit as st

    from review_app.pages.tables import paged_table

    total = st.session_state["rows"]
    rows = [
        {"Item": f"i{n}", "Nota": "=1+1" if n == 2 else "*forte*", "N": n}
        for n in range(1, total + 1)
    ]
    paged_table(rows, key="demo", file_name="demo.csv")


def _rows(total: int) -> list[dict[str, object]]:
    return [
        {"Item": f"i{n}", "Nota": "=1+1" if n == 2 else "*forte*", "N": n}
        for n in range(1, total + 1)
    ]


def _run(total: int, language: str) -> AppTest:
    at = AppTest.from_function(_app, default_timeout=60)
    at.session_state["rows"] = total
    at.session_state["language"] = language
    at.run()
    assert not at.exception, at.exception
    return at


def _items(at: AppTest) -> list[str]:
    (table,) = at.table
    return [str(item) for item in table.value["Item"]]


@pytest.fixture
def downloads(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    """The bytes of each file the app hands to Streamlit's media storage (AppTest's)."""
    seen: list[bytes] = []
    original: Callable[..., str] = MemoryMediaFileStorage.load_and_get_id

    def recording(
        self: MemoryMediaFileStorage, data: str | bytes, *args: object, **kw: object
    ) -> str:
        assert isinstance(data, bytes)
        seen.append(data)
        return original(self, data, *args, **kw)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", recording)
    return seen


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_first_page_shows_the_first_rows_and_says_which(language: str) -> None:
    at = _run(120, language)
    assert _items(at) == [f"i{n}" for n in range(1, PAGE_SIZE + 1)]
    (control,) = at.number_input
    assert control.key == "demo_page"
    assert control.value == 1
    assert control.label == translate(language, "table_page", pages="3")
    (caption,) = at.caption
    assert caption.value == translate(
        language, "table_rows_shown", count=120, first="1", last="50", total="120"
    )
    (button,) = at.get("download_button")
    assert isinstance(button, DownloadButton)
    assert button.label == translate(language, "table_download")


@pytest.mark.parametrize("language", LANGUAGES)
def test_page_two_shows_the_next_rows_and_the_last_page_the_rest(language: str) -> None:
    at = _run(120, language)
    at.number_input(key="demo_page").set_value(2).run()
    assert not at.exception, at.exception
    assert _items(at) == [f"i{n}" for n in range(51, 101)]
    at.number_input(key="demo_page").increment().run()
    assert _items(at) == [f"i{n}" for n in range(101, 121)]
    assert at.caption[0].value == translate(
        language, "table_rows_shown", count=120, first="101", last="120", total="120"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_one_page_has_no_page_control(language: str) -> None:
    at = _run(PAGE_SIZE, language)
    assert not at.number_input
    assert len(_items(at)) == PAGE_SIZE
    single = _run(1, language)
    assert not single.number_input
    assert single.caption[0].value == translate(language, "table_rows_shown", count=1)


def test_no_rows_say_so_and_offer_nothing_to_download() -> None:
    at = _run(0, "pt-BR")
    assert not at.table
    assert not at.get("download_button")
    assert at.caption[0].value == translate("pt-BR", "table_no_rows")


@pytest.mark.parametrize(
    ("language", "first", "total"), [("pt-BR", "2.751", "2.780"), ("en", "2,751", "2,780")]
)
def test_counts_are_written_for_the_reader(language: str, first: str, total: str) -> None:
    at = _run(2780, language)
    assert at.number_input[0].label == translate(language, "table_page", pages="56")
    at.number_input(key="demo_page").set_value(56).run()
    assert at.caption[0].value == translate(
        language, "table_rows_shown", count=2780, first=first, last=total, total=total
    )


def test_a_page_beyond_the_rows_shows_the_last_page() -> None:
    at = _run(120, "en")
    at.number_input(key="demo_page").set_value(3).run()
    at.session_state["rows"] = 60  # the table shrank: two pages now
    at.run()
    assert not at.exception, at.exception
    assert _items(at) == [f"i{n}" for n in range(51, 61)]


def test_markdown_in_a_cell_shows_as_typed_and_the_csv_keeps_the_text() -> None:
    at = _run(3, "en")
    (table,) = at.table
    assert table.value["Nota"].iloc[0] == "\\*forte\\*"
    text = table_csv(_rows(3)).decode("utf-8")
    assert "*forte*" in text
    assert "'=1+1" in text  # review_app.core.spreadsheet: no formula runs


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_csv_holds_every_row_in_order_the_same_bytes_each_time(
    language: str, downloads: list[bytes]
) -> None:
    at = _run(120, language)
    at.number_input(key="demo_page").set_value(2).run()
    first, second = downloads
    assert first == second == table_csv(_rows(120))
    rows = list(csv.reader(io.StringIO(first.decode("utf-8"), newline="")))
    assert rows[0] == ["Item", "Nota", "N"]
    assert [row[0] for row in rows[1:]] == [f"i{n}" for n in range(1, 121)]
    assert rows[2] == ["i2", "'=1+1", "2"]
    assert first.count(b"\r\n") == 121
    assert not first.startswith(b"\xef\xbb\xbf")


def test_page_count() -> None:
    assert [page_count(n) for n in (0, 1, 50, 51, 100, 2780)] == [1, 1, 1, 2, 2, 56]
