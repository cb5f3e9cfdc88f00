"""Accessibility and layout of the other kinds' pages, as a reader meets them: the
REG-BC-2026-001 report (every section, items included after the embargo) and the
counterfactual audits, in both languages at a desktop width (the 390 px phone width is
tests/test_browser_axe_kinds_phone.py's). axe-core (vendored, never fetched) finds no
serious or critical violation, and no page is wider than the window (tables scroll
inside their own region)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.axe import blocking
from tests.support.browser import CHROMIUM, DESKTOP, Served, launched_chromium, open_page
from tests.support.kind_pages import pages_of, problems_on_pages, served_kind_sites

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    with served_kind_sites(tmp_path_factory) as served:
        yield served


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as chromium:
        yield chromium


@pytest.mark.parametrize("kind", ["multidomain", "counterfactual"])
@pytest.mark.parametrize("prefix", ["", "en/"], ids=["1280px-pt", "1280px-en"])
def test_no_serious_violation_and_no_page_wider_than_the_window(
    browser: Any, sites: dict[str, Served], kind: str, prefix: str
) -> None:
    served = sites[kind]
    found = problems_on_pages(browser, served, pages_of(kind, prefix), DESKTOP)
    assert served.blocked == []
    assert found == {}


def test_the_items_page_after_the_embargo(browser: Any, sites: dict[str, Served]) -> None:
    """The longest pages (one domain's 100 items with their rubrics): no serious
    violation either."""
    page = open_page(browser, sites["multidomain"], "en/reg-2026-1/items-juridica.html", DESKTOP)
    assert page.locator('[lang="zh"]').count() > 0
    assert blocking(page) == []
    page.close()
