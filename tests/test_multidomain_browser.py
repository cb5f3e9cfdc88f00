"""The multidomain report in a real browser (Debian's Chromium through Playwright): the
ranking, domain and head-to-head tables as a reader sees them, and the items' embargo."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import CHROMIUM, Served, open_page, serve_directory
from tests.support.multidomain_site import build_tiny_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")

ROUND = "tiny-2026-11"
BEFORE = date(2027, 2, 27)  # the day before ended_on + 90 days
AFTER = date(2027, 2, 28)  # ended_on + 90 days: the items are public


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        "before": build_tiny_site(tmp_path_factory.mktemp("before"), BEFORE)[0],
        "after": build_tiny_site(tmp_path_factory.mktemp("after"), AFTER)[0],
    }


def served(site: Path) -> Iterator[Served]:
    return serve_directory(site)


def rows(page: Any, table_id: str) -> list[list[str]]:
    cells = page.locator(f"#{table_id} tbody tr").evaluate_all(
        "rows => rows.map(r => Array.from(r.cells).map(c => c.innerText.trim()))"
    )
    return [list(row) for row in cells]


def test_ranking_and_domain_tables(sites: dict[str, Path], browser: Any) -> None:
    for server in served(sites["before"]):
        page = open_page(browser, server, f"en/{ROUND}/classification.html")
        ranking = rows(page, f"md-{ROUND}-ranking")
        assert [row[:4] for row in ranking] == [
            ["1", "P3", "90.28 [90.28, 90.28]", "7"],
            ["2", "P1", "82.94 [82.94, 82.94]", "7"],
            ["3", "P2", "63.29 [63.29, 63.29]", "7"],
        ]
        assert page.get_by_text("This result is not a certification").first.is_visible()
        assert page.get_by_text("Provisional results until March 20, 2027").is_visible()
        page = open_page(browser, server, f"{ROUND}/domains-languages.html")
        domains = rows(page, f"md-{ROUND}-domains")
        assert [row[0] for row in domains] == ["P3", "P1", "P2"]
        assert domains[1][1:] == ["94,44 [94,44; 94,44]", "4", "71,43 [71,43; 71,43]", "3"]
        assert server.blocked == []


def test_head_to_head_matrix(sites: dict[str, Path], browser: Any) -> None:
    for server in served(sites["before"]):
        page = open_page(browser, server, f"en/{ROUND}/head-to-head.html")
        matrix = rows(page, f"md-{ROUND}-matrix")  # rank order: P3, P1, P2
        assert matrix[1] == ["P1", "1/2/4", "–", "3/1/3"]
        assert matrix[2] == ["P2", "1/3/3", "1/3/3", "–"]
        assert page.get_by_text("does not change the ranking").is_visible()


def test_items_embargo(sites: dict[str, Path], browser: Any) -> None:
    for server in served(sites["before"]):
        page = open_page(browser, server, f"en/{ROUND}/index.html")
        assert page.locator('a[href="items.html"]').count() == 0
        response = page.goto(server.base + f"en/{ROUND}/items.html")
        assert response is not None
        assert response.status == 404
    for server in served(sites["after"]):
        page = open_page(browser, server, f"en/{ROUND}/index.html")
        assert page.locator("article a[href='items.html']").count() == 1
        # The items' index links one page per domain: i7 (zh) is in d2, i3 in d1.
        page = open_page(browser, server, f"en/{ROUND}/items.html")
        page.locator("article a[href='items-d2.html']").click()
        page.wait_for_url(f"**/en/{ROUND}/items-d2.html")
        chinese = page.locator('article div[lang="zh"]').first
        assert chinese.is_visible()
        page = open_page(browser, server, f"en/{ROUND}/items-d1.html")
        assert page.locator(f"#md-{ROUND}-item-i3-points").is_visible()
