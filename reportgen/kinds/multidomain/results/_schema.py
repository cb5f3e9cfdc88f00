"""The multidomain results object as frozen pydantic models: its JSON form and JSON Schema.

Exact values (scores, rates, divergences) are `Exact`: the rational as a string "n/d" (or
"n") and a float for display; undefined values are null. Elo, Bradley-Terry and latency
percentiles are floats (multidomain-metrics.md, "Arithmetic"). `results.schema.json`,
beside this module, is generated from these models (`python -m reportgen.kinds.schemas
multidomain` writes it again; a test fails when it is stale).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Final, Literal

from pydantic import Field

from reportgen.results.exact import Exact as SharedExact
from reportgen.results.exact import ResultsModel
from reportgen.results.schema import SCHEMA_FILE as SCHEMA_FILE
from reportgen.results.schema import KindResults, ResultsSchema

SchemaVersion = Literal["reportgen-multidomain-results/2"]
SCHEMA: Final[SchemaVersion] = "reportgen-multidomain-results/2"


class Exact(SharedExact):
    """An exact rational: `exact` is "n/d" or "n"; `value` the nearest float (display)."""

    DEFAULT_PLACES = 2


exact = Exact.optional  # an exact value, or None (undefined)


class SliceScore(ResultsModel):
    """S(m, X) for one slice X with its 95% bootstrap interval (metrics §2, §4)."""

    slice: str = Field(
        description="primary, global, domain:<id>, language:<tag>, type:<t>, high_grade,"
        " non_native or run:<r>"
    )
    score: Exact | None = Field(description="null when the slice holds no scored item")
    lo: Exact | None = Field(description="2.5th percentile; null without interval")
    hi: Exact | None = Field(description="97.5th percentile; null without interval")
    n: int = Field(description="scored items of the slice")
    possible: int = Field(description="sum of the weights of those items")
    undefined_replicates: int = Field(description="replicates with a zero denominator")


class ProcessMetrics(ResultsModel):
    """Per participant, over its responses to scored items, all runs (metrics §6)."""

    n: int = Field(description="responses counted: scored items x runs")
    latency_p50: float | None
    latency_p95: float | None
    timeouts: int
    timeout_rate: Exact | None
    errors: int
    error_rate: Exact | None
    cost_micro: int = Field(description="sum of cost_micro")
    cost_per_1000: Exact | None = Field(description="in the round's currency")
    format_compliance: Exact | None
    format_compliant: int
    format_counted: int
    refusals: int
    refusal_rate: Exact | None
    discarded_scored: int
    discarded_unscored: int
    language_compliance: Exact | None
    language_detected: int


class ParticipantResults(ResultsModel):
    """One participant: rank, scores, tie-break values, process metrics."""

    model_id: str
    display_name: str
    rank: int
    points: Exact = Field(description="sum of item points over the scored items")
    possible: int
    primary: SliceScore
    global_score: SliceScore
    slices: tuple[SliceScore, ...] = Field(
        description="domain:*, language:*, type:*, high_grade, non_native, run:* in that order"
    )
    judge_variance: Exact | None = Field(description="tie-break criterion 4")
    cost_per_point: Exact | None = Field(description="tie-break criterion 5")
    elo: float
    elo_lo: float
    elo_hi: float
    bt: float | None = Field(description="null when Bradley-Terry is not estimable")
    bt_lo: float | None
    bt_hi: float | None
    process: ProcessMetrics
    jury_scored: int
    adjudicated: int


class AdjacentPair(ResultsModel):
    """Neighbours in the classification: what separated them, and the primary difference."""

    a: str
    b: str
    decided_by: str | None = Field(
        description="primary, global, high_grade, non_native, judge_variance, cost_per_point;"
        " null when they share a rank"
    )
    difference: Exact | None = Field(description="primary(a) - primary(b)")
    lo: Exact | None
    hi: Exact | None
    separated: bool = Field(description="the difference interval excludes zero")
    technical_tie: bool


class PairRecord(ResultsModel):
    """Head-to-head of a (row) against b (column) (metrics §5)."""

    a: str
    b: str
    wins: int
    losses: int
    ties: int
    p_a_beats_b: float | None = Field(description="from Bradley-Terry; null if not estimable")


class Pairwise(ResultsModel):
    battles: int
    pairs: tuple[PairRecord, ...] = Field(description="every pair in models.csv order")
    bt_estimable: bool
    bt_non_estimable_replicates: int


class AuditStratum(ResultsModel):
    domain_id: str
    language: str
    size: int = Field(description="active open test items of the stratum")
    drawn: tuple[str, ...]
    audited_responses: int


class AuditDivergence(ResultsModel):
    """One audited response: human score h, final score F, |h - F|."""

    item_id: str
    model_id: str
    run: int
    audit_id: str
    human: Exact
    final: Exact
    divergence: Exact
    above: bool = Field(description="divergence > invalidate_above")


class Audit(ResultsModel):
    strata: tuple[AuditStratum, ...]
    audited_items: int
    audited_responses: int
    mean_divergence: Exact | None
    share_above: Exact | None
    invalidations: tuple[AuditDivergence, ...] = Field(
        description="per invalidated item, its largest divergence (first by item order)"
    )
    ledgered: tuple[str, ...] = Field(description="items with an audit ledger line")


class Jury(ResultsModel):
    """The jury's work over every jury-scored response of the archive (annulled and
    superseded items included: the jury scored them)."""

    jury_scored: int
    adjudicated: int
    adjudicated_share: Exact | None
    criterion_ranges_above: int = Field(description="per-criterion ranges > adjudicate_above")


class CalibrationItem(ResultsModel):
    item_id: str
    language: str
    responses: int
    hit_rate: Exact
    flagged: bool = Field(description="outside the hit-rate band: revise or discard")


class LanguageHitRate(ResultsModel):
    language: str
    responses: int
    hit_rate: Exact


class AdjudicatorHitRate(ResultsModel):
    """A model adjudicator's hit rate over the whole calibration test (Art. 16)."""

    judge_id: str
    display_name: str
    responses: int
    hit_rate: Exact
    in_band: bool = Field(description="inside the hit-rate band: may score test items")


class Calibration(ResultsModel):
    items: tuple[CalibrationItem, ...]
    languages: tuple[LanguageHitRate, ...]
    parity_gap: Exact | None
    alpha: float | None = Field(description="interval Krippendorff alpha; null if undefined")
    mean_abs_jury_human: Exact | None
    # Art. 16 (since format /2): each model adjudicator's rate; human ones are not listed.
    adjudicators: tuple[AdjudicatorHitRate, ...] = ()


class CanaryFinding(ResultsModel):
    canary_item_id: str = Field(description="the item whose canary was found")
    item_id: str = Field(description="the item the response answers")
    model_id: str
    run: int
    common_chars: int


class NgramFinding(ResultsModel):
    item_id: str
    model_id: str
    run: int
    shared: int
    total: int
    containment: Exact


class Contamination(ResultsModel):
    full_canaries: tuple[CanaryFinding, ...]
    full_canary_items: tuple[str, ...]
    suspicious_canaries: tuple[CanaryFinding, ...]
    ngram_checked: int
    ngram_not_computable: int
    ngram_flagged: tuple[NgramFinding, ...]


class Dates(ResultsModel):
    ended_on: date
    embargo_end: date
    contest_opens: date
    contest_closes: date = Field(
        description="E + contest_window_days: a test item's contestation window closes at"
        " 00:00:00Z of this date, inclusive (it opens at 00:00:00Z of contest_opens)"
    )
    provisional_until: date
    retain_until: date = Field(description="Art. 36: ended_on + retention_months (24)")
    reverified_on: date | None = Field(
        description="Art. 6: the participants' last re-verification (models.csv verified_on)"
    )
    reverify_until: date | None = Field(
        description="Art. 6: reverified_on + 5 business days (Mon-Fri less Brazil's national"
        " holidays): a divergence not reverted by then uses the field marked `verificar`"
    )


class Counts(ResultsModel):
    test_items: int
    active_items: int
    superseded_items: int
    annulled_items: int
    scored_items: int
    possible: int
    annulled_by_source: Mapping[str, int]


class Results(KindResults[SchemaVersion, Literal["multidomain"]]):
    """Every computation of one multidomain round (multidomain-metrics.md)."""

    replicates: int
    seed: int
    counts: Counts
    participants: tuple[ParticipantResults, ...] = Field(description="classification order")
    adjacent: tuple[AdjacentPair, ...]
    tie_groups: tuple[tuple[str, ...], ...] = Field(
        description="technical-tie groups of two or more (model ids, classification order)"
    )
    pairwise: Pairwise
    jury: Jury
    audit: Audit
    calibration: Calibration
    contamination: Contamination
    dates: Dates


RESULTS_SCHEMA = ResultsSchema(Results, SCHEMA, __name__.rpartition(".")[0])
results_json_schema = RESULTS_SCHEMA.json_schema
results_json_schema_text = RESULTS_SCHEMA.text
published_json_schema_text = RESULTS_SCHEMA.published_text
