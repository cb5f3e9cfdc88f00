"""Page sources: page contexts -> Markdown (Jinja2), one tree per language.

The templates (reportgen/kinds/estigmas/templates/) only lay out a page context, and
the shared page writer (reportgen.render.pages) finishes what they print: `Markup` passes
as is and every other string goes through `escape_markdown`, so data (a model name, a
stigma name, a reason) can never become markup. A `Table`, a `ChartRef`, a `Collapsed`
or a `Moving` block is rendered to HTML here (the last always deferred). Anything else
printed (a number, None) is a template error.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from markupsafe import Markup, escape

from reportgen.kinds.estigmas.render.chart_files import (
    DOWNLOAD_FORMATS,
    chart_file_names,
    write_chart_files,
)
from reportgen.kinds.estigmas.render.charts import ChartOutput
from reportgen.kinds.estigmas.render.page_types import (
    TEMPLATES,
    ChartRef,
    Collapsed,
    Moving,
    SitePage,
)
from reportgen.render.deferred import defer
from reportgen.render.pages import Finisher
from reportgen.render.pages import PageWriter as SharedWriter
from reportgen.render.table import Table, to_html

PAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# Tables longer than this, charts and folded tables stay out of Markdown and the search
# index (reportgen.render.deferred): a reader searches for a model or a term, not a cell.
BIG_TABLE_ROWS = 10


def collapsed(block: Collapsed) -> Markup:
    """A long table folded behind a summary line (one HTML block for Markdown)."""
    return Markup(
        f'<details class="rg-more"><summary>{escape(block.summary)}</summary>\n'
        f"{to_html(block.table)}\n</details>"
    )


def _figcaption(ref: ChartRef, prefix: str) -> str:
    """The caption, the how-to-read note and the download links (last child of <figure>)."""
    parts = [f'<p class="rg-figure-caption">{escape(ref.caption)}</p>' if ref.caption else ""]
    if ref.how_to_read:
        parts.append(f'<p class="rg-how-to-read">{escape(ref.how_to_read)}</p>')
    names = chart_file_names(ref.chart.chart_id)
    links = " · ".join(
        f'<a href="{prefix}charts/{escape(names[extension])}" download>{extension.upper()}</a>'
        for extension in DOWNLOAD_FORMATS
    )
    label = f"{escape(ref.downloads_label)}: " if ref.downloads_label else ""
    parts.append(f'<p class="rg-chart-downloads">{label}{links}</p>')
    return "<figcaption>" + "".join(parts) + "</figcaption>"


def chart_markup(ref: ChartRef) -> Markup:
    """A chart: static SVG (readers without JavaScript), live spec, data table, caption.

    The table is folded under the chart, or open beside it when the chart's points are
    numbered for it (`ChartOutput.table_beside`).
    """
    chart, prefix = ref.chart, "../" * ref.depth
    holder = 'class="rg-vega"'
    if chart.min_width is not None:  # may scroll sideways: a named region the keyboard reaches
        holder = (
            f'class="rg-vega rg-vega-wide" style="--rg-min-width: {chart.min_width}px" '
            f'role="region" tabindex="0" aria-label="{escape(chart.table.caption)}"'
        )
    drawing = (
        f'<div {holder} data-spec="{escape(chart.chart_id)}-spec">'
        f'<img src="{prefix}charts/{escape(chart.chart_id)}.svg" alt="{escape(ref.description)}">'
        f"</div>"
    )
    if chart.table_beside:
        key = f'<div class="rg-chart-key">{to_html(chart.table)}</div>'
        body = f'<div class="rg-chart-beside">{drawing}{key}</div>'
        data = ""
    else:
        body = drawing
        data = (
            f"<details><summary>{escape(ref.data_label)}</summary>{to_html(chart.table)}</details>"
        )
    return Markup(
        f'<figure class="rg-chart" id="{escape(chart.chart_id)}">{body}'
        f'<script type="application/json" id="{escape(chart.chart_id)}-spec">'
        f"{chart.spec_json()}</script>{data}{_figcaption(ref, prefix)}</figure>"
    )


def _table(table: Table) -> Markup:
    return defer(to_html(table)) if len(table.rows) > BIG_TABLE_ROWS else to_html(table)


def _chart(ref: ChartRef) -> Markup:
    return defer(chart_markup(ref))


def _collapsed(block: Collapsed) -> Markup:
    return defer(collapsed(block))


def _moving(moving: Moving) -> Markup:
    block = moving.block
    return defer(to_html(block) if isinstance(block, Table) else block, slot=moving.slot)


# What an Estigmas page prints besides text: tables, charts and folded tables (no number:
# a count is written by the page context, in the page's language).
FINISHERS: tuple[Finisher, ...] = (
    (Table, _table),
    (ChartRef, _chart),
    (Collapsed, _collapsed),
    (Moving, _moving),
)
PAGES = SharedWriter(PAGE_TEMPLATES, TEMPLATES, FINISHERS)
finished = PAGES.finished


class PageWriter:
    """Renders page contexts into `docs_dir/<language>/`, by the shared page writer."""

    def __init__(self, templates_dir: Path, root: Path) -> None:
        self.pages = PAGES.with_templates(templates_dir)
        self.root = root

    @property
    def env(self) -> jinja2.Environment:
        return self.pages.env

    def render(self, page: SitePage) -> str:
        return self.pages.render(page)

    def write(self, relative: str, page: SitePage) -> Path:
        return self.pages.write(self.root, relative, page)

    def write_chart(self, chart: ChartOutput) -> list[Path]:
        """The chart's SVG, PNG and CSV under `charts/`."""
        (self.root / "charts").mkdir(parents=True, exist_ok=True)
        return write_chart_files(chart, self.root / "charts")
