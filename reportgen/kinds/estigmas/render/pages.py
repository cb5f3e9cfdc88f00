"""Page sources: contexts -> Markdown (Jinja2) + charts, one tree per language.

`write_sources` fills `docs/<language>/` (mkdocs-static-i18n's folder layout).
Templates receive language-neutral contexts and format them through filters;
every value that is not already markup goes through `escape_markdown`, so data
(a model name, a stigma name, a reason) can never become markup.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2
from markupsafe import Markup, escape

from reportgen.errors import ReportgenError
from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.kinds.estigmas.render import language_tables, reference_tables, stats_tables, tables
from reportgen.kinds.estigmas.render.charts import (
    ChartOutput,
    ReferenceRegion,
    bias_omission_scatter,
    composition_bars,
    language_dots,
)
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.site import NAV_PAGES, ModelPage, SiteContext, site_pages
from reportgen.render.table import escape_markdown, to_html

_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")


def _template_line(error: BaseException) -> int | None:
    """The template line an error was raised on (Jinja puts template frames in the traceback)."""
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename.endswith(".j2")]
    return frames[-1].lineno if frames else None


class TemplateRenderError(ReportgenError):
    """A page template is broken (syntax, or a name the context does not have)."""


def collapsed(summary: str, body: Markup) -> Markup:
    """A long table folded behind a summary line (one HTML block for Markdown)."""
    return Markup(
        f'<details class="rg-more"><summary>{escape(summary)}</summary>\n{body}\n</details>'
    )


def chart_markup(chart: ChartOutput, description: str, data_label: str, depth: int) -> Markup:
    """A chart: static SVG (readers without JavaScript), live spec, data table."""
    prefix = "../" * depth
    return Markup(
        f'<figure class="rg-chart" id="{escape(chart.chart_id)}">'
        f'<div class="rg-vega" data-spec="{escape(chart.chart_id)}-spec">'
        f'<img src="{prefix}charts/{escape(chart.chart_id)}.svg" alt="{escape(description)}">'
        f"</div>"
        f'<script type="application/json" id="{escape(chart.chart_id)}-spec">'
        f"{chart.spec_json()}</script>"
        f"<details><summary>{escape(data_label)}</summary>"
        f"{to_html(chart.table)}</details></figure>"
    )


class PageWriter:
    """Renders every page of one language into `docs_dir/<language>/`."""

    def __init__(self, templates_dir: Path, language: str, docs_dir: Path) -> None:
        self.tr = Translator(language)
        self.root = docs_dir / language
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(templates_dir / "pages"),
            autoescape=False,
            finalize=self._finalize,
            undefined=jinja2.StrictUndefined,
            keep_trailing_newline=True,
            trim_blocks=True,
            lstrip_blocks=True,
        )
        self.env.globals.update(self._globals())
        self.env.filters.update(self._filters())

    @staticmethod
    def _finalize(value: object) -> object:
        # Markup is ours (tables, charts, catalogue text); everything else is data.
        if isinstance(value, Markup):
            return value
        return escape_markdown(value)

    def _message_markup(self, key: str, **params: object) -> Markup:
        """A catalogue message that may contain Markdown; its parameters are data."""
        safe = {k: v if isinstance(v, Markup) else escape_markdown(v) for k, v in params.items()}
        return Markup(self.tr(key, **safe))

    def _globals(self) -> dict[str, Any]:
        tr = self.tr
        return {
            "t": tr,
            "tm": self._message_markup,
            "lang": tr.language,
            "nav_pages": NAV_PAGES,
            "html_table": to_html,
            "collapsed": collapsed,
            "tables": tables,
            "stats_tables": stats_tables,
            "language_tables": language_tables,
            "ref_tables": reference_tables,
        }

    def _filters(self) -> dict[str, Callable[..., Any]]:
        tr = self.tr

        def pick(value: Mapping[str, str]) -> str:
            return tr.pick(value)

        def stigma_name(row: Any) -> str:
            return str(row.name_pt if tr.language == "pt-BR" else row.name_en)

        def long_date(value: date) -> str:
            return tr.date(value)

        def slug(value: str) -> Markup:
            # ids from the archive are validated slugs; refuse anything else in a URL
            if not _SLUG.fullmatch(value):
                raise ValueError(f"not a slug: {value!r}")
            return Markup(value)

        def slug_path(value: str) -> Markup:
            # a folder path made of slugs ("models/<round_id>/")
            parts = value.strip("/").split("/")
            for part in parts:
                slug(part)
            return Markup("/".join(parts) + "/")

        def href(value: str) -> Markup:
            # a relative URL assembled by the templates: percent-encoded, then attribute-escaped
            return Markup(escape(quote(value, safe="/._-")))

        def link(value: str) -> Markup:
            # an address from site.yml, validated when the config was loaded
            return Markup(escape(value))

        return {
            "link": link,
            "slug": slug,
            "slug_path": slug_path,
            "href": href,
            "pct": tr.percent,
            "int": tr.integer,
            "num": tr.decimal,
            "pts": tr.points,
            "pval": tr.pvalue,
            "ldate": long_date,
            "pick": pick,
            "stigma_name": stigma_name,
        }

    def write(self, template: str, relative: str, **context: Any) -> Path:
        depth = relative.count("/")
        try:
            text = self.env.get_template(template).render(
                depth=depth, up=Markup("../" * depth), **context
            )
        except jinja2.TemplateError as error:
            line = getattr(error, "lineno", None) or _template_line(error)
            where = f"{template}, line {line}" if line else template
            raise TemplateRenderError(
                f"templates/pages/{where}: {error.message or error}"
            ) from None
        target = self.root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
        return target

    def write_chart(self, chart: ChartOutput) -> None:
        target = self.root / "charts" / f"{chart.chart_id}.svg"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(chart.svg, encoding="utf-8")


def _round_charts(
    writer: PageWriter, view: RoundView, region: ReferenceRegion
) -> dict[str, Markup]:
    tr = writer.tr
    data_label = tr("chart.data_table")
    scatter = bias_omission_scatter(f"scatter-{view.round_id}", view.models, tr, region)
    writer.write_chart(scatter)
    charts = {"scatter": chart_markup(scatter, tr("chart.scatter.description"), data_label, 0)}
    if view.stats is not None and view.stats.language.pairs:
        for regime in ("abstention", "omission"):
            rates = []
            for entry in view.stats.language.models:
                by_language = {r.language: getattr(r, regime) for r in entry.rates}
                rates.append(
                    (view.name_of(entry.model_id), by_language.get("pt-BR"), by_language.get("en"))
                )
            chart = language_dots(f"language-{regime}-{view.round_id}", rates, tr)
            writer.write_chart(chart)
            charts[f"language_{regime}"] = chart_markup(
                chart, tr("language.chart.description"), data_label, 0
            )
    return charts


def _model_chart(writer: PageWriter, page: ModelPage) -> Markup:
    """The page's bias-by-style chart, written beside the other charts."""
    tr = writer.tr
    style_chart = composition_bars(
        f"style-{page.round.round_id}-{page.model.model_id}",
        page.model,
        {style: share.rate for style, share in page.breakdown.by_style.items()},
        tr,
    )
    writer.write_chart(style_chart)
    return chart_markup(
        style_chart, tr("chart.style.description"), tr("chart.data_table"), page.depth
    )


def write_sources(
    site: SiteContext, templates_dir: Path, docs_dir: Path, languages: Sequence[str] = ()
) -> list[Path]:
    """Write every page of every language; returns the files written."""
    written: list[Path] = []
    pages = site_pages(site)
    for language in languages or SITE_LANGUAGES:
        writer = PageWriter(templates_dir, language, docs_dir)
        charts = {view.round_id: _round_charts(writer, view, site.region) for view in site.rounds}
        for page in pages:
            variables = {"site": site, "charts": charts, **page.variables()}
            if isinstance(page, ModelPage):
                variables["style_chart"] = _model_chart(writer, page)
            written.append(writer.write(page.template, page.path, **variables))
    return written
