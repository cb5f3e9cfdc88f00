"""Process metrics, refusals and language (multidomain-metrics.md §6; MD-I08, MD-I09, MD-I20).

Per participant, over its responses to scored items, all runs (n = items x runs); no
intervals. Rates are exact; latency percentiles are floats (numpy's linear rule).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reportgen.kinds.multidomain.model import Response
from reportgen.kinds.multidomain.score import RoundPoints
from reportgen.kinds.multidomain.terms import languages_agree
from reportgen.stats import rate

# Statuses whose latency is a real answer time (timeouts and errors never count).
LATENCY_STATUSES = frozenset({"ok", "format_violation", "refusal", "discarded_personal_data"})


@dataclass(frozen=True)
class Process:
    n: int
    latency_p50: float | None
    latency_p95: float | None
    timeouts: int
    errors: int
    cost_micro: int
    format_compliant: int
    format_counted: int
    refusals: int
    discarded_scored: int
    discarded_unscored: int
    language_matching: int
    language_detected: int

    @property
    def cost_per_1000(self) -> Fraction | None:
        """1000 x Σ cost_micro ÷ (10^6 x n), in the round's currency."""
        return Fraction(1000 * self.cost_micro, 10**6 * self.n) if self.n else None

    @property
    def format_compliance(self) -> Fraction | None:
        return rate(self.format_compliant, self.format_counted)

    @property
    def language_compliance(self) -> Fraction | None:
        return rate(self.language_matching, self.language_detected)


def _is_unscored_discard(response: Response) -> bool:
    return (
        response.status == "discarded_personal_data" and response.scored_before_discard is not True
    )


def process_metrics(points: RoundPoints, model: int) -> Process:
    """One participant's process metrics over its responses to the scored items."""
    model_id = points.model_ids[model]
    language_of = {item.item_id: item.language for item in points.items}
    closed = {item.item_id for item in points.items if item.type in ("mcq", "calc")}
    rows = [
        response
        for item in points.items
        for response in points.responses.get((model_id, item.item_id), ())
    ]
    latencies = [
        r.latency_ms for r in rows if r.status in LATENCY_STATUSES and r.latency_ms is not None
    ]
    p50, p95 = (
        (float(v) for v in np.percentile(latencies, [50, 95], method="linear"))
        if latencies
        else (None, None)
    )
    counted = [
        r
        for r in rows
        if r.item_id in closed and r.status != "refusal" and not _is_unscored_discard(r)
    ]
    detected = [r for r in rows if r.response_language is not None]
    return Process(
        n=len(rows),
        latency_p50=p50,
        latency_p95=p95,
        timeouts=sum(1 for r in rows if r.status == "timeout"),
        errors=sum(1 for r in rows if r.status == "error"),
        cost_micro=sum(r.cost_micro for r in rows),
        format_compliant=sum(1 for r in counted if r.format_ok is True),
        format_counted=len(counted),
        refusals=sum(1 for r in rows if r.status == "refusal"),
        discarded_scored=sum(
            1 for r in rows if r.status == "discarded_personal_data" and not _is_unscored_discard(r)
        ),
        discarded_unscored=sum(1 for r in rows if _is_unscored_discard(r)),
        language_matching=sum(
            1
            for r in detected
            if r.response_language is not None
            and languages_agree(r.response_language, language_of[r.item_id])
        ),
        language_detected=len(detected),
    )
