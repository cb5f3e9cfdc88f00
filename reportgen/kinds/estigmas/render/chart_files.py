"""Each chart's downloads: its SVG, a PNG drawn from it at build time, and its data as CSV.

The files sit beside the pages of their language (`charts/<chart_id>.{svg,png,csv}`),
since a chart's titles and number formats are those of its language. The CSV holds the
chart's own data, read from its Vega-Lite spec with raw values (unrounded rates, dot
decimals), so a reader can redraw the chart or check a point.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from reportgen.kinds.estigmas.render.charts import ChartOutput
from reportgen.render.table import to_csv

DOWNLOAD_FORMATS: tuple[str, ...] = ("svg", "png", "csv")


def _datasets(spec: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """Every inline dataset of a spec: top-level `datasets`, and `data.values` of any layer."""
    found: list[list[dict[str, Any]]] = [
        list(rows) for rows in spec.get("datasets", {}).values() if isinstance(rows, list)
    ]
    values = spec.get("data", {}).get("values") if isinstance(spec.get("data"), dict) else None
    if isinstance(values, list):
        found.append(values)
    for layer in spec.get("layer", []):
        if isinstance(layer, dict):
            found += _datasets(layer)
    return found


def chart_rows(spec: dict[str, Any]) -> list[dict[str, Any]]:
    """The chart's data: its largest dataset (a layered chart's marks, not its reference
    region or its connecting rules)."""
    datasets = _datasets(spec)
    return max(datasets, key=len) if datasets else []


def chart_csv(chart: ChartOutput) -> str:
    """The chart's data as CSV; the columns in the order they first appear."""
    rows = chart_rows(chart.spec)
    header = tuple(dict.fromkeys(key for row in rows for key in row))
    return to_csv(header, [tuple(row.get(key) for key in header) for row in rows])


def chart_file_names(chart_id: str) -> dict[str, str]:
    """Format -> file name under `charts/`."""
    return {extension: f"{chart_id}.{extension}" for extension in DOWNLOAD_FORMATS}


def write_chart_files(chart: ChartOutput, charts_dir: Path) -> list[Path]:
    """Write the chart's SVG, PNG and CSV into `charts_dir`, which exists; returns their
    paths (the drawings come from the build's cache: `DrawingCache.draw_all` draws them
    first)."""
    names = chart_file_names(chart.chart_id)
    written = [charts_dir / names[extension] for extension in DOWNLOAD_FORMATS]
    chart.drawing.write_svg(written[0])
    chart.drawing.write_png(written[1])
    chart.drawing.cache.write_data(chart_csv(chart).encode("utf-8"), "csv", written[2])
    return written
