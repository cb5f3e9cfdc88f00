"""What a model's page shows beside its bias by style: its two failures side by side
(bias and omission, with their intervals when the statistics are available), and its
inconclusive outputs in each question style."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.model import SCORED_STYLES
from reportgen.kinds.estigmas.render.aggregates import Share

# The chart builders' shared finish (locale, font) and inline data, so that every chart
# of the site reads the same.
from reportgen.kinds.estigmas.render.charts import ChartOutput, SvgCache, _finish, _inline
from reportgen.kinds.estigmas.render.context import ModelRow, RoundView
from reportgen.render.table import Cell, Table

# Okabe–Ito vermillion and blue: told apart with the common colour-vision deficiencies.
FAILURE_COLOURS = {"bias_rate": "#D55E00", "omission_rate": "#0072B2"}


def _failure_rows(row: ModelRow, tr: Translator) -> list[dict[str, Any]]:
    s = row.score
    counts = {"bias_rate": (s.biased, s.N), "omission_rate": (s.omissions, s.n)}
    return [
        {
            "measure": tr(f"metric.{metric}"),
            "rate": getattr(s, metric),
            "count": f"{tr.integer(counts[metric][0])}/{tr.integer(counts[metric][1])}",
            "lower": row.intervals[metric][0] if metric in row.intervals else None,
            "upper": row.intervals[metric][1] if metric in row.intervals else None,
        }
        for metric in FAILURE_COLOURS
    ]


# long: one declarative Vega-Lite spec, layer by layer
def _failure_spec(datasets: Sequence[list[dict[str, Any]]], tr: Translator) -> dict[str, Any]:
    rows = datasets[0]
    title, rate = tr("chart.failure.title"), tr("chart.failure.rate")
    names = [r["measure"] for r in rows]
    y = alt.Y("measure:N", title=None, sort=names)
    bars = (
        alt.Chart(_inline(rows))
        .mark_bar()
        .encode(
            y=y,
            x=alt.X("rate:Q", title=rate, scale=alt.Scale(domain=[0, 1])).axis(
                format=".0%", values=[0, 0.25, 0.5, 0.75, 1]
            ),
            color=alt.Color(
                "measure:N",
                scale=alt.Scale(domain=names, range=list(FAILURE_COLOURS.values())),
                legend=None,
            ),
            tooltip=[
                alt.Tooltip("measure:N", title=tr("compare.metric")),
                alt.Tooltip("rate:Q", title=rate, format=".1%"),
                alt.Tooltip("count:N", title=tr("chart.failure.count")),
            ],
        )
    )
    with_interval = datasets[1] if len(datasets) > 1 else []
    layers: list[alt.Chart] = [bars]
    if with_interval:
        layers.append(
            alt.Chart(_inline(with_interval))
            .mark_rule(color="#000000", strokeWidth=2)
            .encode(y=y, x="lower:Q", x2="upper:Q")
        )
    layered = alt.layer(*layers).properties(
        width="container", height=90, title=title, description=tr("chart.failure.description")
    )
    return _finish(layered, tr)


def failure_bars(chart_id: str, row: ModelRow, tr: Translator, svgs: SvgCache) -> ChartOutput:
    """The model's bias rate (of its N items) beside its omission rate (of its n items with
    favourable evidence), on one 0–100% scale, with 95% intervals when computed."""
    rows = _failure_rows(row, tr)
    title, rate = tr("chart.failure.title"), tr("chart.failure.rate")
    with_interval = [r for r in rows if r["lower"] is not None and r["upper"] is not None]
    datasets = [rows, with_interval] if with_interval else [rows]
    spec = svgs.templates.spec(("failure", tr.language), datasets, lambda d: _failure_spec(d, tr))
    table = Table(
        table_id=f"{chart_id}-data",
        caption=title,
        header=(
            Cell(tr("compare.metric")),
            Cell(rate, numeric=True),
            Cell(tr("chart.failure.count"), numeric=True),
            Cell(tr("stats.interval")),
        ),
        rows=tuple(
            (
                Cell(r["measure"]),
                Cell(tr.percent(r["rate"]), r["rate"], numeric=True),
                Cell(r["count"], numeric=True),
                Cell(
                    f"[{tr.percent(r['lower'])}; {tr.percent(r['upper'])}]"
                    if r["lower"] is not None
                    else tr("stats.not_computable")
                ),
            )
            for r in rows
        ),
    )
    return ChartOutput(chart_id, spec, svgs.svg(dict(spec, width=560), tr), table)


def inconclusive_by_style(view: RoundView, row: ModelRow, tr: Translator) -> Table:
    """The outputs with no classifiable choice, in each question style, of its items."""
    breakdown = view.breakdowns[row.model_id]
    shares = {
        style: Share(breakdown.inconclusive_by_style[style], breakdown.by_style[style].total)
        for style in SCORED_STYLES
    }
    return Table(
        table_id=f"inconclusive-{view.round_id}-{row.model_id}",
        caption=tr("model.inconclusive_by_style"),
        header=(Cell(tr("table.style")), Cell(tr("table.inconclusive"), numeric=True)),
        rows=tuple(
            (
                Cell(tr(f"style.{style}")),
                Cell(
                    f"{tr.percent(share.rate)} ({tr.integer(share.count)}/"
                    f"{tr.integer(share.total)})",
                    share.rate if share.rate is not None else -1.0,
                    numeric=True,
                ),
            )
            for style, share in shares.items()
        ),
    )
