"""The group-fairness table: every gap with its interval, permutation p, flag and whether it
can be told apart from noise, and the article's caution beside it (docs/metrics.md).

Only formatting happens here: every number comes from `RoundResults.fairness`.
"""

from __future__ import annotations

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.stats_tables import interval_text, require_stats
from reportgen.kinds.estigmas.stats.fairness import (
    INVESTIGATE_ABOVE,
    MIN_GROUP_ITEMS,
    SERIOUS_ABOVE,
    GroupGap,
)
from reportgen.render.table import Cell, Table, numeric_headers, text_cells


def _flag_text(tr: Translator, gap: GroupGap) -> str:
    """The flag as "above N points" (a size band, not a verdict), or why a large gap has none.

    N comes from the thresholds themselves, so the page cannot drift from the computation."""
    if gap.flag is not None:
        above = SERIOUS_ABOVE if gap.flag == "serious" else INVESTIGATE_ABOVE
        return tr(f"stats.flag.{gap.flag}", points=tr.integer(int(above * 100)))
    if gap.reason is not None:
        return tr("stats.flag.too_few", items=tr.integer(MIN_GROUP_ITEMS))
    return tr("stats.flag.none")


def _noise_text(tr: Translator, gap: GroupGap) -> str:
    if gap.p_adjusted is None:
        return tr("stats.not_computable")
    return tr("stats.noise.apart") if gap.distinguishable else tr("stats.noise.not_apart")


def fairness(view: RoundView, tr: Translator) -> Table:
    """One row per gap: value, interval, permutation p, flag and whether it is noise."""
    stats = require_stats(view)
    rows = tuple(
        (
            Cell(view.name_of(f.model_id)),
            Cell(tr(f"axis.{f.axis}")),
            Cell(tr(f"stats.{name}_gap")),
            Cell(tr.points(gap.gap), gap.gap, numeric=True),
            Cell(interval_text(tr, gap.lower, gap.upper)),
            Cell(tr.pvalue(gap.p_value), gap.p_value, numeric=True),
            Cell(tr.pvalue(gap.p_adjusted), gap.p_adjusted, numeric=True),
            Cell(_flag_text(tr, gap)),
            Cell(_noise_text(tr, gap)),
        )
        for f in stats.fairness
        for name, gap in (("parity", f.parity), ("opportunity", f.opportunity))
    )
    return Table(
        table_id=f"fairness-{view.round_id}",
        caption=tr("stats.fairness.caption"),
        header=(
            *text_cells(tr, "table.model", "table.axis", "stats.gap"),
            Cell(tr("table.value"), numeric=True),
            Cell(tr("stats.interval")),
            *numeric_headers(tr, "stats.p_permutation", "stats.p_bh"),
            *text_cells(tr, "stats.flag", "stats.noise"),
        ),
        rows=rows,
        sortable=True,
        notes=(
            tr("stats.fairness.caution"),
            tr(
                "stats.fairness.method",
                items=tr.integer(MIN_GROUP_ITEMS),
                permutations=tr.integer(stats.permutations),
                seed=tr.integer(stats.seed),
            ),
        ),
    )
