"""Real-browser tests: Debian's Chromium (via Playwright) against the built site on localhost.

Every request that leaves localhost is blocked and recorded; each page must load with no
console error and no blocked request.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from reportgen.i18n import Translator
from tests.factories import PAGES
from tests.support.browser import (
    CHROMIUM,
    WAIT_MS,
    Served,
    demo_site,
    keep_to_localhost,
    serve_directory,
)
from tests.support.shared_builds import tiny_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_directory(tiny_site(tmp_path_factory))


@pytest.fixture(scope="module")
def demo_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_directory(demo_site(tmp_path_factory))


@dataclass
class Visit:
    page: object
    errors: list[str]
    dialogs: list[str]


def open_page(browser: object, served: Served, path: str) -> Visit:
    visit = watched_page(browser, served)
    go(visit, served, path)
    return visit


def go(visit: Visit, served: Served, path: str) -> None:
    """`visit`'s page at `path`, loaded and quiet, with the errors and dialogs of this path
    only. A walk over many paths goes on one page (tests/support/browser.py `one_page`:
    a new page for each would cost Chromium a new renderer each)."""
    visit.errors.clear()
    visit.dialogs.clear()
    visit.page.goto(served.base + path, wait_until="load")  # type: ignore[attr-defined]
    visit.page.wait_for_load_state("networkidle")  # type: ignore[attr-defined]


def watched_page(browser: object, served: Served) -> Visit:
    """A new page whose console errors, page errors and dialogs are recorded, and whose
    requests off localhost are blocked."""
    page = browser.new_page()  # type: ignore[attr-defined]
    errors: list[str] = []
    dialogs: list[str] = []

    def on_console(message: object) -> None:
        if message.type == "error":  # type: ignore[attr-defined]
            errors.append(message.text)  # type: ignore[attr-defined]

    def on_page_error(error: object) -> None:
        errors.append(str(error))

    def on_dialog(dialog: object) -> None:
        dialogs.append(dialog.message)  # type: ignore[attr-defined]
        dialog.dismiss()  # type: ignore[attr-defined]

    keep_to_localhost(page, served.base, served.blocked)
    page.on("console", on_console)
    page.on("pageerror", on_page_error)
    page.on("dialog", on_dialog)
    return Visit(page, errors, dialogs)


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_every_page_loads_cleanly(browser: object, served: Served, prefix: str) -> None:
    paths = [f"{prefix}{stem}.html" for stem in PAGES]
    paths += [f"{prefix}models/{m}.html" for m in ("alfa-1", "alfa-mini", "beta-2")]
    visit = watched_page(browser, served)
    for path in paths:
        before = len(served.blocked)
        go(visit, served, path)
        assert visit.errors == [], path
        assert served.blocked[before:] == [], path
        assert visit.dialogs == [], path
    visit.page.close()  # type: ignore[attr-defined]


def test_language_switch_keeps_the_page(browser: object, served: Served) -> None:
    visit = open_page(browser, served, "models/alfa-1.html")
    page = visit.page
    page.eval_on_selector('a[hreflang="en"]', "a => a.click()")  # type: ignore[attr-defined]
    page.wait_for_url(served.base + "en/models/alfa-1.html")  # type: ignore[attr-defined]
    assert page.url == served.base + "en/models/alfa-1.html"  # type: ignore[attr-defined]
    page.eval_on_selector('a[hreflang="pt-BR"]', "a => a.click()")  # type: ignore[attr-defined]
    page.wait_for_url(served.base + "models/alfa-1.html")  # type: ignore[attr-defined]
    assert page.url == served.base + "models/alfa-1.html"  # type: ignore[attr-defined]


@pytest.mark.parametrize(("path", "decimal"), [("index.html", ","), ("en/index.html", ".")])
def test_charts_render_with_localised_tooltips(
    browser: object, served: Served, path: str, decimal: str
) -> None:
    visit = open_page(browser, served, path)
    page = visit.page
    page.wait_for_selector('.rg-vega[data-rendered="true"] svg', timeout=WAIT_MS)  # type: ignore[attr-defined]
    marks = page.locator('.rg-vega[data-rendered="true"] svg path[role="graphics-symbol"]')  # type: ignore[attr-defined]
    assert marks.count() >= 3  # one point per model
    holders = page.locator(".rg-vega")  # type: ignore[attr-defined]
    rendered = page.locator('.rg-vega[data-rendered="true"]')  # type: ignore[attr-defined]
    assert rendered.count() == holders.count()
    marks.nth(1).hover(force=True)
    tooltip = page.locator("#vg-tooltip-element")  # type: ignore[attr-defined]
    tooltip.wait_for(state="visible", timeout=WAIT_MS)
    text = tooltip.inner_text()
    assert re.search(rf"\d{re.escape(decimal)}\d%", text), text  # e.g. 25,0% / 25.0%
    assert visit.errors == []


def test_model_page_matches_models_csv(browser: object, served: Served) -> None:
    rows = csv.DictReader(io.StringIO((served.root / "data/tiny-round/models.csv").read_text()))
    row = next(r for r in rows if r["model_id"] == "alfa-1")
    en = Translator("en")
    visit = open_page(browser, served, "en/models/alfa-1.html")
    text = visit.page.inner_text("article")  # type: ignore[attr-defined]
    assert f"Bias: {en.integer(int(row['biased']))} of {en.integer(int(row['N']))} items" in text
    assert f"({en.percent(float(row['bias_rate']))})" in text
    assert f"anti-stigma index: {en.percent(float(row['index']))}" in text


def test_injected_model_name_is_inert(browser: object, served: Served) -> None:
    visit = open_page(browser, served, "ranking.html")
    page = visit.page
    assert visit.dialogs == []
    cells = page.locator("#ranking-tiny-round td a")  # type: ignore[attr-defined]
    names = [cells.nth(i).inner_text() for i in range(cells.count())]
    assert '<script>alert("x")</script> & <b>bold</b>' in names
    assert page.locator("#ranking-tiny-round b").count() == 0  # type: ignore[attr-defined]


def test_compare_view_shows_the_two_chosen_models(browser: object, served: Served) -> None:
    visit = open_page(browser, served, "en/compare.html?a=beta-2&b=alfa-mini")
    page = visit.page
    visible = page.locator("#compare-tiny-round thead th:not([hidden])")  # type: ignore[attr-defined]
    names = [visible.nth(i).inner_text() for i in range(visible.count())]
    # columns keep the ranking's order; the permalink chose the two models
    assert names == ["Measure", "Alfa Mini", '<script>alert("x")</script> & <b>bold</b>']
    page.select_option(".rg-compare-b", "alfa-1")  # type: ignore[attr-defined]
    names = [visible.nth(i).inner_text() for i in range(visible.count())]
    assert names == ["Measure", "Alfa 1", '<script>alert("x")</script> & <b>bold</b>']
    assert visit.errors == []


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_demonstration_site_pages_load_with_charts(
    browser: object, demo_served: Served, prefix: str
) -> None:
    visit = watched_page(browser, demo_served)
    page = visit.page
    for stem in (*PAGES, "models/sabiazinho-4", "models/idje-avalia-2026-07/muse-spark-1-1"):
        path = f"{prefix}{stem}.html"
        before = len(demo_served.blocked)
        go(visit, demo_served, path)
        holders = page.locator(".rg-vega")  # type: ignore[attr-defined]
        if holders.count():
            page.wait_for_selector(  # type: ignore[attr-defined]
                '.rg-vega[data-rendered="true"] svg', timeout=WAIT_MS
            )
            rendered = page.locator('.rg-vega[data-rendered="true"]')  # type: ignore[attr-defined]
            assert rendered.count() == holders.count(), path
        assert visit.errors == [], path
        assert demo_served.blocked[before:] == [], path
    page.close()  # type: ignore[attr-defined]
