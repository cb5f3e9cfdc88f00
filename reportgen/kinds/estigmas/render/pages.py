"""Page sources: page contexts -> Markdown (Jinja2), one tree per language.

The templates (reportgen/kinds/estigmas/templates/) only lay out a page context: each
gets exactly the fields of its page class as variables, with no helpers, filters or
translator. What a template prints is finished: `Markup` passes as is, a `Table`, a
`ChartRef` or a `Collapsed` is rendered to HTML here, and every other string goes
through `escape_markdown`, so data (a model name, a stigma name, a reason) can never
become markup. Anything else printed (a number, None) is a template error.
"""

from __future__ import annotations

import dataclasses
import functools
import traceback
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import ReportgenError
from reportgen.kinds.estigmas.render.chart_files import (
    DOWNLOAD_FORMATS,
    chart_file_names,
    write_chart_files,
)
from reportgen.kinds.estigmas.render.charts import ChartOutput
from reportgen.kinds.estigmas.render.page_types import TEMPLATES, ChartRef, Collapsed, SitePage
from reportgen.render.deferred import defer
from reportgen.render.table import Table, escape_markdown, to_html

PAGE_TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
# Tables longer than this, charts and folded tables stay out of Markdown and the search
# index (reportgen.render.deferred): a reader searches for a model or a term, not a cell.
BIG_TABLE_ROWS = 10


def _template_line(error: BaseException) -> int | None:
    """The template line an error was raised on (Jinja puts template frames in the traceback)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith(".j2")]
    return frames[-1].lineno if frames else None


class TemplateRenderError(ReportgenError):
    """A page template is broken (syntax, or a name the context does not have)."""


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


def finished(value: object) -> Markup:
    """What a template prints: blocks rendered, text escaped, anything else refused."""
    if isinstance(value, Markup):
        return value
    if isinstance(value, str):
        return escape_markdown(value)
    if isinstance(value, Table):
        return defer(to_html(value)) if len(value.rows) > BIG_TABLE_ROWS else to_html(value)
    if isinstance(value, ChartRef):
        return defer(chart_markup(value))
    if isinstance(value, Collapsed):
        return defer(collapsed(value))
    if isinstance(value, jinja2.Undefined):
        str(value)  # StrictUndefined: raises the error naming the missing variable
    raise TypeError(f"a page printed {type(value).__name__} {value!r}: not a finished value")


def page_variables(page: SitePage) -> dict[str, Any]:
    """The template's variables: the page's fields, one level deep."""
    return {field.name: getattr(page, field.name) for field in dataclasses.fields(page)}


@functools.lru_cache(maxsize=8)
def _environment(templates_dir: Path) -> jinja2.Environment:
    """One Jinja environment per templates folder, shared by both languages and by later
    builds of the process (`serve --watch`): compiled templates are kept, and Jinja's
    loader still notices an edited template by its modification time."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(templates_dir),
        autoescape=False,
        finalize=finished,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


class PageWriter:
    """Renders page contexts into `docs_dir/<language>/`."""

    def __init__(self, templates_dir: Path, root: Path) -> None:
        self.templates_dir = templates_dir
        self.root = root
        self.env = _environment(templates_dir)

    def render(self, page: SitePage) -> str:
        template = TEMPLATES[type(page)]
        try:
            return self.env.get_template(template).render(page_variables(page))
        except (jinja2.TemplateError, TypeError) as error:
            message = getattr(error, "message", None) or str(error)
            line = getattr(error, "lineno", None) or _template_line(error)
            where = f"{template}, line {line}" if line else template
            raise TemplateRenderError(f"{self.templates_dir / where}: {message}") from None

    def write(self, relative: str, page: SitePage) -> Path:
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(self.render(page), encoding="utf-8")
        return target

    def write_chart(self, chart: ChartOutput, cache_dir: Path | None = None) -> list[Path]:
        """The chart's SVG, PNG and CSV under `charts/` (PNGs kept in `cache_dir`)."""
        return write_chart_files(chart, self.root / "charts", cache_dir)
