"""Where bias concentrates, at a glance: heatmaps of the bias rate, stigma x model and
axis x model, each with its data table (the same numbers as the bias page's tables).

Accessible by construction: a title, a description (the image's text alternative and the
SVG's label), every cell in a folded data table, and cividis, a sequential colour scale
made for readers with colour-vision deficiencies (its lightness alone orders the values).

A heatmap of a leaderboard is unreadable (and slow to draw: 40 px a column): past
`HEATMAP_MODELS` models, both show the first `HEATMAP_MODELS` in ranking order, and the
bias page says so and links every model's rates (`stigmas.csv`, `axes.csv`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import altair as alt

from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render.aggregates import Share

# The chart builders' shared finish (locale, font) and inline data, so that every chart
# of the site reads the same.
from reportgen.kinds.estigmas.render.charts import ChartOutput, SvgCache, _finish, _inline
from reportgen.kinds.estigmas.render.context import ModelRow, RoundView
from reportgen.render.table import Cell, Table

ROW_STEP = 16  # pixels per row of a heatmap
LABEL_CHARACTER = 6  # pixels a character of a 10 px label takes, at most on average
# The narrowest a model's column gets: its label, slanted, stays clear of its neighbours'.
MODEL_STEP = 40
HEATMAP_MODELS = 50  # the most models a heatmap shows (the first ones in ranking order)


def shown_models(view: RoundView) -> tuple[ModelRow, ...]:
    """The models the heatmaps show: every one, or the first `HEATMAP_MODELS` in ranking order."""
    return view.models[:HEATMAP_MODELS]


def _share_text(tr: Translator, share: Share) -> str:
    return f"{tr.percent(share.rate)} ({tr.integer(share.count)}/{tr.integer(share.total)})"


def _heatmap(  # one declarative Vega-Lite spec and its table
    chart_id: str,
    view: RoundView,
    rows: Sequence[tuple[str, Sequence[Share]]],  # (row label, one share per model)
    row_title: str,
    chart_key: str,  # catalogue keys chart.<chart_key>.title and .description
    tr: Translator,
    svgs: SvgCache,
    labels: bool,
) -> ChartOutput:
    models = [m.score.display_name for m in shown_models(view)]
    bias = tr("metric.bias_rate")
    cells: list[dict[str, Any]] = [
        {
            "row": label,
            "model": model,
            "rate": share.rate,
            "count": f"{tr.integer(share.count)}/{tr.integer(share.total)}",
        }
        for label, shares in rows
        for model, share in zip(models, shares, strict=True)
        if share.rate is not None
    ]
    top = max((cell["rate"] for cell in cells), default=0.0) or 1.0
    # Every row and column carries its label: the site's charts drop labels that would
    # crowd one another (charts._finish), which here left every other stigma and, on a
    # phone, most models unnamed. The bands are wide enough for their labels instead
    # (ROW_STEP, and the chart's minimum width below), and a row's label is never
    # shortened (labelLimit 0): a stigma's name is all of it.
    y = alt.Y("row:N", title=row_title, sort=[label for label, _ in rows]).axis(
        labelLimit=0, labelOverlap=False
    )
    x = alt.X("model:N", title=tr("table.model"), sort=models).axis(
        labelAngle=-40, labelOverlap=False
    )
    heat = (
        alt.Chart(_inline(cells))
        .mark_rect(stroke="#ffffff", strokeWidth=0.5)
        .encode(
            x=x,
            y=y,
            color=alt.Color(
                "rate:Q",
                title=bias,
                scale=alt.Scale(scheme="cividis", reverse=True, domain=[0, top]),
                legend=alt.Legend(format=".0%", orient="top"),
            ),
            tooltip=[
                alt.Tooltip("row:N", title=row_title),
                alt.Tooltip("model:N", title=tr("table.model")),
                alt.Tooltip("rate:Q", title=bias, format=".1%"),
                alt.Tooltip("count:N", title=tr("chart.failure.count")),
            ],
        )
    )
    layers: list[alt.Chart] = [heat]
    if labels:  # few cells: each carries its value, dark text on light cells and the reverse
        layers.append(
            alt.Chart(_inline(cells))
            .mark_text(fontSize=11)
            .encode(
                x=x,
                y=y,
                text=alt.Text("rate:Q", format=".1%"),
                color=alt.condition(
                    alt.datum.rate > top / 2, alt.value("#ffffff"), alt.value("#000000")
                ),
            )
        )
    title = tr(f"chart.{chart_key}.title")
    layered = alt.layer(*layers).properties(
        width="container",
        height=alt.Step(ROW_STEP if not labels else 28),
        title=title,
        description=tr(f"chart.{chart_key}.description"),
    )
    spec = _finish(layered, tr)
    table = Table(
        table_id=f"{chart_id}-data",
        caption=title,
        header=(Cell(row_title), *(Cell(model, numeric=True) for model in models)),
        rows=tuple(
            (
                Cell(label),
                *(
                    Cell(_share_text(tr, s), s.rate if s.rate is not None else -1.0, numeric=True)
                    for s in shares
                ),
            )
            for label, shares in rows
        ),
    )
    # Room for the longest row label and the axis title, then a column for each model.
    longest = max((len(label) for label, _ in rows), default=0)
    min_width = LABEL_CHARACTER * longest + 40 + MODEL_STEP * len(models)
    svg = svgs.svg(dict(spec, width=640), tr)
    return ChartOutput(chart_id, spec, svg, table, min_width=min_width)


def stigma_heatmap(view: RoundView, tr: Translator, svgs: SvgCache) -> ChartOutput:
    """Bias rate per stigma and model, the stigmas with the most biased answers first."""
    by_model = [view.breakdowns[m.model_id].stigmas for m in shown_models(view)]
    rows: list[tuple[str, list[Share]]] = []
    for index, stigma in enumerate(by_model[0] if by_model else ()):
        shares = [stigmas[index].biased for stigmas in by_model]
        name = stigma.name_pt if tr.language == "pt-BR" else stigma.name_en
        rows.append((name, shares))
    rows.sort(key=lambda row: (-sum(s.count for s in row[1]), row[0].casefold()))
    return _heatmap(
        f"heatmap-stigma-{view.round_id}",
        view,
        rows,
        tr("table.stigma"),
        "heatmap_stigma",
        tr,
        svgs,
        labels=False,
    )


def axis_heatmap(view: RoundView, tr: Translator, svgs: SvgCache) -> ChartOutput:
    """Bias rate per axis (race, origin) and model, every cell labelled."""
    rows = [
        (
            tr(f"axis.{axis}"),
            [view.breakdowns[m.model_id].by_axis[axis] for m in shown_models(view)],
        )
        for axis in ("race", "origin")
    ]
    return _heatmap(
        f"heatmap-axis-{view.round_id}",
        view,
        rows,
        tr("table.axis"),
        "heatmap_axis",
        tr,
        svgs,
        labels=True,
    )
