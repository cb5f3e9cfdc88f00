"""Page contexts of the pages about the primary round's results, for one language:
home, ranking, compare, bias, language, and the continuous rounds."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from markupsafe import Markup

from reportgen.archive import MIN_PUBLICATION_REPLICATES
from reportgen.i18n import MISSING
from reportgen.kinds.estigmas.render import fairness_tables, language_tables, stats_tables, tables
from reportgen.kinds.estigmas.render.aggregates import local_marker_total
from reportgen.kinds.estigmas.render.charts import SvgCache
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.heatmaps import HEATMAP_MODELS, axis_heatmap, stigma_heatmap
from reportgen.kinds.estigmas.render.home_numbers import adjacent_ties, finding_numbers
from reportgen.kinds.estigmas.render.page_common import (
    PageText,
    RoundCharts,
    chart_ref,
    citation,
    config_link,
    href,
    page_head,
    site_root,
    slug,
)
from reportgen.kinds.estigmas.render.page_types import (
    BiasPage,
    BiasStatistics,
    Collapsed,
    ContinuousPage,
    ContinuousSection,
    Figure,
    HomePage,
    LanguagePage,
    LanguageStudy,
    Link,
    RankingPage,
    RankingStatistics,
)
from reportgen.kinds.estigmas.render.pair_scope import pairwise_note
from reportgen.kinds.estigmas.render.site import NAV_PAGES, SiteContext
from reportgen.render.table import Table


def _synthetic(site: SiteContext) -> tuple[str, ...]:
    return tuple(view.round_id for view in site.synthetic_rounds)


def local_markers_figures(site: SiteContext, text: PageText) -> tuple[Figure, ...]:
    """The local markers' share of the round's biased answers (none without local markers)."""
    tr, view = text.tr, site.primary
    local = local_marker_total(view.breakdowns.values())
    if not view.local_stigmas or not local.total or not view.total_biased:
        return ()
    label = text.t(
        "home.local_markers",
        markers=tr.integer(view.local_stigmas),
        evaluations=tr.integer(local.total),
        rate=tr.percent(local.rate),
        share=tr.percent(local.count / view.total_biased),
        biased=tr.integer(view.total_biased),
    )
    return (Figure(tr.integer(local.count), label),)


def _figure_caption(site: SiteContext, text: PageText) -> Markup:
    tr, region = text.tr, site.region
    if region is None:  # its bounds are still placeholders in site.yml: no region drawn
        return text.tm("home.figure_caption_no_region")
    return text.tm(
        "home.figure_caption",
        max_bias=tr.percent(region.max_bias, 0),
        max_omission=tr.percent(region.max_omission, 0),
    )


def home_page(site: SiteContext, text: PageText, charts: Mapping[str, RoundCharts]) -> HomePage:
    tr, view, config = text.tr, site.primary, site.config
    best = view.ranked[0] if view.ranked else None
    title = text.pick(config.title)
    # Metadata still tagged !placeholder in site.yml is None here and left off the page.
    links = [
        Link(text.t(key), config_link(url)) if url else None
        for key, url in (
            ("home.article_link", config.article_url),
            ("home.repository_link", config.repository_url),
        )
    ]
    return HomePage(
        head=page_head(text.t("nav.home"), text, _synthetic(site)),
        article_title=title,
        finding=text.tm("home.finding", models=tr.integer(len(view.models)), N=tr.integer(view.N)),
        best=text.tm(
            "home.best",
            model=best.score.display_name,
            index=tr.percent(best.score.index),
            ranked=tr.integer(len(view.ranked)),
            diagnostic=tr.integer(len(view.diagnostic)),
        )
        if best
        else None,
        ties=adjacent_ties(view, text) if best else None,
        numbers=finding_numbers(view, text),
        # Figure 1's caption belongs to the figure: it is printed in its <figcaption>.
        scatter=replace(charts[view.round_id].scatter, caption=_figure_caption(site, text)),
        headline_heading=text.t("home.headline"),
        headline=(
            Figure(tr.integer(view.N), text.t("home.scored_items")),
            Figure(tr.integer(len(view.models)), text.t("home.models")),
            Figure(tr.integer(view.total_biased), text.t("home.biased_responses")),
            Figure(tr.integer(view.stigma_count), text.t("home.stigmas")),
            *local_markers_figures(site, text),
        ),
        sections_heading=text.t("home.sections"),
        sections=tuple(Link(text.t(key), slug(stem) + ".md") for stem, key in NAV_PAGES[1:]),
        article_heading=text.t("home.article"),
        article_body=text.tm("home.article_body", title=title, doi=config.doi)
        if config.doi
        else text.tm("home.article_body_no_doi", title=title),
        authors_label=text.t("home.authors"),
        authors=", ".join(config.authors) or None,
        doi=config.doi,
        article_link=links[0],
        repository_link=links[1],
        citation=citation(config, text, site.section_depth),
    )


def _draft(replicates: int, text: PageText) -> str | None:
    """The draft notice of statistics from fewer replicates than a publication needs."""
    if replicates >= MIN_PUBLICATION_REPLICATES:
        return None
    return text.t(
        "stats.draft",
        replicates=text.tr.integer(replicates),
        minimum=text.tr.integer(MIN_PUBLICATION_REPLICATES),
    )


def _ranking_statistics(site: SiteContext, text: PageText) -> RankingStatistics | None:
    tr, view = text.tr, site.primary
    if view.stats is None:
        return None
    by_N, by_n = tables.interval_metrics()
    error = view.stats.endpoint_error
    by_n_table = tables.intervals(view, tr, by_n)
    not_drawn = pairwise_note(view, tr)  # the matrix of a round past ALL_PAIRS_UP_TO models
    # The Monte Carlo error of the endpoints is stated under the intervals.
    monte_carlo = text.t(
        "ranking.monte_carlo",
        replicates=tr.integer(view.stats.replicates),
        error=tr.decimal(100 * error, 2) if error is not None else MISSING,
    )
    return RankingStatistics(
        draft=_draft(view.stats.replicates, text),
        intervals_by_N=tables.intervals(view, tr, by_N),
        intervals_by_n=replace(by_n_table, notes=(*by_n_table.notes, monte_carlo)),
        adjacent_heading=text.t("ranking.adjacent"),
        adjacent=stats_tables.adjacent(view, tr),
        adjacent_body=text.t("ranking.adjacent_body"),
        sensitivity_heading=text.t("ranking.sensitivity"),
        sensitivity=stats_tables.sensitivity(view, tr),
        pairwise_heading=text.t("ranking.pairwise"),
        pairwise_body=not_drawn or text.t("ranking.pairwise_body"),
        pairwise=None if not_drawn else stats_tables.pairwise(view, tr),
    )


def ranking_page(site: SiteContext, text: PageText) -> RankingPage:
    tr, view = text.tr, site.primary
    return RankingPage(
        head=page_head(text.t("nav.ranking"), text, _synthetic(site)),
        intro=text.tm(
            "ranking.intro", round=text.pick(view.title), date=tr.date(view.collected_on)
        ),
        ranking=tables.ranking(view, tr) if view.ranked else None,
        no_ranking=text.t("ranking.none"),
        eligibility=text.tm("ranking.eligibility", max_omission=tr.percent(view.max_omission, 0)),
        diagnostic_heading=text.t("ranking.diagnostic"),
        diagnostic=tables.ranking(view, tr, diagnostic=True) if view.diagnostic else None,
        diagnostic_body=text.t("ranking.diagnostic_body"),
        intervals_heading=text.t("ranking.intervals"),
        statistics=_ranking_statistics(site, text),
        stats_unavailable=text.t("stats.unavailable"),
    )


def _bias_statistics(site: SiteContext, text: PageText) -> BiasStatistics | None:
    tr, view = text.tr, site.primary
    stats = view.stats
    if stats is None:
        return None
    gender_tests = tuple(
        Collapsed(
            text.t(
                "stats.show_tests",
                count=tr.integer(len(tests.tests)),
                subject=view.name_of(tests.tests[0].subject.partition("/")[0]),
            ),
            stats_tables.family(view, tr, tests, "stats.family.gender"),
        )
        for tests in stats.gender_tests
        if tests.tests
    )
    peril = stats_tables.family(view, tr, stats.peril, "stats.family.peril")
    draft = _draft(stats.replicates, text)
    return BiasStatistics(
        # A draft's notice goes under the page's first table of statistics.
        peril=replace(peril, notes=(draft, *peril.notes)) if draft else peril,
        style=stats_tables.family(view, tr, stats.style, "stats.family.style"),
        race=stats_tables.family(view, tr, stats.race, "stats.family.race"),
        origin=stats_tables.family(view, tr, stats.origin, "stats.family.origin"),
        gender=stats_tables.gender(view, tr),
        gender_tests=gender_tests,
        association_heading=text.t("bias.association"),
        correlation=stats_tables.correlation(view, tr),
        mcnemar=Collapsed(
            text.t("stats.show_mcnemar", count=tr.integer(len(stats.mcnemar))),
            stats_tables.mcnemar_all(view, tr),
        ),
        fairness_heading=text.t("bias.fairness"),
        fairness_body=text.t("bias.fairness_body"),
        fairness=fairness_tables.fairness(view, tr),
    )


def _heatmaps_capped(site: SiteContext, text: PageText) -> Markup | None:
    """Past HEATMAP_MODELS models: the heatmaps show the first ones, and every model's
    rates are in the round's stigmas.csv and axes.csv."""
    view = site.primary
    if len(view.models) <= HEATMAP_MODELS:
        return None
    data = f"{site_root(text.tr.language, site.section_depth)}data/{view.round_id}/"
    return text.tm(
        "bias.heatmaps_capped",
        total=text.tr.integer(len(view.models)),
        shown=text.tr.integer(HEATMAP_MODELS),
        stigmas=href(f"{data}stigmas.csv"),
        axes=href(f"{data}axes.csv"),
    )


def _slices(view: RoundView, text: PageText, name: str, keys: tuple[str, ...], pick: str) -> Table:
    """`tables.slices` of the table `<name>-<round id>`, captioned `bias.<name>`, with the
    columns `keys` of the breakdown field `pick`, each titled by its label."""
    labels = {"bands": "band", "styles": "style", "axes": "axis", "gender": "gender"}
    columns = {key: text.t(f"{labels[name]}.{key}") for key in keys}
    return tables.slices(
        view, text.tr, f"{name}-{view.round_id}", text.t(f"bias.{name}"), columns, pick
    )


# long: one keyword per field of BiasPage, in template order
def bias_page(site: SiteContext, text: PageText, svgs: SvgCache) -> BiasPage:
    tr, view = text.tr, site.primary

    bands, styles = text.t("bias.bands"), text.t("bias.styles")
    axes, gender = text.t("bias.axes"), text.t("bias.gender")
    return BiasPage(
        head=page_head(text.t("nav.bias"), text, _synthetic(site)),
        intro=text.t("bias.intro"),
        caution=text.t("caution.groups"),
        heatmaps_heading=text.t("bias.heatmaps"),
        heatmaps_body=text.t("bias.heatmaps_body"),
        heatmaps_capped=_heatmaps_capped(site, text),
        stigma_heatmap=chart_ref(
            stigma_heatmap(view, tr, svgs), text, "chart.heatmap_stigma.description", 0
        ),
        axis_heatmap=chart_ref(
            axis_heatmap(view, tr, svgs), text, "chart.heatmap_axis.description", 0
        ),
        bands_heading=bands,
        bands_body=text.tm(
            "bias.bands_body",
            low=tr.decimal(view.peril_bands[0], 1),
            medium=tr.decimal(view.peril_bands[1], 1),
            n_low=tr.integer(view.band_sizes["low"]),
            n_medium=tr.integer(view.band_sizes["medium"]),
            n_high=tr.integer(view.band_sizes["high"]),
        ),
        bands=_slices(view, text, "bands", ("low", "medium", "high"), "by_band"),
        styles_heading=styles,
        styles=_slices(view, text, "styles", ("original", "doubt", "positive"), "by_style"),
        axes_heading=axes,
        axes=_slices(view, text, "axes", ("race", "origin"), "by_axis"),
        gender_heading=gender,
        gender=_slices(view, text, "gender", ("male", "female", "unspecified"), "by_gender_bias"),
        markers_heading=text.t("bias.markers"),
        markers_body=text.tm("bias.markers_body", count=tr.integer(view.local_stigmas)),
        markers=tables.markers(view, tr),
        statistics=_bias_statistics(site, text),
        stats_unavailable=text.t("stats.unavailable"),
    )


def language_page(
    site: SiteContext, text: PageText, charts: Mapping[str, RoundCharts]
) -> LanguagePage:
    tr, view = text.tr, site.primary
    study = None
    language_charts = charts[view.round_id].language
    if view.stats is not None and view.stats.language.pairs and language_charts is not None:
        study = LanguageStudy(
            pairs=text.tm(
                "language.pairs",
                pairs=tr.integer(view.stats.language.pairs),
                responses=tr.integer(view.stats.language.responses_per_language),
            ),
            means=language_tables.language_means(view, tr),
            regimes=language_tables.language_regimes(view, tr),
            abstention_chart=language_charts[0],
            omission_chart=language_charts[1],
            models=language_tables.language_models(view, tr),
        )
    return LanguagePage(
        head=page_head(text.t("nav.language"), text, _synthetic(site)),
        intro=text.t("language.intro"),
        study=study,
        unavailable=text.t("language.unavailable"),
    )


def _continuous_section(
    view: RoundView, text: PageText, charts: Mapping[str, RoundCharts]
) -> ContinuousSection:
    tr = text.tr
    # The snapshot is the date of its latest evaluation (the round's title names it too);
    # `collected_on` is when the first models were evaluated.
    evaluated = [row.evaluated_on for row in view.models] or [view.collected_on]
    by_N, by_n = tables.interval_metrics()
    return ContinuousSection(
        title=text.pick(view.title),
        snapshot=text.tm(
            "continuous.snapshot",
            date=tr.date(max(evaluated)),
            first=tr.date(min(evaluated)),
            N=tr.integer(view.N),
            n=tr.integer(view.n),
            annulled=tr.integer(len(view.annulments)),
            models=tr.integer(len(view.models)),
            ranked=tr.integer(len(view.ranked)),
            diagnostic=tr.integer(len(view.diagnostic)),
        ),
        ranking=tables.ranking(view, tr, caption_key="continuous.ranking.caption")
        if view.ranked
        else None,
        diagnostic=tables.ranking(view, tr, diagnostic=True) if view.diagnostic else None,
        intervals=(tables.intervals(view, tr, by_N), tables.intervals(view, tr, by_n))
        if view.stats is not None
        else (),
        scatter=charts[view.round_id].scatter,
    )


def continuous_page(
    site: SiteContext, text: PageText, charts: Mapping[str, RoundCharts]
) -> ContinuousPage:
    return ContinuousPage(
        head=page_head(text.t("nav.continuous"), text, _synthetic(site)),
        intro=text.t("continuous.intro"),
        rounds=tuple(_continuous_section(view, text, charts) for view in site.continuous),
        no_ranking=text.t("ranking.none"),
        no_rounds=text.t("continuous.none"),
    )
