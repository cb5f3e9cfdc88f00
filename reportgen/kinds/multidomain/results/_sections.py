"""The round-level sections of the results object: head-to-head, jury, audit,
calibration, contamination and dates (metrics §5-§9)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from reportgen.kinds._fields import same_named
from reportgen.kinds.multidomain.derive import calibration_hit_rates
from reportgen.kinds.multidomain.model import Pairwise as PairwiseRules
from reportgen.kinds.multidomain.model import ResponseKey, Round
from reportgen.kinds.multidomain.results._schema import (
    AdjudicatorHitRate,
    Audit,
    AuditDivergence,
    AuditStratum,
    Calibration,
    CalibrationItem,
    CanaryFinding,
    Contamination,
    Dates,
    Exact,
    Jury,
    LanguageHitRate,
    NgramFinding,
    PairRecord,
    Pairwise,
    ProcessMetrics,
    exact,
)
from reportgen.kinds.multidomain.score import JuryOutcome, RoundPoints
from reportgen.kinds.multidomain.stats import pairwise, quality
from reportgen.kinds.multidomain.stats.dates import round_dates
from reportgen.kinds.multidomain.stats.integrity import CanaryHit, integrity_report
from reportgen.kinds.multidomain.stats.process import Process
from reportgen.stats import krippendorff_alpha, mean, rate

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class PairwiseParts:
    section: Pairwise
    elo: FloatArray  # per model, models.csv order
    elo_bounds: tuple[FloatArray, FloatArray]
    bt: FloatArray | None  # None: not estimable
    bt_bounds: tuple[FloatArray, FloatArray] | None


def pairwise_section(
    points: RoundPoints, rules: PairwiseRules, weights: np.ndarray[Any, np.dtype[np.int64]]
) -> PairwiseParts:
    models = len(points.model_ids)
    fought = pairwise.battles(points)
    wins = fought.win_mass(models).sum(axis=0)[None]
    estimable = bool(pairwise.estimable(wins)[0]) and models > 1
    bt = pairwise.bradley_terry(wins, rules)[0] if estimable else None
    probability = None if bt is None else pairwise.win_probability(bt, rules)
    replicates = pairwise.bootstrap(fought, models, rules, weights)
    elo = replicates.elo_estimate
    elo_bounds = pairwise.percentile_bounds(replicates.elo)
    assert elo_bounds is not None  # at least one replicate
    pairs = []
    for index, (a, b) in enumerate(fought.pairs):
        won, lost, tied = fought.wlt(index)
        pairs.append(
            PairRecord(
                a=points.model_ids[a],
                b=points.model_ids[b],
                wins=won,
                losses=lost,
                ties=tied,
                p_a_beats_b=None if probability is None else float(probability[a, b]),
            )
        )
    return PairwiseParts(
        section=Pairwise(
            battles=fought.count,
            pairs=tuple(pairs),
            bt_estimable=bt is not None,
            bt_non_estimable_replicates=replicates.non_estimable,
        ),
        elo=elo,
        elo_bounds=elo_bounds,
        bt=bt,
        bt_bounds=None if bt is None else pairwise.percentile_bounds(replicates.bt),
    )


def process_model(process: Process) -> ProcessMetrics:
    return ProcessMetrics(
        n=process.n,
        latency_p50=process.latency_p50,
        latency_p95=process.latency_p95,
        timeouts=process.timeouts,
        timeout_rate=exact(rate(process.timeouts, process.n)),
        errors=process.errors,
        error_rate=exact(rate(process.errors, process.n)),
        cost_micro=process.cost_micro,
        cost_per_1000=exact(process.cost_per_1000),
        format_compliance=exact(process.format_compliance),
        format_compliant=process.format_compliant,
        format_counted=process.format_counted,
        refusals=process.refusals,
        refusal_rate=exact(rate(process.refusals, process.n)),
        discarded_scored=process.discarded_scored,
        discarded_unscored=process.discarded_unscored,
        language_compliance=exact(process.language_compliance),
        language_detected=process.language_detected,
    )


def jury_section(outcomes: Mapping[ResponseKey, JuryOutcome]) -> Jury:
    summary = quality.jury_summary(outcomes)
    return Jury(
        jury_scored=summary.jury_scored,
        adjudicated=summary.adjudicated,
        adjudicated_share=exact(summary.adjudicated_share),
        criterion_ranges_above=summary.criterion_ranges_above,
    )


def _divergence(entry: quality.Divergence, threshold: Fraction) -> AuditDivergence:
    return AuditDivergence(
        **same_named(entry, "item_id model_id run audit_id"),
        human=Exact.of(entry.human),
        final=Exact.of(entry.final),
        divergence=Exact.of(entry.divergence),
        above=entry.divergence > threshold,
    )


def audit_section(round_: Round, outcomes: Mapping[ResponseKey, JuryOutcome]) -> Audit:
    report = quality.audit_report(round_, outcomes)
    return Audit(
        strata=tuple(
            AuditStratum(
                domain_id=domain,
                language=language,
                size=report.stratum_sizes.get((domain, language), 0),
                drawn=tuple(drawn),
                audited_responses=report.audited_per_stratum[(domain, language)],
            )
            for (domain, language), drawn in report.draw.items()
        ),
        audited_items=sum(len(drawn) for drawn in report.draw.values()),
        audited_responses=sum(report.audited_per_stratum.values()),
        mean_divergence=exact(report.mean_divergence),
        share_above=exact(report.share_above),
        invalidations=tuple(_divergence(e, report.threshold) for e in report.invalidated),
        ledgered=report.ledgered,
    )


def calibration_section(round_: Round) -> Calibration:
    responses = quality.calibration_responses(round_)
    top = round_.manifest.jury.scale[1]
    low, high = round_.manifest.calibration.hit_rate_band
    items = []
    for item in round_.items:
        mine = [r for r in responses if r.item_id == item.item_id]
        hit = quality.hit_rate(mine, top)
        if item.calibration and hit is not None:
            items.append(
                CalibrationItem(
                    item_id=item.item_id,
                    language=item.language,
                    responses=sum(1 for r in mine if r.adjudicator_scores),
                    hit_rate=Exact.of(hit),
                    flagged=hit < low or hit > high,
                )
            )
    languages = []
    for language in sorted({r.language for r in responses}):
        mine = [r for r in responses if r.language == language]
        hit = quality.hit_rate(mine, top)
        if hit is not None:
            languages.append(
                LanguageHitRate(
                    language=language,
                    responses=sum(1 for r in mine if r.adjudicator_scores),
                    hit_rate=Exact.of(hit),
                )
            )
    rates = [entry.hit_rate.fraction for entry in languages]
    alpha = krippendorff_alpha([(*r.juror_scores, *r.reviewer_scores) for r in responses])
    gaps = [
        abs(r.jury_mean - r.human_mean) for r in responses if r.reviewer_scores and r.juror_scores
    ]
    return Calibration(
        adjudicators=_adjudicators(round_),
        items=tuple(items),
        languages=tuple(languages),
        parity_gap=exact(max(rates) - min(rates)) if rates else None,
        alpha=None if alpha is None else float(alpha),
        mean_abs_jury_human=exact(mean(gaps)),
    )


def _finding(hit: CanaryHit) -> CanaryFinding:
    return CanaryFinding(**same_named(hit, "canary_item_id item_id model_id run common_chars"))


def contamination_section(round_: Round) -> Contamination:
    report = integrity_report(round_)
    return Contamination(
        full_canaries=tuple(_finding(hit) for hit in report.full),
        full_canary_items=report.full_items,
        suspicious_canaries=tuple(_finding(hit) for hit in report.suspicious),
        ngram_checked=len(report.containment),
        ngram_not_computable=report.not_computable,
        ngram_flagged=tuple(
            NgramFinding(
                **same_named(c, "item_id model_id run shared total"), containment=Exact.of(c.value)
            )
            for c in report.flagged
            if c.value is not None
        ),
    )


def dates_section(round_: Round) -> Dates:
    dates = round_dates(round_.manifest, (model.verified_on for model in round_.models))
    return Dates(
        ended_on=dates.ended_on,
        embargo_end=dates.embargo_end,
        contest_opens=dates.contest_opens,
        contest_closes=dates.contest_closes,
        provisional_until=dates.provisional_until,
        retain_until=dates.retain_until,
        reverified_on=dates.reverified_on,
        reverify_until=dates.reverify_until,
    )


def _adjudicators(round_: Round) -> tuple[AdjudicatorHitRate, ...]:
    """Each model adjudicator's Art. 16 hit rate over the calibration test (the gate)."""
    low, high = round_.manifest.calibration.hit_rate_band
    rates = calibration_hit_rates(round_.calibration, round_.manifest.jury.scale[1])
    return tuple(
        AdjudicatorHitRate(
            judge_id=judge.judge_id,
            display_name=judge.display_name,
            responses=rates[judge.judge_id][1],
            hit_rate=Exact.of(rates[judge.judge_id][0]),
            in_band=low <= rates[judge.judge_id][0] <= high,
        )
        for judge in round_.judges
        if judge.role == "adjudicator" and judge.kind == "model" and judge.judge_id in rates
    )
