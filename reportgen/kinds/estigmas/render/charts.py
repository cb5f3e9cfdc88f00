"""Altair chart builders: Vega-Lite specs for the browser, SVG for the article.

Every chart is built for one language: titles and tooltips come from the
catalogue and numbers follow the locale through Vega-Lite's `config.locale`,
which both vega-embed (in the browser) and vl-convert (for the SVG) honour.
Each chart also comes with its data as an accessible table (`ChartOutput.table`).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import altair as alt

from reportgen.i18n import D3_NUMBER_LOCALE, Translator
from reportgen.kinds.estigmas.render.context import ModelRow
from reportgen.kinds.estigmas.render.spec_templates import SpecTemplates
from reportgen.render.drawing import Drawing, DrawingCache
from reportgen.render.drawing import stable_ids as stable_ids  # where tests find it
from reportgen.render.table import Cell, Table, numeric_headers, text_cells

LABELLED_POINTS = 12
AXIS_LABEL_GAP = 8  # pixels between two tick labels of an axis


@dataclass(frozen=True)
class ChartOutput:
    chart_id: str
    spec: dict[str, Any]
    drawing: Drawing  # its SVG (and PNG), drawn when first read
    table: Table
    # The data table sits beside the chart, open, instead of folded under it: the chart's
    # points carry numbers that the table resolves to names.
    table_beside: bool = False
    # The narrowest width (CSS pixels) at which every label still shows: on a narrower
    # screen the chart keeps it and scrolls sideways inside its own box (None: the chart
    # takes its column's width, whatever it is).
    min_width: int | None = None

    @property
    def svg(self) -> str:
        return self.drawing.svg

    def spec_json(self) -> str:
        """The spec for an inline <script type="application/json"> (no `</` can close it)."""
        text = json.dumps(self.spec, sort_keys=True, ensure_ascii=False)
        return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


@dataclass(frozen=True)
class ReferenceRegion:
    """The dashed low-bias / low-omission region of Figure 1 (from site.yml)."""

    max_bias: float
    max_omission: float


def _inline(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Inline chart data (Vega-Lite's `{"values": [...]}`), kept in the spec itself."""
    return {"values": rows}


VALIDATE_SPECS = False  # tests turn it on


def _finish(chart: alt.TopLevelMixin, tr: Translator) -> dict[str, Any]:
    configured = chart.configure(
        locale={"number": dict(D3_NUMBER_LOCALE[tr.language])},
        font="system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif",
    ).configure_view(stroke=None)
    # Vega drops overlapping tick labels but lets them touch ("75%80%"): keep a gap, and drop
    # labels greedily until it holds, at every width the chart takes.
    configured = configured.configure_axis(labelOverlap="greedy", labelSeparation=AXIS_LABEL_GAP)
    # Validating against the Vega-Lite schema costs a rebuild about a second; the specs come
    # from this module alone, and tests/test_chart_ids.py builds every chart with it on.
    spec: dict[str, Any] = configured.to_dict(validate=VALIDATE_SPECS)
    return spec


@dataclass(frozen=True)
class SvgCache:
    """Where rendered SVGs (and PNGs) are kept between builds (None: drawn every time).

    Drawing is the slowest step of a build, and a spec fully determines its SVG: the chart
    builders get a `Drawing` (reportgen.render.drawing) from `svg`, drawn when the build
    writes the charts (`drawings.draw_all`, in a pool of processes when many are missing)
    or when first read. The build creates one and passes it down to the chart builders.
    """

    directory: Path | None = None
    # The specs of the charts drawn once per model, built with Altair once per shape.
    templates: SpecTemplates = field(default_factory=SpecTemplates, compare=False)
    drawings: DrawingCache = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "drawings", DrawingCache(self.directory))

    def svg(self, spec: dict[str, Any], tr: Translator) -> Drawing:
        """The drawing of `spec` for `tr`'s locale (drawn when first read)."""
        return self.drawings.drawing(spec, dict(D3_NUMBER_LOCALE[tr.language]))


def bias_omission_scatter(  # one declarative Vega-Lite spec, layer by layer
    chart_id: str,
    models: Sequence[ModelRow],
    tr: Translator,
    region: ReferenceRegion | None,
    svgs: SvgCache,
) -> ChartOutput:
    """Figure 1: bias rate against omission rate, one point per model (and the dashed
    reference region, unless its bounds are still placeholders)."""
    status_ranked, status_diag = tr("chart.status.ranked"), tr("chart.status.diagnostic")
    keyed = len(models) > LABELLED_POINTS
    frame = _inline(
        [
            {
                "key": str(number),
                "model": m.score.display_name,
                "provider": m.score.provider,
                "bias": m.score.bias_rate,
                "omission": m.score.omission_rate,
                "index": m.score.index,
                "status": status_ranked if m.score.eligible else status_diag,
            }
            for number, m in enumerate(models, start=1)
        ]
    )
    # Hovering (or touching) a point brings it forward and names it; the others fade.
    hover = alt.selection_point(
        name="hover", fields=["model"], on="pointerover", clear="pointerout"
    )
    providers = sorted({m.score.provider for m in models}, key=str.casefold)
    colour_of = {m.score.provider: m.colour for m in models}
    x_title, y_title = tr("metric.omission_rate"), tr("metric.bias_rate")
    x = alt.X("omission:Q", title=x_title, axis=alt.Axis(format=".1~%"))
    x = x.scale(domain=[0, 1])
    y = alt.Y("bias:Q", title=y_title, axis=alt.Axis(format=".1~%"))
    points = (
        alt.Chart(frame)
        .mark_point(filled=True)
        .encode(
            x=x,
            y=y,
            opacity=alt.condition(hover, alt.value(0.9), alt.value(0.25)),
            size=alt.condition(hover, alt.value(110), alt.value(70)),
            color=alt.Color(
                "provider:N",
                title=tr("table.provider"),
                scale=alt.Scale(domain=providers, range=[colour_of[p] for p in providers]),
            ),
            shape=alt.Shape(
                "status:N",
                title=tr("chart.status"),
                scale=alt.Scale(domain=[status_ranked, status_diag], range=["circle", "cross"]),
            ),
            tooltip=[
                alt.Tooltip("model:N", title=tr("table.model")),
                alt.Tooltip("provider:N", title=tr("table.provider")),
                alt.Tooltip("bias:Q", title=y_title, format=".1%"),
                alt.Tooltip("omission:Q", title=x_title, format=".1%"),
                alt.Tooltip("index:Q", title=tr("metric.index"), format=".1%"),
                alt.Tooltip("status:N", title=tr("chart.status")),
            ],
        )
        .add_params(hover)
    )
    # Up to a dozen points carry their names; past that names overlap, so each point
    # carries its number in the table beside the chart, and its name while hovered.
    labels = (
        alt.Chart(frame)
        .mark_text(align="left", dx=8, dy=-6, fontSize=10 if keyed else 11)
        .encode(x="omission:Q", y="bias:Q", text="key:N" if keyed else "model:N")
    )
    hovered_name = (
        alt.Chart(frame)
        .mark_text(align="left", dx=8, dy=8, fontSize=12, fontWeight="bold")
        .encode(
            x="omission:Q",
            y="bias:Q",
            text="model:N",
            opacity=alt.condition(hover, alt.value(1), alt.value(0), empty=False),
        )
    )
    layers: list[alt.Chart] = []
    if region is not None:  # no reference region while its bounds are placeholders
        box = _inline([{"x0": 0.0, "x1": region.max_omission, "y0": 0.0, "y1": region.max_bias}])
        layers.append(
            alt.Chart(box)
            .mark_rect(fill=None, stroke="#555555", strokeDash=[6, 4], strokeWidth=1.2)
            .encode(x="x0:Q", x2="x1:Q", y="y0:Q", y2="y1:Q")
        )
    named = [hovered_name] if keyed else []  # unnumbered points carry their names already
    layered = alt.layer(*layers, points, labels, *named).properties(
        width="container",
        height=380,
        title=tr("chart.scatter.title"),
        description=tr("chart.scatter.description"),
    )
    spec = _finish(layered, tr)
    # The drawing has no pointer: the hovered names, the last layer, would only be drawn
    # unseen (opacity 0), and at a thousand models they were four fifths of its cost.
    svg_spec = dict(spec, width=640, layer=spec["layer"][: len(spec["layer"]) - len(named)])
    table = _scatter_table(f"{chart_id}-data", models, tr, keyed)
    return ChartOutput(chart_id, spec, svgs.svg(svg_spec, tr), table, table_beside=keyed)


def _scatter_table(table_id: str, models: Sequence[ModelRow], tr: Translator, keyed: bool) -> Table:
    """The scatter's data, one row per point (numbered like the points when `keyed`)."""
    status_ranked, status_diag = tr("chart.status.ranked"), tr("chart.status.diagnostic")
    key = (Cell(tr("chart.point_label"), numeric=True),) if keyed else ()
    rows = tuple(
        (
            *((Cell(tr.integer(number), number, numeric=True),) if keyed else ()),
            Cell(m.score.display_name),
            Cell(m.score.provider),
            Cell(tr.percent(m.score.bias_rate), m.score.bias_rate, numeric=True),
            Cell(tr.percent(m.score.omission_rate), m.score.omission_rate, numeric=True),
            Cell(status_ranked if m.score.eligible else status_diag),
        )
        for number, m in enumerate(models, start=1)
    )
    return Table(
        table_id=table_id,
        caption=tr("chart.scatter.title"),
        header=(
            *key,
            *text_cells(tr, "table.model", "table.provider"),
            *numeric_headers(tr, "metric.bias_rate", "metric.omission_rate"),
            Cell(tr("chart.status")),
        ),
        rows=rows,
        sortable=keyed,
        sticky_column=1 if keyed else 0,
    )


def _style_spec(values: list[dict[str, Any]], model: ModelRow, tr: Translator) -> dict[str, Any]:
    title = tr("metric.bias_rate")
    bars = (
        alt.Chart(_inline(values))
        .mark_bar(color=model.colour)
        .encode(
            y=alt.Y("style:N", title=tr("table.style"), sort=None),
            x=alt.X("bias:Q", title=title, axis=alt.Axis(format=".1~%")),
            tooltip=[
                alt.Tooltip("style:N", title=tr("table.style")),
                alt.Tooltip("bias:Q", title=title, format=".1%"),
            ],
        )
        .properties(
            width="container",
            height=140,
            title=tr("chart.style.title"),
            description=tr("chart.style.description"),
        )
    )
    return _finish(bars, tr)


def composition_bars(
    chart_id: str,
    model: ModelRow,
    by_style: dict[str, float | None],
    tr: Translator,
    svgs: SvgCache,
) -> ChartOutput:
    """A model's bias rate by prompt style (horizontal bars)."""
    styles = [s for s, rate in by_style.items() if rate is not None]
    values = [{"style": tr(f"style.{s}"), "bias": by_style[s]} for s in styles]
    title = tr("metric.bias_rate")
    key = ("style", tr.language, model.colour)
    spec = svgs.templates.spec(key, [values], lambda data: _style_spec(data[0], model, tr))
    table = Table(
        table_id=f"{chart_id}-data",
        caption=tr("chart.style.title"),
        header=(Cell(tr("table.style")), Cell(title, numeric=True)),
        rows=tuple(
            (Cell(tr(f"style.{s}")), Cell(tr.percent(by_style[s]), numeric=True)) for s in styles
        ),
    )
    return ChartOutput(chart_id, spec, svgs.svg(dict(spec, width=560), tr), table)


def language_dots(  # one declarative Vega-Lite spec
    chart_id: str,
    rates: Sequence[tuple[str, float | None, float | None]],
    tr: Translator,
    svgs: SvgCache,
) -> ChartOutput:
    """One regime of the language study: each model's rate in pt-BR and in English.

    `rates` holds (model name, pt-BR rate, en rate); a rule joins the two dots of a model.
    """
    x_title = tr("language.cant_tell_share")
    points = [
        {"model": name, "language": language, "rate": rate}
        for name, pt, en in rates
        for language, rate in (("pt-BR", pt), ("en", en))
        if rate is not None
    ]
    pairs = [
        {"model": n, "pt": pt, "en": en} for n, pt, en in rates if pt is not None and en is not None
    ]
    y = alt.Y("model:N", title=tr("table.model"), sort=None)
    rule = (
        alt.Chart(_inline(pairs))
        .mark_rule(color="#999999")
        .encode(y=y, x=alt.X("pt:Q", title=x_title), x2="en:Q")
    )
    dots = (
        alt.Chart(_inline(points))
        .mark_point(size=90, filled=True)
        .encode(
            y=y,
            x=alt.X("rate:Q", title=x_title, axis=alt.Axis(format=".1~%")),
            color=alt.Color(
                "language:N",
                title=tr("language.language"),
                scale=alt.Scale(domain=["pt-BR", "en"], range=["#0072B2", "#E69F00"]),
            ),
            shape=alt.Shape(
                "language:N", scale=alt.Scale(domain=["pt-BR", "en"], range=["circle", "square"])
            ),
            tooltip=[
                alt.Tooltip("model:N", title=tr("table.model")),
                alt.Tooltip("language:N", title=tr("language.language")),
                alt.Tooltip("rate:Q", title=x_title, format=".1%"),
            ],
        )
    )
    title = tr(f"language.chart.{chart_id.split('-')[1]}")
    layered = alt.layer(rule, dots).properties(
        width="container", height=28 * max(len(rates), 3), title=title,
        description=tr("language.chart.description"),
    )  # fmt: skip
    spec = _finish(layered, tr)
    table = Table(
        table_id=f"{chart_id}-data",
        caption=title,
        header=(Cell(tr("table.model")), Cell("pt-BR", numeric=True), Cell("en", numeric=True)),
        rows=tuple(
            (Cell(n), Cell(tr.percent(pt), numeric=True), Cell(tr.percent(en), numeric=True))
            for n, pt, en in rates
        ),
    )
    return ChartOutput(chart_id, spec, svgs.svg(dict(spec, width=560), tr), table)
