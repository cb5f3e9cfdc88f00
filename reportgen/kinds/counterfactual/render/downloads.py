"""Downloads of a counterfactual round under `data/<round_id>/` (report spec, "Downloads").

gaps.csv (exactly the spec's columns), groups.csv, names.csv, calibration.csv,
results.json and its JSON Schema, and `SHA256SUMS` (the format of `sha256sum`) listing
each of them. Numbers are written in full precision: a float as `repr`, and beside each
group value its exact fraction. Binary gaps are fractions from 0 to 1, other gaps are in
the variable's unit.
"""

from __future__ import annotations

from pathlib import Path

from reportgen.kinds.counterfactual.render.context import RoundContext, shown_gaps
from reportgen.kinds.counterfactual.results import (
    SCHEMA_FILE,
    Gap,
    Results,
    Row,
    published_json_schema_text,
)
from reportgen.render.downloads import boolean, full, json_text, write_round_files
from reportgen.render.table import to_csv

DOWNLOAD_NAMES = (
    "gaps.csv",
    "groups.csv",
    "names.csv",
    "calibration.csv",
    "results.json",
    SCHEMA_FILE,
)
GAP_COLUMNS = (
    "model_id",
    "attribute",
    "variable",
    "level",
    "criterion",
    "gap",
    "gap_lo",
    "gap_hi",
    "flag",
    "test",
    "p",
    "p_adjusted",
    "exceeds_acceptable",
    "finding",
)
GROUP_COLUMNS = (
    "model_id",
    "attribute",
    "variable",
    "criterion",
    "group",
    "value",
    "value_exact",
    "n",
    "na",
)
NAME_COLUMNS = (
    "model_id",
    "attribute",
    "variable",
    "group",
    "position",
    "variant",
    "value",
    "value_exact",
    "n",
    "na",
)
CALIBRATION_COLUMNS = (
    "variable",
    "n",
    "min_items",
    "below_guide_minimum",
    "metric",
    "threshold",
    "metric_value",
    "passes",
    "kappa",
    "alpha",
    "exact_agreement",
    "mean_absolute_difference",
    "spearman",
)


def _gap_row(model_id: str, row: Row, gap: Gap) -> tuple[object, ...]:
    primary = gap.criterion == row.criterion
    test = row.extreme_pair if primary else None
    interval = gap.interval
    return (
        model_id,
        row.attribute_id,
        row.variable_id,
        row.level,
        gap.criterion,
        full(gap.gap),
        full(None if interval is None else interval.lo),
        full(None if interval is None else interval.hi),
        gap.flag or "",
        "" if test is None else test.test,
        full(None if test is None else test.p),
        full(None if test is None else test.p_adjusted),
        boolean(row.exceeds) if primary else None,
        row.finding,
    )


def gaps_csv(results: Results) -> str:
    rows = [
        _gap_row(system.model_id, row, gap)
        for system in results.systems
        for row in system.rows
        for gap in shown_gaps(row)
    ]
    return to_csv(GAP_COLUMNS, rows)


def groups_csv(results: Results) -> str:
    rows: list[tuple[object, ...]] = []
    for system in results.systems:
        for row in system.rows:
            for gap in shown_gaps(row):
                rows += [
                    (
                        system.model_id,
                        row.attribute_id,
                        row.variable_id,
                        gap.criterion,
                        group.group_id,
                        full(group.value),
                        None if group.value is None else group.value.exact,
                        group.n,
                        group.na,
                    )
                    for group in gap.groups
                ]
    return to_csv(GROUP_COLUMNS, rows)


def names_csv(results: Results) -> str:
    rows: list[tuple[object, ...]] = [
        (
            system.model_id,
            row.attribute_id,
            row.variable_id,
            name.group_id,
            name.position,
            name.variant_id,
            full(name.value),
            None if name.value is None else name.value.exact,
            name.n,
            name.na,
        )
        for system in results.systems
        for row in system.rows
        for name in row.names
    ]
    return to_csv(NAME_COLUMNS, rows)


def calibration_csv(results: Results) -> str:
    rows: list[tuple[object, ...]] = [
        (
            judge.variable_id,
            judge.n,
            judge.min_items,
            boolean(judge.below_guide_minimum),
            judge.metric,
            judge.threshold.exact,
            full(judge.metric_value),
            boolean(judge.passes),
            full(judge.kappa),
            full(judge.alpha),
            full(judge.exact_agreement),
            full(judge.mean_absolute_difference),
            full(judge.spearman),
        )
        for judge in results.calibration
    ]
    return to_csv(CALIBRATION_COLUMNS, rows)


def download_files(context: RoundContext) -> dict[str, bytes]:
    """One round's downloads: file name -> the exact bytes served."""
    results = context.results
    texts = (
        gaps_csv(results),
        groups_csv(results),
        names_csv(results),
        calibration_csv(results),
        json_text(results.to_json_dict()),
        published_json_schema_text(),
    )
    return {name: text.encode("utf-8") for name, text in zip(DOWNLOAD_NAMES, texts, strict=True)}


def write_downloads(context: RoundContext, site_dir: Path) -> list[Path]:
    """The downloads and their SHA256SUMS under `site_dir/data/<round_id>/`."""
    return write_round_files(site_dir, context.round_id, download_files(context))
