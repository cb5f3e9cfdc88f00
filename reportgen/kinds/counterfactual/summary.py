"""The counterfactual summary: per system, the findings in the order of metrics §7, with
the primary gap, its interval, the acceptable difference and the flag; then the judge
calibration and the before/after view.

`reportgen summary` prints it through the kind registry (the kind's `STAGES`, in
`stages.py`); both read the results object (cached). "No difference found"
never reads as "fair": it is printed as it is named.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from reportgen.i18n import exact_text
from reportgen.kinds._summary import print_heading
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.results import Exact, Finding, Interval, Results

LABELS: dict[str, str] = {
    "problem": "Problem",
    "exceeds_not_significant": "Above acceptable, not confirmed",
    "significant_within_acceptable": "Significant difference within acceptable",
    "no_difference_found": "No difference found",
    "not_computable": "Not computable",
    "judge_not_calibrated": "Judge not calibrated",
    "extractor_below_agreement": "Extractor below the agreement threshold",
}


def _exact(value: Exact | None) -> str | None:
    return None if value is None else value.exact


def finding_json(finding: Finding) -> dict[str, Any]:
    interval = finding.interval
    return {
        "attribute": finding.attribute_id,
        "variable": finding.variable_id,
        "level": finding.level,
        "criterion": finding.criterion,
        "finding": finding.finding,
        "reason": finding.reason,
        "gap": _exact(finding.primary_gap),
        "gap_lo": None if interval is None else interval.lo,
        "gap_hi": None if interval is None else interval.hi,
        "acceptable_difference": finding.acceptable_difference.exact,
        "flag": finding.flag,
        "name_carried": finding.name_carried,
    }


def summary_json(round_: Round, results: Results) -> dict[str, Any]:
    """The `--json` document: per system its findings (§7 order), the calibration, and the
    before/after changes; exact values as "n/d" strings."""
    return {
        "round_id": round_.round_id,
        "preregistered": results.preregistered,
        "systems": [
            {
                "model_id": system.model_id,
                "display_name": system.display_name,
                "findings": [finding_json(f) for f in system.findings],
            }
            for system in results.systems
        ],
        "calibration": [
            {
                "variable": entry.variable_id,
                "n": entry.n,
                "metric": entry.metric,
                "value": _exact(entry.metric_value),
                "threshold": entry.threshold.exact,
                "passes": entry.passes,
            }
            for entry in results.calibration
        ],
        "regression": [
            {
                "model_id": view.model_id,
                "baseline_model_id": view.baseline_model_id,
                "rows": [
                    {
                        "attribute": row.attribute_id,
                        "variable": row.variable_id,
                        "before": _exact(row.gap_before),
                        "after": _exact(row.gap_after),
                        "change": _exact(row.change),
                    }
                    for row in view.rows
                ],
            }
            for view in results.regression
        ],
    }


def _amount(value: Exact | None, binary: bool) -> str:
    if value is None:
        return "n/a"
    return f"{value.percent()} pp" if binary else value.display(2)


def _interval(interval: Interval | None, binary: bool) -> str:
    if interval is None or interval.lo is None or interval.hi is None:
        return "n/a"
    scale, places, unit = (100, 1, " pp") if binary else (1, 2, "")
    lo, hi = (
        exact_text(scale * Fraction(repr(v)), places, "en", plain=True)
        for v in (interval.lo, interval.hi)
    )
    return f"[{lo}, {hi}]{unit}"


def _findings_table(results: Results, index: int) -> Table:
    system = results.systems[index]
    table = Table(title=f"Findings: {system.display_name}", title_justify="left")
    headings = ("Level", "Attribute", "Variable", "Gap", "95% interval", "Acceptable")
    for heading in (*headings, "Flag", "Finding"):
        table.add_column(heading)
    for finding in system.findings:
        binary = finding.type == "binary"
        label = LABELS[finding.finding]
        if finding.reason:
            label += f" ({finding.reason})"
        if finding.name_carried:
            label += "; may be carried by one name (placebo)"
        table.add_row(
            finding.level,
            Text(finding.attribute_id),
            Text(finding.variable_id),
            _amount(finding.primary_gap, binary),
            _interval(finding.interval, binary),
            _amount(finding.acceptable_difference, binary),
            finding.flag or "",
            Text(label),
        )
    return table


def print_summary(round_: Round, results: Results, console: Console) -> None:
    """The human-readable summary: round facts, findings per system, calibration, changes."""

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False)

    counts = results.counts
    facts = (
        f"{counts.systems} system(s), {counts.attributes} attribute(s), {counts.templates}"
        f" template(s), {counts.runs} runs; {counts.annulled_items} annulled item(s)"
    )
    unregistered = "Not preregistered: criteria set after collection began."
    notes = () if results.preregistered else (unregistered,)
    print_heading(console, round_, "counterfactual", facts, notes=notes, outputs="system")
    for index in range(len(results.systems)):
        console.print(_findings_table(results, index))
    for entry in results.calibration:
        verdict = "passes" if entry.passes else "fails: judge not calibrated"
        value = "n/a" if entry.metric_value is None else entry.metric_value.display(3)
        say(f"Judge of {entry.variable_id}: {entry.metric} {value} (n = {entry.n}), {verdict}")
    if counts.voided_scores:
        say(f"Mask audit: {counts.voided_scores} judge score(s) voided (the mask leaked)")
    for check in results.extraction_checks:
        share = "n/a" if check.agreement is None else check.agreement.display(3)
        verdict = "passes" if check.passes else "fails: left out of the findings"
        say(
            f"Extractor of {check.variable_id}: agreement with people {share} "
            f"(n = {check.n}), {verdict}"
        )
    for view in results.regression:
        say(f"Before/after: {view.model_id} against {view.baseline_model_id}")
        for row in view.rows:
            binary = row.type == "binary"
            say(
                f"  {row.attribute_id} / {row.variable_id}: {_amount(row.gap_before, binary)}"
                f" -> {_amount(row.gap_after, binary)}"
                f" (change {_amount(row.change, binary)},"
                f" {_interval(row.interval, binary)})"
            )
    say(
        f"Intervals: crossed bootstrap over templates and name positions ({results.replicates:,}"
        " replicates)."
    )
