"""Page sources: contexts -> Markdown (Jinja2) + charts, one tree per language.

`write_sources` fills `docs/<language>/` (mkdocs-static-i18n's folder layout).
Templates receive language-neutral contexts and format them through filters;
every value that is not already markup goes through `escape_markdown`, so data
(a model name, a stigma name, a reason) can never become markup.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup, escape

from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.render import reference_tables, stats_tables, tables
from reportgen.render.charts import (
    ChartOutput,
    ReferenceRegion,
    bias_omission_scatter,
    composition_bars,
)
from reportgen.render.context import RoundView
from reportgen.render.siteconfig import SiteConfig
from reportgen.render.table import Table, escape_markdown, to_html

_SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")

# (page file stem, catalogue key of its navigation title), in navigation order.
NAV_PAGES: tuple[tuple[str, str], ...] = (
    ("index", "nav.home"),
    ("ranking", "nav.ranking"),
    ("models", "nav.models"),
    ("compare", "nav.compare"),
    ("bias", "nav.bias"),
    ("language", "nav.language"),
    ("continuous", "nav.continuous"),
    ("methodology", "nav.methodology"),
    ("audit", "nav.audit"),
    ("contestations", "nav.contestations"),
    ("data", "nav.data"),
)


@dataclass(frozen=True)
class SiteContext:
    """What every page may draw on: the article, the primary round, all rounds."""

    config: SiteConfig
    primary: RoundView
    rounds: tuple[RoundView, ...]  # every built round, full rounds first
    audits: Mapping[str, Mapping[str, Any]]  # round_id -> audit export
    region: ReferenceRegion
    software: Mapping[str, str]  # package -> version

    @property
    def continuous(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.kind == "continuous")

    @property
    def synthetic_rounds(self) -> tuple[RoundView, ...]:
        return tuple(r for r in self.rounds if r.synthetic)


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
            "tables": tables,
            "stats_tables": stats_tables,
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

        return {
            "slug": slug,
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
        text = self.env.get_template(template).render(depth=depth, up="../" * depth, **context)
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
    scatter = bias_omission_scatter(f"scatter-{view.round_id}", view.models, tr, region)
    writer.write_chart(scatter)
    return {
        "scatter": chart_markup(
            scatter, tr("chart.scatter.description"), tr("chart.data_table"), 0
        ),
    }


def write_sources(
    site: SiteContext, templates_dir: Path, docs_dir: Path, languages: Sequence[str] = ()
) -> list[Path]:
    """Write every page of every language; returns the files written."""
    written: list[Path] = []
    for language in languages or SITE_LANGUAGES:
        writer = PageWriter(templates_dir, language, docs_dir)
        tr = writer.tr
        charts = {view.round_id: _round_charts(writer, view, site.region) for view in site.rounds}
        common: dict[str, Any] = {"site": site, "primary": site.primary, "charts": charts}
        for stem, _ in NAV_PAGES:
            written.append(writer.write(f"{stem}.md.j2", f"{stem}.md", **common))
        view = site.primary
        for row in view.models:
            breakdown = view.breakdowns[row.model_id]
            style_chart = composition_bars(
                f"style-{view.round_id}-{row.model_id}",
                row,
                {s: share.rate for s, share in breakdown.by_style.items()},
                tr,
            )
            writer.write_chart(style_chart)
            written.append(
                writer.write(
                    "model.md.j2",
                    f"models/{row.model_id}.md",
                    model=row,
                    breakdown=breakdown,
                    style_chart=chart_markup(
                        style_chart, tr("chart.style.description"), tr("chart.data_table"), 1
                    ),
                    **common,
                )
            )
    return written


def table_html(table: Table) -> Markup:
    return to_html(table)
