"""Accessibility: axe-core (vendored in tests/vendor, never fetched) on every kind of page of the
demonstration site, in both languages, at a desktop and a phone width, finds no serious or
critical violation; nor does it with the search dialog open.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.axe import AXE, BLOCKING, VENDOR, blocking, rule_impacts, violations
from tests.support.browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    WAIT_MS,
    Served,
    demo_site,
    one_page,
    open_page,
    serve_directory,
    site_pages,
    visit,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")

AXE_VERSION = "4.14.1"  # as tests/vendor/README.md records it
# A page with violations of every impact: an image without a text (critical), grey on white
# (serious), a heading level skipped and content outside any landmark (moderate), an empty
# heading (minor).
_FLAWED = """<!doctype html><html lang="en"><head><title>t</title></head><body>
<h1>Title</h1><h3>Skipped</h3><h2></h2><img src="data:,">
<p style="color:#ccc;background:#fff">Faint</p></body></html>"""


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_directory(demo_site(tmp_path_factory))


def test_the_vendored_axe_is_the_recorded_version() -> None:
    head = AXE.read_text(encoding="utf-8")[:200]
    assert head.startswith(f"/*! axe v{AXE_VERSION}"), head
    assert f"| {AXE_VERSION} |" in (VENDOR / "README.md").read_text(encoding="utf-8")


def test_a_violation_has_its_rules_impact_so_only_blocking_rules_are_run(browser: Any) -> None:
    """tests/support/axe.py runs only the rules whose impact is serious or critical: a rule's
    violation has the rule's impact, so the others cannot find a blocking one."""
    page = browser.new_page()
    page.set_content(_FLAWED)
    every = violations(page, every_rule=True)
    impacts = rule_impacts(page)
    assert None not in impacts.values()
    found = {v.split(" ", 1)[0]: v.split("(", 1)[1].split(")", 1)[0] for v in every}
    assert found == {rule: impacts[rule] for rule in found}
    assert set(found.values()) == {"minor", "moderate", "serious", "critical"}
    assert blocking(page) == [v for v in every if found[v.split(" ", 1)[0]] in BLOCKING]
    page.close()


@pytest.mark.parametrize(
    ("viewport", "languages"),
    [(DESKTOP, ("", "en/")), (PHONE, ("",))],  # a phone's layout is the same in either language
    ids=["1280px", "390px"],
)
def test_no_serious_or_critical_violation_on_any_page(
    browser: Any, served: Served, viewport: dict[str, int], languages: tuple[str, ...]
) -> None:
    pages = site_pages(served.root, languages)
    assert len(pages) >= 13 * len(languages)  # 11 pages and 2 model pages in each language
    found = {}
    with one_page(browser, served, viewport) as page:
        for path in pages:
            visit(page, served, path)
            problems = blocking(page)
            if problems:
                found[path] = problems
    assert served.blocked == []
    assert found == {}


@pytest.mark.parametrize("path", ["index.html", "en/index.html"])
def test_no_serious_or_critical_violation_with_the_search_dialog_open(
    browser: Any, served: Served, path: str
) -> None:
    page = open_page(browser, served, path, DESKTOP, search=True)
    page.locator("input.md-search__input").click()
    page.keyboard.type("Sabi", delay=20)  # Material searches on key events, not on fill()
    page.wait_for_selector(".md-search-result__item", timeout=WAIT_MS)
    # axe measures colours as drawn: let the results' fade-in finish first
    # (and the results drawn at full opacity: the colours axe reads are the final ones)
    page.wait_for_function(
        "document.getAnimations().every(a => a.playState !== 'running')"
        " && Array.from(document.querySelectorAll('.md-search-result__item'))"
        ".every(item => getComputedStyle(item).opacity === '1')"
    )
    dialog = page.locator(".md-search[role='dialog']")
    assert dialog.get_attribute("aria-label") in ("Pesquisar", "Search")
    assert blocking(page) == []
    page.close()


def test_every_accessible_name_reference_is_unique(browser: Any, served: Served) -> None:
    """A table's region is named by its caption's id: two tables with one id would share a name."""
    for path in ("bias.html", "ranking.html", "continuous.html"):
        page = open_page(browser, served, path, DESKTOP)
        duplicated = page.evaluate(
            """() => Array.from(document.querySelectorAll('[aria-labelledby]'))
                 .map(e => e.getAttribute('aria-labelledby'))
                 .filter(id => document.querySelectorAll('#' + CSS.escape(id)).length !== 1)"""
        )
        assert duplicated == [], path
        page.close()
