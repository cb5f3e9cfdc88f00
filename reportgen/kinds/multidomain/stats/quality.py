"""Jury, human audit and calibration (multidomain-metrics.md §7; MD-I06, MD-I07, MD-I17).

The audit draw is derive.audit_draw; the invalidation rule compares the reviewer's mean
criterion score h with the response's final score F exactly. Krippendorff's interval α is
the shared one (`reportgen.stats.krippendorff_alpha`, exact), called by the results.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.derive import audit_draw, mean_score
from reportgen.kinds.multidomain.model import ResponseKey, Round
from reportgen.kinds.multidomain.score import JuryOutcome
from reportgen.kinds.multidomain.terms import active_items
from reportgen.stats import mean, rate


@dataclass(frozen=True)
class JurySummary:
    jury_scored: int
    adjudicated: int
    criterion_ranges_above: int

    @property
    def adjudicated_share(self) -> Fraction | None:
        return rate(self.adjudicated, self.jury_scored)


def jury_summary(outcomes: Mapping[ResponseKey, JuryOutcome]) -> JurySummary:
    return JurySummary(
        jury_scored=len(outcomes),
        adjudicated=sum(1 for o in outcomes.values() if o.adjudicated),
        criterion_ranges_above=sum(o.criterion_ranges_above for o in outcomes.values()),
    )


@dataclass(frozen=True)
class Divergence:
    item_id: str
    model_id: str
    run: int
    audit_id: str
    human: Fraction
    final: Fraction

    @property
    def divergence(self) -> Fraction:
        return abs(self.human - self.final)


@dataclass(frozen=True)
class AuditReport:
    draw: Mapping[tuple[str, str], list[str]]  # (domain, language) -> drawn item ids
    stratum_sizes: Mapping[tuple[str, str], int]
    audited_per_stratum: Mapping[tuple[str, str], int]
    divergences: tuple[Divergence, ...]
    invalidated: tuple[Divergence, ...]  # per item, its largest divergence
    ledgered: tuple[str, ...]  # items with an `audit` ledger line
    threshold: Fraction

    @property
    def mean_divergence(self) -> Fraction | None:
        values = [d.divergence for d in self.divergences]
        return mean(values)

    @property
    def share_above(self) -> Fraction | None:
        above = sum(1 for d in self.divergences if d.divergence > self.threshold)
        return rate(above, len(self.divergences))


def audit_report(round_: Round, outcomes: Mapping[ResponseKey, JuryOutcome]) -> AuditReport:
    """The draw, the audited responses per stratum, every divergence and the invalidations."""
    manifest = round_.manifest
    draw = audit_draw(round_.items, manifest)
    item_of = {item.item_id: item for item in round_.items}
    drawn = {item_id for ids in draw.values() for item_id in ids}
    audited: dict[tuple[str, str], int] = defaultdict(int)
    for model in round_.models:
        for response in round_.responses.get(model.model_id, ()):
            if response.item_id in drawn and response.status == "ok":
                item = item_of[response.item_id]
                audited[(item.domain_id, item.language)] += 1
    divergences = _divergences(round_, outcomes)
    threshold = manifest.audit.invalidate_above
    worst: dict[str, Divergence] = {}
    for entry in divergences:
        best = worst.get(entry.item_id)
        if entry.divergence > threshold and (best is None or entry.divergence > best.divergence):
            worst[entry.item_id] = entry
    order = {item.item_id: (item.order or 0) for item in round_.items}
    return AuditReport(
        draw=draw,
        stratum_sizes=_stratum_sizes(round_),
        audited_per_stratum={stratum: audited.get(stratum, 0) for stratum in draw},
        divergences=divergences,
        invalidated=tuple(sorted(worst.values(), key=lambda d: (order[d.item_id], d.item_id))),
        ledgered=tuple(sorted({a.item_id for a in round_.annulments if a.source == "audit"})),
        threshold=threshold,
    )


def _stratum_sizes(round_: Round) -> dict[tuple[str, str], int]:
    sizes: dict[tuple[str, str], int] = defaultdict(int)
    for item in active_items(round_.items):
        if item.type == "open":
            sizes[(item.domain_id, item.language)] += 1
    return dict(sizes)


def _divergences(
    round_: Round, outcomes: Mapping[ResponseKey, JuryOutcome]
) -> tuple[Divergence, ...]:
    scores: dict[ResponseKey, list[int]] = defaultdict(list)
    audit_ids: dict[ResponseKey, str] = {}
    for row in round_.audit:
        key = (row.item_id, row.model_id, row.run)
        scores[key].append(row.score)
        audit_ids[key] = row.audit_id
    model_position = {model.model_id: i for i, model in enumerate(round_.models)}
    entries = [
        Divergence(
            item_id=key[0],
            model_id=key[1],
            run=key[2],
            audit_id=audit_ids[key],
            human=mean_score(values),
            final=outcomes[key].final,
        )
        for key, values in scores.items()
        if key in outcomes
    ]
    order = {item.item_id: (item.order or 0) for item in round_.items}
    entries.sort(
        key=lambda d: (order.get(d.item_id, 0), d.item_id, model_position.get(d.model_id, 0), d.run)
    )
    return tuple(entries)


# --- calibration ----------------------------------------------------------------------


@dataclass(frozen=True)
class CalibrationResponse:
    item_id: str
    language: str
    juror_scores: tuple[Fraction, ...]
    reviewer_scores: tuple[Fraction, ...]
    adjudicator_scores: tuple[Fraction, ...] = ()  # Art. 16: the hit rate is theirs

    @property
    def adjudicator_mean(self) -> Fraction:
        return sum(self.adjudicator_scores, Fraction(0)) / len(self.adjudicator_scores)

    @property
    def jury_mean(self) -> Fraction:
        return sum(self.juror_scores, Fraction(0)) / len(self.juror_scores)

    @property
    def human_mean(self) -> Fraction:
        return sum(self.reviewer_scores, Fraction(0)) / len(self.reviewer_scores)


def calibration_responses(round_: Round) -> list[CalibrationResponse]:
    """Each calibration response's juror, reviewer and adjudicator scores (mean of
    criteria), by id."""
    role = {judge.judge_id: judge.role for judge in round_.judges}
    language = {item.item_id: item.language for item in round_.items}
    by_response: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    item_of: dict[str, str] = {}
    for row in round_.calibration:
        by_response[row.response_id][row.rater_id].append(row.score)
        item_of[row.response_id] = row.item_id
    responses = []
    for response_id in sorted(by_response):
        raters = by_response[response_id]
        responses.append(
            CalibrationResponse(
                item_id=item_of[response_id],
                language=language.get(item_of[response_id], ""),
                juror_scores=tuple(
                    mean_score(raters[r]) for r in sorted(raters) if role.get(r) == "juror"
                ),
                reviewer_scores=tuple(
                    mean_score(raters[r])
                    for r in sorted(raters)
                    if role.get(r) not in ("juror", "adjudicator")  # the review app's too
                ),
                adjudicator_scores=tuple(
                    mean_score(raters[r]) for r in sorted(raters) if role.get(r) == "adjudicator"
                ),
            )
        )
    return responses


def hit_rate(responses: Sequence[CalibrationResponse], top: int) -> Fraction | None:
    """Art. 16 as written: Σ A ÷ (top x responses) over the responses the adjudicating
    judge scored (A its mean score of one, over its criteria and the adjudicators), top
    the highest score of the scale (5); None when the adjudicator scored none."""
    scored = [r for r in responses if r.adjudicator_scores]
    if not scored:
        return None
    return sum((r.adjudicator_mean for r in scored), Fraction(0)) / (top * len(scored))
