"""The Estigmas site as the build sees it: one entry point, `estigmas_site`.

The build (reportgen/build.py) stays generic: it asks this object for the navigation,
the date the site is stamped with, the Markdown sources of one language and the
downloads. Everything Estigmas-specific (views, statistics, page contexts, templates)
stays behind it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.render import pages
from reportgen.kinds.estigmas.render.chart_files import write_chart_files
from reportgen.kinds.estigmas.render.charts import ChartOutput, SvgCache
from reportgen.kinds.estigmas.render.compare_page import compare_page
from reportgen.kinds.estigmas.render.downloads import download_files, write_downloads
from reportgen.kinds.estigmas.render.page_common import PageText, round_charts
from reportgen.kinds.estigmas.render.page_types import BiasPage, ModelPage, SitePage
from reportgen.kinds.estigmas.render.reference_pages import (
    audit_page,
    contestations_page,
    data_page,
    methodology_page,
    model_page,
    models_page,
)
from reportgen.kinds.estigmas.render.round_pages import (
    bias_page,
    continuous_page,
    home_page,
    language_page,
    ranking_page,
)
from reportgen.kinds.estigmas.render.site import NAV_PAGES, Progress, SiteContext, site_context
from reportgen.render.drawing import POOL_MIN
from reportgen.render.siteconfig import SiteConfig


@dataclass(frozen=True)
class PageFile:
    path: str  # under docs/<language>/
    page: SitePage


@dataclass(frozen=True)
class LanguagePages:
    """Every page of the site in one language, and the charts they show."""

    language: str
    pages: tuple[PageFile, ...]  # navigation pages first, in navigation order
    charts: tuple[ChartOutput, ...]


def language_pages(site: SiteContext, language: str, svgs: SvgCache) -> LanguagePages:
    """The page contexts of every page in `language` (the same list in every language)."""
    text = PageText(Translator(language))
    charts = {view.round_id: round_charts(view, text, site.region, svgs) for view in site.rounds}
    sections: dict[str, SitePage] = {
        "index": home_page(site, text, charts),
        "ranking": ranking_page(site, text),
        "models": models_page(site, text),
        "compare": compare_page(site, text),
        "bias": bias_page(site, text, svgs),
        "language": language_page(site, text, charts),
        "continuous": continuous_page(site, text, charts),
        "methodology": methodology_page(site, text),
        "audit": audit_page(site, text),
        "contestations": contestations_page(site, text),
        "data": data_page(site, text),
    }
    files = [PageFile(f"{stem}.md", sections[stem]) for stem, _ in NAV_PAGES]
    models: list[ModelPage] = []
    for view in site.rounds:
        for row in view.models:
            models.append(model_page(site, view, row, text, svgs))
            files.append(PageFile(f"{view.models_dir}{row.model_id}.md", models[-1]))
    outputs = [chart for c in charts.values() for chart in c.outputs]
    bias = sections["bias"]
    assert isinstance(bias, BiasPage)
    outputs += [bias.stigma_heatmap.chart, bias.axis_heatmap.chart]
    outputs += [ref.chart for page in models for ref in (page.failure_chart, page.style_chart)]
    return LanguagePages(language, tuple(files), tuple(outputs))


@dataclass(frozen=True)
class EstigmasSite:
    """The Estigmas pages of one build (a reportgen.render.site_source.SiteSource)."""

    context: SiteContext
    svgs: SvgCache
    templates_dir: Path | None = None  # None: the page templates shipped with the package
    # The charts of each language whose sources are written, until their files are.
    charts: dict[str, tuple[ChartOutput, ...]] = field(default_factory=dict, compare=False)

    @property
    def nav(self) -> tuple[str, ...]:
        """The navigation's Markdown files, in order."""
        return tuple(f"{stem}.md" for stem, _ in NAV_PAGES)

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]:
        return {}  # the page titles come from each page's own front matter

    @property
    def source_date(self) -> date:
        """The date the build is stamped with: the latest collection date."""
        return max(view.collected_on for view in self.context.rounds)

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        """Write every page of `language` into `pages_dir`; its charts are started."""
        built = language_pages(self.context, language, self.svgs)
        # Every chart not drawn by an earlier build, started at once (over the cores): the
        # pages only link to the drawings, so the build goes on while they are drawn, and
        # `write_assets` writes them once MkDocs is done.
        self._keep_charts(language, built.charts, background=len(built.pages) >= POOL_MIN)
        return self._write(pages_dir, built)

    def before_fork(self) -> None:
        """The downloads, whose checksums the data page of every language lists (made once
        per view, some seconds at a thousand models)."""
        for view in self.context.rounds:
            download_files(view)

    def write_pages(self, pages_dir: Path, language: str) -> tuple[ChartOutput, ...]:
        """`write_sources` in a forked process (reportgen/render/forked_pages.py): the
        charts are returned for `adopt_pages`, not started."""
        built = language_pages(self.context, language, self.svgs)
        self._write(pages_dir, built)
        return built.charts

    def adopt_pages(self, language: str, state: object) -> None:
        """The charts `write_pages` returned, bound to this process's drawings, started."""
        if not isinstance(state, tuple) or not all(isinstance(c, ChartOutput) for c in state):
            raise TypeError(f"not the charts of the {language} pages: {type(state).__name__}")
        drawings = self.svgs.drawings
        charts = tuple(replace(c, drawing=drawings.rebound(c.drawing)) for c in state)
        self._keep_charts(language, charts, background=True)

    def _keep_charts(
        self, language: str, charts: tuple[ChartOutput, ...], *, background: bool
    ) -> None:
        self.svgs.drawings.start_all([c.drawing for c in charts], background=background)
        self.charts[language] = charts

    def _write(self, pages_dir: Path, built: LanguagePages) -> list[Path]:
        writer = pages.PageWriter(self.templates_dir or pages.PAGE_TEMPLATES, pages_dir)
        return [writer.write(file.path, file.page) for file in built.pages]

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        """Each chart's SVG, PNG and CSV under `pages_dir/charts/` (waiting for drawings)."""
        try:
            charts_dir = pages_dir / "charts"
            charts_dir.mkdir(parents=True, exist_ok=True)
            return [
                p for c in self.charts.pop(language, ()) for p in write_chart_files(c, charts_dir)
            ]
        finally:
            if not self.charts:
                self.svgs.drawings.finish()

    def download_files(self) -> dict[str, bytes]:
        """Every round's CSV and JSON downloads, by their path in the site (their checksums,
        SHA256SUMS, are left to `write_downloads`)."""
        return {
            f"data/{view.round_id}/{name}": data
            for view in self.context.rounds
            for name, data in download_files(view).items()
        }

    def write_downloads(self, site_dir: Path) -> list[Path]:
        """Every round's CSV and JSON downloads under `site_dir/data/<round_id>/`."""
        return [path for view in self.context.rounds for path in write_downloads(view, site_dir)]


def estigmas_site(
    rounds: Sequence[Round],
    config: SiteConfig,
    *,
    cache_dir: Path | None,
    svgs: SvgCache,
    progress: Progress | None = None,
    section_depth: int = 0,
) -> EstigmasSite:
    """The entry point of the build: the site of verified Estigmas rounds."""
    context = site_context(
        rounds, config, cache_dir=cache_dir, progress=progress, section_depth=section_depth
    )
    return EstigmasSite(context, svgs)
