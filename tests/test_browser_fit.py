"""Every page of the three kinds' demonstration sites fits the window, in both languages, at
a desktop (1280 px) and a phone (390 px) width: no page wider than the window, no table cut
at 1280 px, no interval broken across lines, every row and column of a heatmap labelled
(tests/support/page_fit.js says what is read, and how). One browser visits the pages in
turn, each at 1280 px and then, resized, at 390 px.

The browser visits one page of each kind, in each language: the estigmas site's kinds of
page (tests/support/browser.py, `site_pages`), and of the other kinds' sites, the largest
page of each path and layout (tests/support/page_samples.py: one items page of the 14 a
language, one participant's history of 15, one round's section where both rounds' lay it
out alike). Pages of one kind share their template, their tables' columns and their charts;
a page laid out differently from the others of its kind is a kind of its own, and visited.
What the browser would find on the pages left out, the HTML of every page shows: each table
in its scrolling box, each interval kept on one line (`loose_layout`).

On a phone, the multidomain tables keep the participant's name in view while the other
columns scroll, not the rank or the annex number.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    WAIT_MS,
    Served,
    keep_to_localhost,
    open_page,
    serve_directory,
    site_pages,
    visit,
)
from tests.support.page_samples import loose_layout, page_kind, sample_pages
from tests.support.shared_builds import (
    DEMONSTRATION_KINDS,
    MULTIDOMAIN_AFTER_EMBARGO,
    REPO,
    demonstration_site,
    example_site,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")

FIT = (Path(__file__).resolve().parent / "support" / "page_fit.js").read_text(encoding="utf-8")
# Every live chart redrawn within its box after the window narrowed (Vega redraws on the
# window's resize event): the state the page shows once it has settled.
_CHARTS_FIT = """() => Array.from(document.querySelectorAll('.rg-vega-live')).every(live => {
  const svg = live.querySelector('svg');
  return svg !== null && svg.getBoundingClientRect().width <= live.clientWidth + 1;
})"""
MULTIDOMAIN_LOCALES = REPO / "reportgen" / "kinds" / "multidomain" / "render" / "locales"


def _every_page(root: Path) -> list[str]:
    return sorted(path.relative_to(root).as_posix() for path in root.rglob("*.html"))


def _pages(kind: str, root: Path) -> list[str]:
    """The pages the browser visits: one of each kind, in each language."""
    if kind == "estigmas":  # every kind of page; of the 40-odd model pages, one per round kind
        return site_pages(root)
    every = _every_page(root)
    sample = sample_pages(root, every)
    # Every page is one visited page's kind, and every kind of page has a visited page.
    assert sorted(path for members in sample.values() for path in members) == every
    assert {page_kind(path) for path in sample} == {page_kind(path) for path in every}
    return list(sample)


def _problems(page: Any, served: Served, path: str) -> dict[str, Any]:
    """What page_fit.js finds on `path` at 1280 px, then at 390 px."""
    page.set_viewport_size(DESKTOP)
    visit(page, served, path)
    desktop = page.evaluate(FIT, True)
    page.set_viewport_size(PHONE)
    # On a timeout, page_fit.js names what did not fit.
    with contextlib.suppress(playwright_sync.TimeoutError):
        page.wait_for_function(_CHARTS_FIT, timeout=WAIT_MS)
    phone = page.evaluate(FIT, False)
    return {
        "problems": [f"1280 px: {p}" for p in desktop["problems"]]
        + [f"390 px: {p}" for p in phone["problems"]],
        "axes": desktop["axes"] + phone["axes"],
        "heatmaps": desktop["heatmaps"] + phone["heatmaps"],
    }


@pytest.mark.parametrize("kind", ["estigmas", "multidomain", "counterfactual"])
def test_every_page_fits_the_window_and_every_heatmap_row_and_column_is_labelled(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    root = demonstration_site(tmp_path_factory, kind)
    pages = _pages(kind, root)
    assert any(path.startswith("en/") for path in pages)
    assert any(not path.startswith("en/") for path in pages)
    found: dict[str, list[str]] = {}
    axes = heatmaps = 0
    with contextlib.contextmanager(serve_directory)(root) as served:
        page = browser.new_page(viewport=DESKTOP)
        keep_to_localhost(page, served.base, served.blocked, root=root)
        for path in pages:
            result = _problems(page, served, path)
            axes, heatmaps = axes + result["axes"], heatmaps + result["heatmaps"]
            if result["problems"]:
                found[path] = result["problems"]
        page.close()
    assert served.blocked == []
    assert found == {}
    if kind == "estigmas":  # two heatmaps on the bias page, in two languages, at two widths
        assert heatmaps == 2 * 2 * 2
        assert axes > 2 * heatmaps


@pytest.mark.parametrize("kind", DEMONSTRATION_KINDS)
def test_every_page_keeps_its_tables_in_their_box_and_its_intervals_whole(
    tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    """The pages the browser leaves out above, read from their HTML."""
    root = demonstration_site(tmp_path_factory, kind)
    found = {}
    for path in _every_page(root):
        problems = loose_layout((root / path).read_text(encoding="utf-8"))
        if problems:
            found[path] = problems
    assert found == {}


# Where each cell of a table's header row lies, and which of them are pinned.
_HEADER = """table => Array.from(table.tHead.rows[0].cells).map(cell => ({
  text: cell.textContent.trim(),
  pinned: cell.classList.contains('rg-sticky'),
  left: cell.getBoundingClientRect().left,
  wrapLeft: table.closest('.rg-table-wrap').getBoundingClientRect().left,
}))"""


@pytest.mark.parametrize(("prefix", "language"), [("", "pt-BR"), ("en/", "en")])
def test_multidomain_tables_keep_the_participant_in_view_on_a_phone(
    browser: Any, tmp_path_factory: pytest.TempPathFactory, prefix: str, language: str
) -> None:
    words = json.loads((MULTIDOMAIN_LOCALES / f"{language}.json").read_text(encoding="utf-8"))
    participant, system = words["column.participant"], words["cast.column.name"]
    root = example_site(tmp_path_factory, "multidomain", MULTIDOMAIN_AFTER_EMBARGO)
    with contextlib.contextmanager(serve_directory)(root) as served:
        page = open_page(browser, served, f"{prefix}reg-2026-1/cast.html", PHONE)
        pinned = [
            c["text"] for c in page.eval_on_selector("#md-reg-2026-1-cast", _HEADER) if c["pinned"]
        ]
        assert pinned == [system]
        page.close()
        page = open_page(browser, served, f"{prefix}reg-2026-1/classification.html", PHONE)
        table = "#md-reg-2026-1-ranking"
        header = page.eval_on_selector(table, _HEADER)
        assert [c["text"] for c in header if c["pinned"]] == [participant]
        wrap = page.locator(f".rg-table-wrap:has({table})")
        wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")  # on to the last column
        page.wait_for_function(
            "w => w.scrollLeft > 0 && w.scrollLeft >= w.scrollWidth - w.clientWidth - 1",
            arg=wrap.element_handle(),
        )
        header = {c["text"]: c for c in page.eval_on_selector(table, _HEADER)}
        name = header[participant]
        assert abs(name["left"] - name["wrapLeft"]) <= 1, name  # the name stayed at left
        rank = header[words["column.rank"]]
        assert rank["left"] < rank["wrapLeft"], rank  # the rank scrolled away with the rest
        page.close()
    assert served.blocked == []
