"""What every page builder shares: the page's text in one language, the common head,
the round's charts, and links assembled from validated slugs."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup, escape

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.charts import (
    ChartOutput,
    ReferenceRegion,
    SvgCache,
    bias_omission_scatter,
    language_dots,
)
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.page_types import (
    ChartRef,
    Citation,
    PageHead,
    SyntheticNotice,
    TextSection,
)
from reportgen.kinds.estigmas.score import ModelScore
from reportgen.model import SLUG
from reportgen.render.citation import bibtex
from reportgen.render.siteconfig import SiteConfig
from reportgen.render.table import escape_markdown


@dataclass(frozen=True)
class PageText:
    """Catalogue text for one language: plain (`t`, escaped when written) or Markdown (`tm`)."""

    tr: Translator

    def t(self, key: str, **params: object) -> str:
        return self.tr(key, **params)

    def tm(self, key: str, **params: object) -> Markup:
        """A catalogue message that may contain Markdown; its parameters are data."""
        safe = {k: v if isinstance(v, Markup) else escape_markdown(v) for k, v in params.items()}
        return Markup(self.tr(key, **safe))

    def pick(self, value: Mapping[str, str]) -> str:
        return self.tr.pick(value)

    def section(self, key: str, **params: object) -> TextSection:
        """The section headed by message `key`, its body the Markdown message `<key>_body`."""
        return TextSection(self.t(key), self.tm(f"{key}_body", **params))


def slug(value: str) -> Markup:
    """An id from the archive inside a URL: validated slugs only."""
    if not SLUG.fullmatch(value):
        raise ValueError(f"not a slug: {value!r}")
    return Markup(value)


def slug_path(value: str) -> Markup:
    """A folder path made of slugs ("models/<round_id>/")."""
    parts = value.strip("/").split("/")
    for part in parts:
        slug(part)
    return Markup("/".join(parts) + "/")


def href(value: str) -> Markup:
    """A relative URL assembled here: percent-encoded, then attribute-escaped."""
    return Markup(escape(quote(value, safe="/._-")))


def config_link(value: str) -> Markup:
    """An address from site.yml (validated when the config was loaded)."""
    return Markup(escape(value))


def page_head(title: str, text: PageText, synthetic_rounds: tuple[str, ...]) -> PageHead:
    notice = (
        SyntheticNotice(
            text.t("notice.synthetic.title"),
            text.t("notice.synthetic.body", rounds=", ".join(synthetic_rounds)),
        )
        if synthetic_rounds
        else None
    )
    return PageHead(title, notice)


def site_root(language: str, section_depth: int) -> str:
    """From a page at the top of its language (and kind section) to the site's root, where
    the files shared by both languages sit (pt-BR is the root, English is under /en/)."""
    return "../" * section_depth + ("" if language == "pt-BR" else "../")


def citation(config: SiteConfig, text: PageText, section_depth: int) -> Citation | None:
    """How to cite the article (none while its authors are a placeholder in site.yml)."""
    entry = bibtex(config)
    if entry is None:
        return None
    cff = href(site_root(text.tr.language, section_depth) + "CITATION.cff")
    return Citation(text.t("home.cite"), text.tm("home.cite_body", href=cff), entry)


def chart_ref(
    chart: ChartOutput,
    text: PageText,
    description_key: str,
    depth: int,
    how_to_read_key: str | None = None,
) -> ChartRef:
    return ChartRef(
        chart,
        text.t(description_key),
        text.t("chart.data_table"),
        depth,
        downloads_label=text.t("chart.downloads"),
        how_to_read=text.t(how_to_read_key) if how_to_read_key else None,
    )


@dataclass(frozen=True)
class RoundCharts:
    """The charts of one round in one language (shared by the pages that show them)."""

    scatter: ChartRef
    language: tuple[ChartRef, ChartRef] | None  # abstention, omission; None without pairs

    @property
    def outputs(self) -> tuple[ChartOutput, ...]:
        return tuple(ref.chart for ref in (self.scatter, *(self.language or ())))


def round_charts(
    view: RoundView, text: PageText, region: ReferenceRegion | None, svgs: SvgCache
) -> RoundCharts:
    tr = text.tr
    scatter = bias_omission_scatter(f"scatter-{view.round_id}", view.models, tr, region, svgs)
    scatter_ref = chart_ref(
        scatter, text, "chart.scatter.description", 0, how_to_read_key="chart.scatter.how_to_read"
    )
    if view.stats is None or not view.stats.language.pairs:
        return RoundCharts(scatter_ref, None)
    refs = []
    for regime in ("abstention", "omission"):
        rates = []
        for entry in view.stats.language.models:
            by_language = {
                r.language: r.abstention if regime == "abstention" else r.omission
                for r in entry.rates
            }
            rates.append(
                (view.name_of(entry.model_id), by_language.get("pt-BR"), by_language.get("en"))
            )
        chart = language_dots(f"language-{regime}-{view.round_id}", rates, tr, svgs)
        refs.append(chart_ref(chart, text, "language.chart.description", 0))
    return RoundCharts(scatter_ref, (refs[0], refs[1]))


def rate_params(tr: Translator, score: ModelScore) -> dict[str, str]:
    """A model's biased answers and omissions as a message's parameters: each count, its
    base (N scored items, n of style positive) and its rate."""
    return {
        "biased": tr.integer(score.biased),
        "N": tr.integer(score.N),
        "bias": tr.percent(score.bias_rate),
        "omissions": tr.integer(score.omissions),
        "n": tr.integer(score.n),
        "omission": tr.percent(score.omission_rate),
    }
