"""Machine-readable downloads per round: `data/<round_id>/{models,stigmas,axes}.csv`, results.

CSV values are raw (unrounded rates, dot decimals); `models.csv` carries the columns
of `summary --json` plus `<metric>_lo` / `<metric>_hi` for the five intervals and
`rank_best` / `rank_worst`, the 95% rank interval (integers, empty for diagnostic cases).
Beside them, `SHA256SUMS` holds the SHA-256 of each download as served (`sha256sum -c`
checks it); the data page shows the same digests (`download_checksums`).
"""

from __future__ import annotations

from pathlib import Path

from reportgen.archive._checksums import digests_of
from reportgen.identity_cache import by_identity
from reportgen.kinds.estigmas.render.context import INTERVAL_METRICS, RoundView
from reportgen.kinds.estigmas.render.reference_tables import (
    AXIS_COLUMNS,
    MODELS_KIND_HEADER,
    RANK_INTERVAL_COLUMNS,
    STIGMA_COLUMNS,
)
from reportgen.kinds.estigmas.results import SCHEMA_FILE, published_json_schema_text
from reportgen.render.downloads import json_text, write_round_files
from reportgen.render.table import to_csv


def models_csv(view: RoundView) -> str:
    header = (
        MODELS_KIND_HEADER
        + tuple(f"{metric}_{end}" for metric in INTERVAL_METRICS for end in ("lo", "hi"))
        + RANK_INTERVAL_COLUMNS
    )
    ranks = {r.model_id: (r.best, r.worst) for r in view.stats.ranks} if view.stats else {}
    rows: list[tuple[object, ...]] = []
    for row in view.models:
        values: list[object] = [getattr(row.score, column) for column in MODELS_KIND_HEADER]
        values[MODELS_KIND_HEADER.index("eligible")] = "true" if row.score.eligible else "false"
        for metric in INTERVAL_METRICS:
            bounds = row.intervals.get(metric)
            values += [bounds[0], bounds[1]] if bounds else [None, None]
        rows.append((*values, *ranks.get(row.model_id, (None, None))))
    return to_csv(header, rows)


def stigmas_csv(view: RoundView) -> str:
    rows: list[tuple[object, ...]] = []
    for row in view.models:
        for s in view.breakdowns[row.model_id].stigmas:
            rows.append(
                (
                    row.model_id,
                    s.stigma_id,
                    s.name_pt,
                    s.name_en,
                    s.origin,
                    s.peril,
                    s.band,
                    s.axis,
                    s.biased.count,
                    s.biased.total,
                    s.biased.rate,
                    s.omissions.count,
                    s.omissions.total,
                    s.omissions.rate,
                )
            )
    return to_csv(STIGMA_COLUMNS, rows)


def axes_csv(view: RoundView) -> str:
    rows: list[tuple[object, ...]] = []
    for row in view.models:
        for axis, share in view.breakdowns[row.model_id].by_axis.items():
            rows.append((row.model_id, axis, share.count, share.total, share.rate))
    return to_csv(AXIS_COLUMNS, rows)


def download_files(view: RoundView) -> dict[str, bytes]:
    """One round's downloads: file name -> the exact bytes served."""
    return dict(_made_downloads(view))


# The data pages (one per language) list the downloads' checksums and the build writes
# them: three times the same bytes (results.json is megabytes at a thousand models), made
# once per view (a new build makes its views afresh).
@by_identity(4)
def _made_downloads(view: RoundView) -> dict[str, bytes]:
    files = {
        "models.csv": models_csv(view),
        "stigmas.csv": stigmas_csv(view),
        "axes.csv": axes_csv(view),
    }
    if view.stats is not None:
        files["results.json"] = json_text(view.stats.to_json_dict())
        files[SCHEMA_FILE] = published_json_schema_text()  # the JSON Schema of results.json
    return {name: text.encode("utf-8") for name, text in files.items()}


def download_checksums(view: RoundView) -> dict[str, str]:
    """File name -> SHA-256 (hex) of each download of the round, as served."""
    return digests_of(download_files(view))


def write_downloads(view: RoundView, site_dir: Path) -> list[Path]:
    """Write one round's downloads and their SHA256SUMS under `site_dir/data/<round_id>/`."""
    return write_round_files(site_dir, view.round_id, download_files(view))
