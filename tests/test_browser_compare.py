"""The compare page's permalink in a real browser (Debian's Chromium via Playwright): the
choice lives in the URL (`compare.html?round=<id>&a=<id>&b=<id>`), a model's page opens
it against another model, every round is offered, and the chosen pair's difference is
shown with its interval. Without JavaScript every model stays visible.

Every request that leaves localhost is blocked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.factories import INJECTED
from tests.support.browser import CHROMIUM, keep_to_localhost, serve_directory
from tests.support.shared_builds import tiny_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = tiny_site(tmp_path_factory)
    for served in serve_directory(site):
        yield served.base


def _open(browser: Any, base: str, path: str, javascript: bool = True) -> tuple[Any, list[str]]:
    """The page at `path`, and the script errors it raises (the tests expect none)."""
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    keep_to_localhost(page, base)
    page.goto(base + path, wait_until="load")
    page.wait_for_load_state("networkidle")
    return page, errors


def _visible_columns(page: Any, round_id: str) -> list[str]:
    cells = page.locator(f"#compare-{round_id} thead th:not([hidden])")
    return [cells.nth(i).inner_text() for i in range(cells.count())]


def _query(page: Any) -> dict[str, str]:
    query = parse_qs(urlsplit(page.url).query)
    return {key: values[0] for key, values in query.items()}


def test_the_permalink_chooses_the_round_and_the_two_models(browser: Any, base: str) -> None:
    page, errors = _open(browser, base, "en/compare.html?round=tiny-cont&a=beta-2&b=alfa-1")
    assert page.locator(".rg-compare-round").input_value() == "tiny-cont"
    assert page.locator('.rg-compare-section[data-round="tiny-round"]').is_hidden()
    assert page.locator('.rg-compare-section[data-round="tiny-cont"]').is_visible()
    columns = _visible_columns(page, "tiny-cont")
    assert columns[0] == "Measure"
    assert sorted(columns[1:]) == ["Alfa 1", "Beta 2"]  # in the ranking's order
    # The chosen pair's difference, first minus second, with its interval.
    pair = page.locator(".rg-compare-pair tbody tr td")
    cells = [pair.nth(i).inner_text() for i in range(pair.count())]
    assert cells[:2] == ["Beta 2", "Alfa 1"]
    assert cells[2].endswith("pp")
    assert cells[3].startswith("[")
    assert cells[3].endswith("pp]")
    assert errors == []


def test_a_model_page_opens_it_against_another_model(browser: Any, base: str) -> None:
    page, errors = _open(browser, base, "en/models/tiny-cont/alfa-1.html")
    page.click("a[href*='compare.html?round=']")
    page.wait_for_load_state("networkidle")
    query = _query(page)
    assert query["round"] == "tiny-cont"
    assert query["a"] == "alfa-1"
    assert query["b"] != "alfa-1"
    columns = _visible_columns(page, "tiny-cont")
    assert len(columns) == 3
    assert len(set(columns)) == 3  # two different models
    assert errors == []


def test_the_choice_is_written_back_to_the_url(browser: Any, base: str) -> None:
    page, errors = _open(browser, base, "en/compare.html?a=beta-2&b=beta-2")
    query = _query(page)
    assert query == {"round": "tiny-round", "a": "beta-2", "b": "alfa-1"}  # never itself
    page.select_option('.rg-compare-pick[data-round="tiny-round"] .rg-compare-b', "alfa-mini")
    assert _query(page)["b"] == "alfa-mini"
    link = page.locator(".rg-compare-permalink").get_attribute("href")
    assert link == "?round=tiny-round&a=beta-2&b=alfa-mini"
    page.reload()
    page.wait_for_load_state("networkidle")
    assert _visible_columns(page, "tiny-round") == ["Measure", "Alfa Mini", INJECTED]
    # Another round keeps the same two models when it has them.
    page.select_option(".rg-compare-round", "tiny-cont")
    assert _query(page) == {"round": "tiny-cont", "a": "beta-2", "b": "alfa-mini"}
    assert errors == []


def test_without_javascript_every_model_and_round_shows(browser: Any, base: str) -> None:
    page, _ = _open(browser, base, "en/compare.html?a=beta-2&b=alfa-1", javascript=False)
    assert page.locator(".rg-compare").is_hidden()
    for round_id in ("tiny-round", "tiny-cont"):
        assert len(_visible_columns(page, round_id)) == 4  # the measure and three models
        details = page.locator(f"details:has(#differences-{round_id})")
        assert details.count() == 1
