"""Layout in a real browser (Debian's Chromium via Playwright) at a desktop and a phone width:
charts fill their column after the window narrows and widens again; tables show every column
at 1280 px, scroll sideways with their naming column pinned on a phone, and keep their
caption in view; the continuous round's scatter names a point on hover, beside its table.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.browser import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    WAIT_MS,
    Served,
    demo_site,
    open_page,
    serve_directory,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")

PRIMARY = "estigmas-2026-06"
CONTINUOUS = "idje-avalia-2026-07"
CHART_PAGES = (
    "index.html",
    "language.html",
    "continuous.html",
    "models/sabiazinho-4.html",
    "en/index.html",
)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_directory(demo_site(tmp_path_factory))


# Each chart's drawn width beside the width of the column that holds it.
_CHART_WIDTHS = """() => Array.from(document.querySelectorAll('figure.rg-chart')).map(figure => {
  const svg = figure.querySelector('.rg-vega svg');
  const column = figure.closest('.md-content__inner');
  const style = getComputedStyle(column);
  const inner = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return {id: figure.id, chart: svg.getBoundingClientRect().width, column: inner};
})"""


# Whether every chart has been redrawn to its column's width after a resize (Vega redraws
# on the window's resize event): the state the page shows once it has settled.
_CHARTS_SETTLED = """([scatterPrefix, phone]) => Array.from(
    document.querySelectorAll('figure.rg-chart')).every(figure => {
  const svg = figure.querySelector('.rg-vega svg');
  const column = figure.closest('.md-content__inner');
  if (!svg || !column) { return false; }
  const style = getComputedStyle(column);
  const inner = column.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const width = svg.getBoundingClientRect().width;
  const share = (!phone && figure.id.startsWith(scatterPrefix)) ? 0.5 : 0.97;
  return width >= share * inner && width <= inner + 1;
})"""


def _resize_and_settle(page: Any, viewport: dict[str, int]) -> None:
    page.set_viewport_size(viewport)
    # On a timeout, the assertions that follow name the chart that did not fit.
    with contextlib.suppress(playwright_sync.TimeoutError):
        page.wait_for_function(
            _CHARTS_SETTLED, arg=[f"scatter-{CONTINUOUS}", viewport is PHONE], timeout=WAIT_MS
        )


@pytest.mark.parametrize("path", CHART_PAGES)
def test_charts_fill_their_column_after_narrowing_and_widening(
    browser: Any, served: Served, path: str
) -> None:
    page = open_page(browser, served, path)
    for viewport in (DESKTOP, PHONE, DESKTOP):
        _resize_and_settle(page, viewport)
        widths = page.evaluate(_CHART_WIDTHS)
        assert widths, path
        for chart in widths:
            # a chart beside its table fills its grid cell instead: at least half the column
            share = 0.5 if chart["id"].startswith(f"scatter-{CONTINUOUS}") else 0.97
            if viewport is PHONE:
                share = 0.97  # stacked under one another on a phone
            assert chart["chart"] >= share * chart["column"], (path, viewport, chart)
            assert chart["chart"] <= chart["column"] + 1, (path, viewport, chart)
    page.close()


# Where a table's wrapper, caption and header cells lie, and whether the wrapper scrolls.
_TABLE_BOX = """table => {
  const wrap = table.closest('.rg-table-wrap');
  const box = element => element.getBoundingClientRect();
  return {
    wrap: {left: box(wrap).left, right: box(wrap).right},
    scrolls: wrap.scrollWidth > wrap.clientWidth + 1,
    caption: {left: box(table.caption).left, right: box(table.caption).right},
    headers: Array.from(table.tHead.rows[0].cells).map(
      cell => ({text: cell.innerText.trim(), left: box(cell).left, right: box(cell).right})),
  };
}"""


@pytest.mark.parametrize(
    ("path", "table_id", "columns"),
    [
        ("ranking.html", f"ranking-{PRIMARY}", 10),
        ("ranking.html", f"pairwise-{PRIMARY}", 8),  # row title + 7 models, the diagnostic too
        ("en/ranking.html", f"ranking-{PRIMARY}", 10),
        ("continuous.html", f"ranking-{CONTINUOUS}", 10),
    ],
)
def test_tables_show_every_column_at_1280_px(
    browser: Any, served: Served, path: str, table_id: str, columns: int
) -> None:
    page = open_page(browser, served, path, DESKTOP)
    layout = page.eval_on_selector(f"#{table_id}", _TABLE_BOX)
    assert len(layout["headers"]) == columns
    assert not layout["scrolls"], (table_id, layout)
    for header in layout["headers"]:
        assert header["right"] <= layout["wrap"]["right"] + 1, (table_id, header)
    page.close()


def test_the_pairwise_matrix_marks_the_diagnostic_case(browser: Any, served: Served) -> None:
    page = open_page(browser, served, "en/ranking.html", DESKTOP)
    headers = page.locator(f"#pairwise-{PRIMARY} thead th").all_inner_texts()
    assert headers[-1].startswith("Sabiazinho-4 ("), headers
    page.close()


@pytest.mark.parametrize("path", ["ranking.html", "en/ranking.html"])
def test_table_two_on_a_phone_scrolls_with_its_model_column_pinned(
    browser: Any, served: Served, path: str
) -> None:
    page = open_page(browser, served, path, PHONE)
    table = f"#ranking-{PRIMARY}"
    layout = page.eval_on_selector(table, _TABLE_BOX)
    # the caption is all in view, inside the scrolling region
    assert layout["caption"]["left"] >= layout["wrap"]["left"] - 1
    assert layout["caption"]["right"] <= layout["wrap"]["right"] + 1, layout["caption"]
    assert layout["scrolls"]
    # the region takes keyboard focus, has a name, and scrolls from the keyboard
    wrap = page.locator(f".rg-table-wrap:has({table})")
    assert wrap.get_attribute("role") == "region"
    assert wrap.get_attribute("aria-labelledby") == f"ranking-{PRIMARY}-caption"
    wrap.focus()
    assert page.evaluate("document.activeElement.classList.contains('rg-table-wrap')")
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        f"document.querySelector('{table}').closest('.rg-table-wrap').scrollLeft > 0"
    )
    wrap.evaluate("w => { w.scrollLeft = w.scrollWidth; }")  # on to the last column
    page.wait_for_function(
        "w => w.scrollLeft >= w.scrollWidth - w.clientWidth - 1", arg=wrap.element_handle()
    )
    layout = page.eval_on_selector(table, _TABLE_BOX)
    # the model's name is the pinned column, after the rank and its interval
    last, model = layout["headers"][-1], layout["headers"][2]
    assert last["right"] <= layout["wrap"]["right"] + 1, last  # the last column came into view
    assert abs(model["left"] - layout["wrap"]["left"]) <= 1, model  # the model stayed at left
    assert layout["caption"]["left"] >= layout["wrap"]["left"] - 1  # and so did the caption
    page.close()


def test_sortable_headers_show_a_sort_cue_and_sort(browser: Any, served: Served) -> None:
    page = open_page(browser, served, "en/ranking.html", DESKTOP)
    header = page.locator(f"#ranking-{PRIMARY} thead th").nth(6)  # bias rate
    button = header.locator("button.rg-sort")
    cue = "el => getComputedStyle(el, '::after').content"
    assert "↕" in button.evaluate(cue)
    button.focus()
    page.keyboard.press("Enter")
    assert header.get_attribute("aria-sort") == "ascending"
    assert "▲" in button.evaluate(cue)
    rates = page.locator(f"#ranking-{PRIMARY} tbody tr td:nth-child(7)")
    values = [float(v) for v in rates.evaluate_all("cells => cells.map(c => c.dataset.sort)")]
    assert values == sorted(values)
    page.close()


def test_continuous_scatter_numbers_points_names_the_hovered_one_beside_its_table(
    browser: Any, served: Served
) -> None:
    page = open_page(browser, served, "en/continuous.html", DESKTOP)
    figure = page.locator(f"#scatter-{CONTINUOUS}")
    key_rows = figure.locator(".rg-chart-key tbody tr")
    assert key_rows.count() == 28
    chart_box = figure.locator(".rg-vega").bounding_box()
    key_box = figure.locator(".rg-chart-key").bounding_box()
    assert key_box["x"] >= chart_box["x"] + chart_box["width"] - 1  # beside, not below
    assert key_box["y"] < chart_box["y"] + chart_box["height"]
    texts = figure.locator(".rg-vega svg text").all_text_contents()
    assert {str(number) for number in range(1, 29)} <= set(texts)  # every point numbered
    first = key_rows.first.locator("td").nth(1).inner_text()
    points = figure.locator(
        '.rg-vega svg path[role="graphics-symbol"][aria-roledescription="point"]'
    )
    assert points.count() == 28
    points.first.hover(force=True)
    page.wait_for_function(
        "name => Array.from(document.querySelectorAll('.rg-chart-beside svg text'))"
        ".some(t => t.textContent === name && getComputedStyle(t).opacity !== '0'"
        " && t.getAttribute('opacity') !== '0')",
        arg=first,
        timeout=WAIT_MS,
    )
    page.close()
