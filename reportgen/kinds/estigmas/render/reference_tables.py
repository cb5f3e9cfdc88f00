"""Tables that describe the method, the data files and the human audit."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from reportgen.audit_export import read_audit_export
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.score import SCORE_FIELDS
from reportgen.render.table import Cell, Table

# Columns of data/<round_id>/models.csv, in file order (the data dictionary lists them):
# the keys of `summary --json`.
MODEL_COLUMNS: tuple[str, ...] = SCORE_FIELDS
STIGMA_COLUMNS: tuple[str, ...] = (
    "model_id",
    "stigma_id",
    "name_pt",
    "name_en",
    "origin",
    "peril",
    "band",
    "axis",
    "biased",
    "scored",
    "bias_rate",
    "omissions",
    "positive",
    "omission_rate",
)
AXIS_COLUMNS: tuple[str, ...] = ("model_id", "axis", "biased", "scored", "bias_rate")


def regimes(tr: Translator) -> Table:
    """Table 1: evidence regimes and the answer expected in each."""
    rows = tuple(
        (Cell(tr(f"style.{style}")), Cell(tr(f"method.regime.{style}.evidence")),
         Cell(tr(f"method.regime.{style}.expected")))
        for style in ("original", "doubt", "positive")
    )  # fmt: skip
    return Table(
        table_id="regimes",
        caption=tr("method.regimes.caption"),
        header=(
            Cell(tr("table.style")),
            Cell(tr("method.regimes.evidence")),
            Cell(tr("method.regimes.expected")),
        ),
        rows=rows,
    )


def dictionary(tr: Translator) -> Table:
    """The data dictionary of the CSV downloads."""
    rows: list[tuple[Cell, ...]] = []
    for file, columns in (
        ("models.csv", MODEL_COLUMNS),
        ("stigmas.csv", STIGMA_COLUMNS),
        ("axes.csv", AXIS_COLUMNS),
    ):
        rows += [(Cell(file), Cell(c), Cell(tr(f"dict.{c}"))) for c in columns]
    rows.append((Cell("models.csv"), Cell("<metric>_lo, <metric>_hi"), Cell(tr("dict.interval"))))
    rows.append((Cell("results.json"), Cell("—"), Cell(tr("dict.results"))))
    rows.append((Cell("results.schema.json"), Cell("—"), Cell(tr("dict.results_schema"))))
    return Table(
        table_id="dictionary",
        caption=tr("data.dictionary"),
        header=(Cell(tr("table.file")), Cell(tr("data.column")), Cell(tr("data.meaning"))),
        rows=tuple(rows),
    )


def load_audit(path: Path) -> Mapping[str, Any] | None:
    """A human-audit export (checked against its record), or None when there is none."""
    export = read_audit_export(path)
    return None if export is None else export.model_dump(mode="json")


def _number(tr: Translator, value: object, digits: int = 2) -> str:
    if isinstance(value, bool) or value is None:
        return "–"
    if isinstance(value, int):
        return tr.integer(value)
    if isinstance(value, float):
        return tr.decimal(value, digits)
    return str(value)


def audit(data: Mapping[str, Any], tr: Translator) -> Table:
    """The calibration summary of one round's audit export."""
    keys = (
        "samples_judged",
        "judgments",
        "reviewers",
        "adjudicated",
        "kappa_majority_vs_parser",
        "alpha_reviewers",
    )
    rows = [(Cell(tr(f"audit.{k}")), Cell(_number(tr, data.get(k)), numeric=True)) for k in keys]
    for reviewer, kappa in sorted(dict(data.get("kappa_by_reviewer", {})).items()):
        rows.append((Cell(tr("audit.kappa_reviewer", reviewer=reviewer)), Cell(_number(tr, kappa))))
    return Table(
        table_id=f"audit-{data.get('round_id', 'round')}",
        caption=tr("audit.caption"),
        header=(Cell(tr("table.field")), Cell(tr("table.value"))),
        rows=tuple(rows),
    )


def confusion(data: Mapping[str, Any], tr: Translator) -> Table:
    """Reviewers' majority choice (rows) against the parser's label (columns)."""
    matrix = data.get("confusion", {})
    columns = [str(c) for c in matrix.get("columns", [])]
    counts = matrix.get("counts", [])
    rows = tuple(
        (Cell(str(name)), *(Cell(_number(tr, v), numeric=True) for v in counts[i]))
        for i, name in enumerate(matrix.get("rows", []))
        if i < len(counts) and len(counts[i]) == len(columns)
    )
    return Table(
        table_id=f"confusion-{data.get('round_id', 'round')}",
        caption=tr("audit.confusion"),
        header=(Cell(tr("audit.reviewers_vs_parser")), *(Cell(c) for c in columns)),
        rows=rows,
    )
