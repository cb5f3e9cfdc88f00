"""Tables that describe the method, the data files and the human audit."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from pathlib import Path
from typing import Any

from reportgen.audit_export import read_audit_export
from reportgen.i18n import MISSING, Translator
from reportgen.kinds.estigmas.review import REVIEW_TASK
from reportgen.kinds.estigmas.score import SCORE_FIELDS
from reportgen.render.table import Cell, Table, text_cells

# Columns of data/<round_id>/models.csv, in file order (the data dictionary lists them):
# the keys of `summary --json`.
MODELS_KIND_HEADER: tuple[str, ...] = SCORE_FIELDS
# models.csv's last columns: the 95% rank interval over the bootstrap replicates.
RANK_INTERVAL_COLUMNS: tuple[str, ...] = ("rank_best", "rank_worst")
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
        header=text_cells(tr, "table.style", "method.regimes.evidence", "method.regimes.expected"),
        rows=rows,
    )


FRACTION_COLUMNS = frozenset(
    {"bias_rate", "omission_rate", "correct_rate", "coverage", "failure", "index"}
)
TEXT_COLUMNS = frozenset(
    {"model_id", "display_name", "provider", "stigma_id", "name_pt", "name_en", "origin"}
    | {"band", "axis"}
)


def column_type(column: str) -> str:
    """The catalogue key of a CSV column's type: rates are fractions from 0 to 1 (never
    percentages), `rank` an integer left empty for diagnostic cases (pandas reads it
    with `dtype={"rank": "Int64"}`), every count an integer."""
    if column in FRACTION_COLUMNS:
        return "dict.type.fraction"
    if column in TEXT_COLUMNS:
        return "dict.type.text"
    special = {"eligible": "dict.type.boolean"} | dict.fromkeys(
        ("rank", *RANK_INTERVAL_COLUMNS), "dict.type.rank"
    )
    return special.get(column, "dict.type.decimal" if column == "peril" else "dict.type.integer")


def dictionary(tr: Translator, schema_href: str | None = None) -> Table:
    """The data dictionary of the downloads: each column's type and meaning; the results
    schema's row links the published JSON Schema (`schema_href`, when one is published)."""
    rows: list[tuple[Cell, ...]] = []
    for file, columns in (
        ("models.csv", MODELS_KIND_HEADER),
        ("stigmas.csv", STIGMA_COLUMNS),
        ("axes.csv", AXIS_COLUMNS),
    ):
        rows += [
            (Cell(file), Cell(c), Cell(tr(column_type(c))), Cell(tr(f"dict.{c}"))) for c in columns
        ]
    rows.append(
        (
            Cell("models.csv"),
            Cell("<metric>_lo, <metric>_hi"),
            *text_cells(tr, "dict.type.fraction", "dict.interval"),
        )
    )
    rows += [
        (Cell("models.csv"), Cell(c), Cell(tr(column_type(c))), Cell(tr(f"dict.{c}")))
        for c in RANK_INTERVAL_COLUMNS
    ]
    json_type = Cell(tr("dict.type.json"))
    rows.append((Cell("results.json"), Cell("—"), json_type, Cell(tr("dict.results"))))
    rows.append(
        (
            Cell("results.schema.json", link=schema_href),
            Cell("—"),
            json_type,
            Cell(tr("dict.results_schema")),
        )
    )
    return Table(
        table_id="dictionary",
        caption=tr("data.dictionary"),
        header=text_cells(tr, "table.file", "data.column", "data.type", "data.meaning"),
        rows=tuple(rows),
    )


def load_audit(path: Path) -> Mapping[str, Any] | None:
    """A human-audit export (checked against its record), or None when there is none."""
    export = read_audit_export(path)
    return None if export is None else export.model_dump(mode="json")


def _number(tr: Translator, value: object, digits: int = 2) -> str:
    if isinstance(value, bool) or value is None:
        return MISSING
    if isinstance(value, int):
        return tr.integer(value)
    if isinstance(value, float):
        return tr.decimal(value, digits)
    return str(value)


def _interval(tr: Translator, estimate: Mapping[str, Any]) -> str:
    low, high = estimate.get("low"), estimate.get("high")
    if low is None or high is None:
        return MISSING
    return f"[{_number(tr, low)}; {_number(tr, high)}]"


def _estimate_cells(tr: Translator, data: Mapping[str, Any], key: str) -> tuple[Cell, ...]:
    """Value, interval and n of a coefficient: from the export's agreement block, or the
    value alone from a first-version export (which has neither)."""
    detail = data.get("agreement")
    names = {"kappa_majority_vs_parser": "consensus_vs_automatic"}
    if not detail or names.get(key, key) not in detail:
        return Cell(_number(tr, data.get(key)), numeric=True), Cell(MISSING), Cell(MISSING)
    estimate = detail[names.get(key, key)]
    return (
        Cell(_number(tr, estimate.get("value")), numeric=True),
        Cell(_interval(tr, estimate)),
        Cell(_number(tr, estimate.get("n")), numeric=True),
    )


def audit(data: Mapping[str, Any], tr: Translator) -> Table:
    """The calibration summary of one round's audit export: each coefficient with its
    interval and its n, and what the consensus stands on."""
    empty = (Cell(MISSING), Cell(MISSING))
    counts = ("samples_judged", "judgments", "reviewers", "adjudicated")
    rows: list[tuple[Cell, ...]] = [
        (Cell(tr(f"audit.{k}")), Cell(_number(tr, data.get(k)), numeric=True), *empty)
        for k in counts
    ]
    detail = data.get("agreement") or {}
    coefficients = ["kappa_majority_vs_parser", "alpha_reviewers"]
    if detail:
        coefficients.insert(1, "judgments_vs_automatic")
    names = {"judgments_vs_automatic": "kappa_judgments_vs_parser"}
    rows += [
        (Cell(tr(f"audit.{names.get(k, k)}")), *_estimate_cells(tr, data, k)) for k in coefficients
    ]
    by_reviewer = dict(detail.get("kappa_by_reviewer") or {})
    for reviewer, kappa in sorted(dict(data.get("kappa_by_reviewer", {})).items()):
        estimate = by_reviewer.get(reviewer)
        cells = (
            (Cell(_number(tr, kappa)), *empty)
            if estimate is None
            else (
                Cell(_number(tr, estimate.get("value")), numeric=True),
                Cell(_interval(tr, estimate)),
                Cell(_number(tr, estimate.get("n")), numeric=True),
            )
        )
        rows.append((Cell(tr("audit.kappa_reviewer", reviewer=reviewer)), *cells))
    return Table(
        table_id=f"audit-{data.get('round_id', 'round')}",
        caption=tr("audit.caption"),
        header=text_cells(tr, "table.field", "table.value", "audit.interval", "audit.n"),
        rows=tuple(rows),
        notes=_audit_notes(detail, tr),
    )


def _audit_notes(detail: Mapping[str, Any], tr: Translator) -> tuple[str, ...]:
    """How the consensus was formed and how the intervals were drawn (new exports only)."""
    if not detail:
        return ()
    judged = int(detail.get("samples_judged", 0))
    bootstrap = detail.get("bootstrap", {})
    return (
        tr(
            tr.plural("audit.consensus_n", judged),
            used=tr.integer(int(detail["consensus_vs_automatic"]["n"])),
            judged=tr.integer(judged),
            splits=tr.integer(int(detail.get("splits_left_out", 0))),
            adjudicated=tr.integer(int(detail.get("consensus_adjudicated", 0))),
        ),
        tr(
            "audit.bootstrap",
            level=tr.percent(float(bootstrap.get("level", 0.95)), 0),
            replicates=tr.integer(int(bootstrap.get("replicates", 0))),
            seed=str(bootstrap.get("seed", MISSING)),
        ),
    )


def audit_details(data: Mapping[str, Any], tr: Translator) -> tuple[Table, ...]:
    """The tables beyond the summary: pairwise κ and agreement over time, where present."""
    return tuple(t for t in (pairwise(data, tr), over_time(data, tr)) if t is not None)


def pairwise(data: Mapping[str, Any], tr: Translator) -> Table | None:
    """Cohen's κ of each pair of reviewers, with the samples both judged (new exports)."""
    pairs = (data.get("agreement") or {}).get("kappa_pairwise") or []
    if not pairs:
        return None
    return Table(
        table_id=f"audit-pairs-{data.get('round_id', 'round')}",
        caption=tr("audit.pairwise"),
        header=(Cell(tr("audit.pair")), Cell(tr("audit.kappa")), Cell(tr("audit.n"))),
        rows=tuple(
            (
                Cell(f"{pair['first']} × {pair['second']}"),
                Cell(_number(tr, pair.get("kappa")), numeric=True),
                Cell(_number(tr, pair.get("n")), numeric=True),
            )
            for pair in pairs
        ),
    )


def over_time(data: Mapping[str, Any], tr: Translator) -> Table | None:
    """Each reviewer's agreement with the parser, day by day, with n (new exports)."""
    points = (data.get("agreement") or {}).get("over_time") or []
    if not points:
        return None
    return Table(
        table_id=f"audit-days-{data.get('round_id', 'round')}",
        caption=tr("audit.over_time"),
        header=text_cells(tr, "audit.reviewer", "audit.day", "audit.agreement", "audit.n"),
        rows=tuple(
            (
                Cell(str(point["reviewer"])),
                Cell(tr.date(date.fromisoformat(str(point["day"])))),
                Cell(tr.percent(point.get("agreement")), numeric=True),
                Cell(_number(tr, point.get("n")), numeric=True),
            )
            for point in points
        ),
    )


def _choice_label(tr: Translator, value: str) -> str:
    """A choice or automatic answer in the reader's words ("Não sei", not `cant_tell`)."""
    return REVIEW_TASK.labels.get(tr.language, {}).get(value, value)


def confusion(data: Mapping[str, Any], tr: Translator) -> Table:
    """Reviewers' majority choice (rows) against the parser's label (columns)."""
    matrix = data.get("confusion", {})
    columns = [str(c) for c in matrix.get("columns", [])]
    counts = matrix.get("counts", [])
    rows = tuple(
        (
            Cell(_choice_label(tr, str(name))),
            *(Cell(_number(tr, v), numeric=True) for v in counts[i]),
        )
        for i, name in enumerate(matrix.get("rows", []))
        if i < len(counts) and len(counts[i]) == len(columns)
    )
    return Table(
        table_id=f"confusion-{data.get('round_id', 'round')}",
        caption=tr("audit.confusion"),
        header=(
            Cell(tr("audit.reviewers_vs_parser")),
            *(Cell(_choice_label(tr, c)) for c in columns),
        ),
        rows=rows,
    )
