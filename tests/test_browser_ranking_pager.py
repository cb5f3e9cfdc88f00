"""A long ranking pages and filters in the browser (site.js, `setUpPager`), on a built site
of a continuous round of more ranked models than a page holds (the run's shared scale site,
tests/support/shared_builds.py: 56 ranked, a page of 50 and a second of 6): a reader filters
by the name of a model the first page hides and pages forward, with the keyboard, in both
languages and at a phone's width; axe finds no serious or critical violation on that page;
and without JavaScript the whole table is in the HTML.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.axe import blocking
from tests.support.browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    Served,
    open_page,
    serve_directory,
)
from tests.support.shared_builds import scale_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")

PAGE = 50  # rows a page shows (reportgen.kinds.estigmas.render.tables.PAGED_ROWS)
TABLE = "#ranking-idje-avalia-2026-07"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return scale_site(tmp_path_factory)


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[Served]:
    yield from serve_directory(site)


def ranked_rows(html: str) -> int:
    table = html.split('id="ranking-idje-avalia-2026-07"', 1)[1].split("</table>", 1)[0]
    return len(re.findall(r"<tr>", table.split("<tbody>", 1)[1]))


def test_without_javascript_the_whole_ranking_is_in_the_page(site: Path) -> None:
    html = (site / "ranking.html").read_text(encoding="utf-8")
    assert ranked_rows(html) > PAGE  # more than a page: the controls are there
    assert "data-rg-pager" in html
    assert 'data-rg-pager-filter="Filtrar por modelo ou fornecedor"' in html
    english = (site / "en" / "ranking.html").read_text(encoding="utf-8")
    assert 'data-rg-pager-filter="Filter by model or provider"' in english


def visible_ranks(page: Any) -> list[str]:
    cells = page.locator(f"{TABLE} tbody tr:not([hidden]) td:first-child")
    return [text.strip() for text in cells.all_inner_texts()]


def all_ranks(page: Any) -> list[str]:
    """Every row's rank, shown or not, in the table's order (tied models share a rank)."""
    cells = page.locator(f"{TABLE} tbody tr td:first-child")
    return [text.strip() for text in cells.all_text_contents()]


@pytest.mark.parametrize(
    ("prefix", "status", "viewport"),
    [
        ("", "Linhas {first} a {last} de {count}", DESKTOP),
        ("en/", "Rows {first} to {last} of {count}", DESKTOP),
        ("", "Linhas {first} a {last} de {count}", PHONE),
    ],
    ids=["pt-BR", "en", "pt-BR-390px"],
)
def test_a_reader_pages_forward_and_filters_by_a_model_name(
    site: Path, served: Served, browser: Any, prefix: str, status: str, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    total = ranked_rows((site / prefix / "ranking.html").read_text(encoding="utf-8"))
    assert PAGE < total < 2 * PAGE  # a first page, and a second that the last row ends
    page = open_page(browser, served, f"{prefix}ranking.html", viewport)
    try:
        state = page.locator(".rg-pager-status").first
        expect(state).to_have_text(status.format(first=1, last=PAGE, count=total))
        ranks = all_ranks(page)
        assert len(ranks) == total
        assert visible_ranks(page) == ranks[:PAGE]
        # Forward with the keyboard: the "next" button takes focus and Enter presses it.
        page.locator(".rg-pager-nav button").nth(1).focus()
        page.keyboard.press("Enter")
        expect(state).to_have_text(status.format(first=PAGE + 1, last=total, count=total))
        assert visible_ranks(page) == ranks[PAGE:]
        # The filter, found by its label, typed into: only that model's row is left (a row
        # of the second page, which the first page hid).
        row = page.locator(f"{TABLE} tbody tr").nth(total - 2)
        name = row.locator(".rg-sticky").inner_text().strip()  # the model's (pinned) cell
        rank = row.locator("td").first.inner_text().strip()
        field = page.get_by_label(re.compile("Filtrar por modelo|Filter by model")).first
        field.focus()
        page.keyboard.type(name)
        expect(state).to_have_text(status.format(first=1, last=1, count=1))
        assert visible_ranks(page) == [rank]
        field.fill("")
        expect(state).to_have_text(status.format(first=1, last=PAGE, count=total))
        # Nothing is wider than the screen: the controls wrap, the table scrolls in its box.
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= viewport["width"]
    finally:
        page.close()


def test_show_all_rows_and_no_serious_accessibility_violation(served: Served, browser: Any) -> None:
    from playwright.sync_api import expect

    for viewport in (DESKTOP, PHONE):
        page = open_page(browser, served, "ranking.html", viewport)
        try:
            everything = page.locator(".rg-pager-nav button").nth(2)
            expect(everything).to_have_text("Mostrar todas as linhas")
            everything.click()
            expect(page.locator(f"{TABLE} tbody tr[hidden]")).to_have_count(0)
            expect(everything).to_have_attribute("aria-pressed", "true")
            expect(everything).to_have_text("Mostrar em páginas")
            assert blocking(page) == []
        finally:
            page.close()
