"""The compare page's context, for one language: every round, its models side by side,
and the index difference of each pair the page lists with its interval, read from the
bootstrap replicates when the site is built (`results.pair_differences`, through
`RoundView.compared`), so that a round of any size needs no all-pairs matrix.

The reader's choice lives in the URL, `compare.html?round=<id>&a=<id>&b=<id>`, read by
the theme's script (templates/overrides/assets/rg/site.js); `compare_href` builds it."""

from __future__ import annotations

from dataclasses import replace

from markupsafe import Markup

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render import tables
from reportgen.kinds.estigmas.render.context import ModelRow, RoundView
from reportgen.kinds.estigmas.render.page_common import PageText, page_head, slug
from reportgen.kinds.estigmas.render.page_types import (
    Collapsed,
    CompareOption,
    ComparePage,
    CompareRound,
)
from reportgen.kinds.estigmas.render.site import SiteContext
from reportgen.kinds.estigmas.render.stats_tables import interval_text, require_stats
from reportgen.render.table import Cell, Table, text_cells


def compare_href(view: RoundView, row: ModelRow, up: str) -> Markup | None:
    """The permalink comparing `row` with its neighbour in the ranking (the next model, or
    the one before for the last); None in a round of a single model."""
    ids = view.model_ids
    if len(ids) < 2:
        return None
    at = ids.index(row.model_id)
    other = ids[at + 1] if at + 1 < len(ids) else ids[at - 1]
    return (
        Markup(up)
        + Markup("compare.md?round=")
        + slug(view.round_id)
        + Markup("&a=")
        + slug(row.model_id)
        + Markup("&b=")
        + slug(other)
    )


def differences(view: RoundView, tr: Translator) -> Table:
    """The index difference of every pair the page lists (first minus second), read from
    the bootstrap replicates at build time (`RoundView.compared`): every ordered pair up
    to `ALL_PAIRS_UP_TO` models, beyond it each model and the next one in the ranking's
    order, both ways, which the caption says.

    The first two cells carry the models' ids as their machine values: the compare
    page's script finds the chosen pair's row by them."""
    require_stats(view)
    name = {row.model_id: row.score.display_name for row in view.models}
    rows = []
    for found in view.compared:
        verdict = tr("stats.separated") if found.separated else tr("stats.technical_tie")
        rows.append(
            (
                Cell(name[found.model_a], found.model_a),
                Cell(name[found.model_b], found.model_b),
                Cell(tr.points(found.estimate), found.estimate, numeric=True),
                Cell(interval_text(tr, found.lower, found.upper)),
                Cell(verdict),
            )
        )
    models = len(view.models)
    every = len(rows) == models * (models - 1)
    return Table(
        table_id=f"differences-{view.round_id}",
        caption=tr("compare.differences.caption")
        if every
        else tr(
            "compare.differences.caption_next",
            models=tr.integer(models),
            pairs=tr.integer(models * (models - 1)),
        ),
        header=(
            *text_cells(tr, "compare.first", "compare.second"),
            Cell(tr("stats.difference"), numeric=True),
            *text_cells(tr, "stats.interval", "stats.verdict"),
        ),
        rows=tuple(rows),
    )


def _compare_round(view: RoundView, text: PageText) -> CompareRound:
    tr = text.tr
    side_by_side = tables.compare(view, tr)
    pairs = differences(view, tr) if view.stats is not None else None
    return CompareRound(
        round_id=slug(view.round_id),
        title=text.pick(view.title),
        options=tuple(
            CompareOption(slug(row.model_id), row.score.display_name) for row in view.models
        ),
        # One table per round: its id names the round.
        table=replace(side_by_side, table_id=f"compare-{view.round_id}"),
        differences=Collapsed(
            text.t("compare.differences.show", count=tr.integer(len(pairs.rows))), pairs
        )
        if pairs is not None
        else None,
    )


def compare_page(site: SiteContext, text: PageText) -> ComparePage:
    """Every round is offered, the primary one first."""
    others = [view for view in site.rounds if view is not site.primary]
    return ComparePage(
        head=page_head(
            text.t("nav.compare"), text, tuple(view.round_id for view in site.synthetic_rounds)
        ),
        intro=text.t("compare.intro"),
        round_label=text.t("compare.round"),
        first_label=text.t("compare.first"),
        second_label=text.t("compare.second"),
        permalink_label=text.t("compare.permalink"),
        rounds=tuple(_compare_round(view, text) for view in (site.primary, *others)),
        stats_unavailable=text.t("stats.unavailable"),
        caution=text.t("caution.groups"),
    )
