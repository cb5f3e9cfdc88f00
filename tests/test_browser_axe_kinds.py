"""Accessibility and layout of the other kinds' pages, as a reader meets them: the
REG-BC-2026-001 report (every section, items included after the embargo) and the
counterfactual audits, in both languages at a desktop width and in Portuguese at a 390 px
phone width (the phone's layout is the same in English).
axe-core (vendored, never fetched) finds no serious or critical violation, and no page
is wider than the phone (tables scroll inside their own region)."""

from __future__ import annotations

import contextlib
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
    one_page,
    open_page,
    visit,
)
from tests.support.browser import serve_directory as serve
from tests.support.shared_builds import example_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parents[1]
MULTIDOMAIN_SECTIONS = (
    "index", "methodology", "cast", "classification", "domains-languages", "technical-ties",
    "head-to-head", "process", "refusals", "discarded", "human-audit", "calibration",
    "contamination", "limitations", "register", "reuse",
)  # fmt: skip
MULTIDOMAIN = ("reg-2026-1", MULTIDOMAIN_SECTIONS)
# The history pages of the example's two rounds (Art. 2(d)): the series, the bank
# version register and one participant's history.
MULTIDOMAIN_SERIES = ("series/index", "series/bank-versions", "series/aurora-4")
COUNTERFACTUAL = ("atendimento-2026-09", "atendimento-2026-10")


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    multidomain = example_site(tmp_path_factory, "multidomain", "2027-03-20")
    counterfactual = example_site(tmp_path_factory, "counterfactual")
    with contextlib.ExitStack() as stack:
        yield {
            "multidomain": stack.enter_context(contextlib.contextmanager(serve)(multidomain)),
            "counterfactual": stack.enter_context(contextlib.contextmanager(serve)(counterfactual)),
        }


def pages_of(kind: str, prefix: str) -> list[str]:
    if kind == "multidomain":
        round_id, stems = MULTIDOMAIN
        series = [f"{prefix}{stem}.html" for stem in MULTIDOMAIN_SERIES]
        return [f"{prefix}{round_id}/{stem}.html" for stem in stems] + series
    return [f"{prefix}index.html"] + [f"{prefix}{r}/index.html" for r in COUNTERFACTUAL]


@pytest.mark.parametrize("kind", ["multidomain", "counterfactual"])
# A phone's layout is the same in either language (the same elements, roles and colours:
# what axe judges), as in test_browser_axe.py; every page's width in both languages at
# 390 px is test_browser_fit.py's.
@pytest.mark.parametrize(
    ("viewport", "prefix"),
    [(DESKTOP, ""), (DESKTOP, "en/"), (PHONE, "")],
    ids=["1280px-pt", "1280px-en", "390px-pt"],
)
def test_no_serious_violation_and_no_page_wider_than_the_window(
    browser: Any, sites: dict[str, Served], kind: str, viewport: dict[str, int], prefix: str
) -> None:
    served = sites[kind]
    found: dict[str, object] = {}
    with one_page(browser, served, viewport) as page:
        for path in pages_of(kind, prefix):
            visit(page, served, path)
            problems: list[str] = blocking(page)
            width = page.evaluate("document.documentElement.scrollWidth")
            if width > viewport["width"]:
                problems.append(f"page {width} px wide in a {viewport['width']} px window")
            if problems:
                found[path] = problems
    assert served.blocked == []
    assert found == {}


def test_the_items_page_after_the_embargo(browser: Any, sites: dict[str, Served]) -> None:
    """The longest pages (one domain's 100 items with their rubrics): no serious
    violation either."""
    page = open_page(browser, sites["multidomain"], "en/reg-2026-1/items-juridica.html", DESKTOP)
    assert page.locator('[lang="zh"]').count() > 0
    assert blocking(page) == []
    page.close()
