"""The multidomain round's types (kind `multidomain`, docs/multidomain.md).

They extend the common core of `reportgen.model`: `Manifest` adds the `multidomain`
block, `Participant` the models.csv columns of REG-BC-2026-001, `Round` the judges,
rubrics, responses and the six scoring tables. Rows are small frozen dataclasses (a
REG round holds about 32,000 responses and 100,000 jury scores); thresholds are exact.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime
from fractions import Fraction
from typing import Literal

from reportgen import model as core
from reportgen.model import Annulment as Annulment  # re-exported: the round holds them
from reportgen.model import CoreItem

NAME = "multidomain"
PROFILE = "REG-BC-2026-001"
PROFILE_VERSION = "1.0"

ItemType = Literal["mcq", "open", "calc"]
ITEM_TYPES: tuple[ItemType, ...] = ("mcq", "open", "calc")
Status = Literal["ok", "format_violation", "refusal", "timeout", "error", "discarded_personal_data"]
STATUSES: tuple[Status, ...] = (
    "ok",
    "format_violation",
    "refusal",
    "timeout",
    "error",
    "discarded_personal_data",
)
JudgeKind = Literal["model", "human"]
JudgeRole = Literal["juror", "adjudicator", "reviewer"]
VerificationStatus = Literal["confirmed", "reverted", "verificar"]
GRADES: tuple[int, ...] = (1, 2, 3, 4, 5)


# --- round.json's `multidomain` block ------------------------------------------------
@dataclass(frozen=True)
class Deviation:
    key: str  # dotted path in round.json, e.g. "multidomain.cast_size"
    reason: Mapping[str, str]  # {"pt-BR", "en"}


@dataclass(frozen=True)
class AnnexEntry:
    annex_id: int
    organization: str
    headquarters: str
    language_affinity: tuple[str, ...]  # BCP-47 tags
    reserve: bool


@dataclass(frozen=True)
class Domain:
    id: str
    name: Mapping[str, str]  # {"pt-BR", "en"}


@dataclass(frozen=True)
class Composition:
    language: Mapping[str, int]  # item count per language
    type: Mapping[str, int]  # item count per type (mcq, open, calc)


@dataclass(frozen=True)
class GradeRules:
    min_distinct: int
    high_grade: int
    high_min_share: Fraction


@dataclass(frozen=True)
class JuryRules:
    size: int
    scale: tuple[int, int]  # (lowest, highest) score
    adjudicate_above: Fraction
    presentation_seed: int


@dataclass(frozen=True)
class AuditRules:
    fraction: Fraction
    min_per_stratum: int
    invalidate_above: Fraction
    seed: int


@dataclass(frozen=True)
class CalibrationRules:
    jurors: int
    reviewers: int
    hit_rate_band: tuple[Fraction, Fraction]


@dataclass(frozen=True)
class ContaminationRules:
    ngram: int
    flag_above: Fraction
    canary_partial_min_chars: int


@dataclass(frozen=True)
class Pairwise:
    elo_initial: int
    k: int
    scale: int
    base: int
    bt_mean: int


@dataclass(frozen=True)
class BankRevision:
    """Art. 17: bank item `item_id` replaces, under a new id, `revises` of an earlier bank."""

    item_id: str
    revises: str


@dataclass(frozen=True, kw_only=True)
class Manifest(core.Manifest):
    """round.json: the common keys plus the `multidomain` block (`ended_on` required)."""

    kind: str = NAME
    profile: str
    profile_version: str
    deviations: tuple[Deviation, ...]
    annex: tuple[AnnexEntry, ...]
    cast_size: int
    previous_round: str | None
    domains: tuple[Domain, ...]  # display order
    weights: Mapping[str, int]  # per item type
    composition: Mapping[str, Composition]  # per domain id
    grade_counts: Mapping[int, int]  # active test items per grade 1..5
    grade_rules: GradeRules
    max_points: int
    runs: int
    jury: JuryRules
    audit: AuditRules
    calibration: CalibrationRules
    contamination: ContaminationRules
    technical_tie: str
    pairwise: Pairwise
    item_order_seed: int
    bank_sha256: str
    judge_config_sha256: str
    extractor_version: str
    currency: str
    embargo_days: int
    contest_window_days: int
    reply_days: int
    retention_months: int
    retain_until: date
    # The system instruction sent to every participant (Art. 8; issue 21 cites Art. 13):
    # its hash is generation.system_prompt_sha256, public from the start; the text is
    # published with the items after the embargo. None in archives written without it.
    system_prompt: str | None = None
    bank_version: str | None = None  # Art. 11, 17 (`banco/_manifest.json`); None: not recorded
    bank_revisions: tuple[BankRevision, ...] = ()


# --- models.csv, judges.csv, rubrics.parquet ------------------------------------------


@dataclass(frozen=True, kw_only=True)
class Participant(core.Model):
    """One row of models.csv: the common columns plus REG-BC-2026-001's."""

    annex_id: int
    organization: str
    economic_group: str
    language_affinity: tuple[str, ...]
    reserve: bool
    replaces: int | None
    operated_by_organization: bool
    weights_open: bool
    checksum: str  # may be empty
    generation_sha256: str
    executives: str
    reference_models: str
    reference_date: date
    verified_on: date
    verification_source: str
    verification_status: VerificationStatus
    footnote_pt: str  # may be empty
    footnote_en: str  # may be empty


@dataclass(frozen=True, slots=True)
class Judge:
    """One row of judges.csv: a model juror, an adjudicator or a human reviewer."""

    judge_id: str
    kind: JudgeKind
    role: JudgeRole
    display_name: str
    provider: str
    api_identifier: str
    snapshot: str
    economic_group: str
    participant_model_id: str  # "" when the judge is no participant
    operated_by_organization: bool
    declared_conflict: bool
    conflict_note: str


@dataclass(frozen=True, slots=True)
class Criterion:
    """One row of rubrics.parquet."""

    rubric_id: str
    criterion_id: str
    position: int  # 1..c
    name_pt: str
    name_en: str
    anchor_0: str
    anchor_3: str
    anchor_5: str


# --- items and responses --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Item(CoreItem):
    """One row of items.parquet (a test item or an Art. 22 calibration item): the core's
    columns, then the kind's."""

    calibration: bool
    domain_id: str
    type: ItemType
    grade: int
    weight: int
    order: int | None  # test items: seeded position; calibration: None
    choices: str | None
    answer_key: str | None
    tolerance_abs: str | None
    unit: str | None
    justification: str | None
    reference: str | None
    rubric_id: str | None
    content_sha256: str
    variant_of: str | None


@dataclass(frozen=True, slots=True)
class Response:
    """One row of responses/<model_id>.parquet: one (test item, run) of a participant."""

    item_id: str
    model_id: str
    run: int
    raw_text: str | None
    latency_ms: float | None
    status: Status
    raw_sha256: str | None
    prompt_sha256: str
    extracted_answer: str | None
    format_ok: bool | None
    correct: bool | None
    scored_before_discard: bool | None
    response_language: str | None
    cost_micro: int
    snapshot: str
    called_at: datetime  # UTC


ResponseKey = tuple[str, str, int]  # (item_id, model_id, run)


@dataclass(frozen=True, slots=True)
class JudgeView:
    """One row of judge_views.parquet: the anonymised text the judges saw."""

    item_id: str
    model_id: str
    run: int
    presented_as: str
    view_text: str | None
    view_sha256: str


@dataclass(frozen=True, slots=True)
class JuryScore:
    """One row of jury.parquet: one juror's score of one criterion of one response."""

    item_id: str
    model_id: str
    run: int
    judge_id: str
    criterion_id: str
    score: int
    position: int
    judged_at: datetime


@dataclass(frozen=True, slots=True)
class Adjudication:
    """One row of adjudications.parquet."""

    item_id: str
    model_id: str
    run: int
    judge_id: str
    criterion_id: str
    score: int
    judged_at: datetime


@dataclass(frozen=True, slots=True)
class CalibrationScore:
    """One row of calibration.parquet (Art. 22)."""

    item_id: str
    response_id: str
    response_text: str
    response_sha256: str
    rater_id: str
    criterion_id: str
    score: int
    scored_on: date


@dataclass(frozen=True, slots=True)
class AuditScore:
    """One row of audit.parquet (Art. 26)."""

    audit_id: str
    item_id: str
    model_id: str
    run: int
    reviewer_id: str
    criterion_id: str
    score: int
    blind: bool
    scored_at: datetime


ScreeningResult = Literal["no_personal_data", "synthetic_personal_data"]
SCREENING_RESULTS: tuple[ScreeningResult, ...] = ("no_personal_data", "synthetic_personal_data")


@dataclass(frozen=True, slots=True)
class Screening:
    """One row of screening.parquet: the personal-data screening of one item (Art. 37).

    An item holding personal data holds synthetic data only, and says so: the declaration
    (pt-BR, en) is shown with the item wherever its text is."""

    item_id: str
    screened_by: str
    screened_on: date
    result: ScreeningResult
    declaration_pt: str | None
    declaration_en: str | None


@dataclass(frozen=True, slots=True)
class Authorization:
    """One row of the optional authorizations.csv: a written authorization of the
    Organisation to release the round's items before the embargo or to train a model on
    them (Art. 40, 42)."""

    authorization_id: str
    granted_on: date
    purpose: Literal["early_release", "training"]
    holder: str  # the organisation authorized
    scope_pt: str
    scope_en: str


@dataclass(frozen=True, kw_only=True)
class Round(core.Round):
    """A verified multidomain round archive plus its annulment ledger.

    `models` holds `Participant`s in models.csv (cast) order; `responses` maps each
    model_id to its rows in file order.
    """

    manifest: Manifest
    models: tuple[Participant, ...]
    items: tuple[Item, ...]
    judges: tuple[Judge, ...]
    rubrics: tuple[Criterion, ...]
    responses: Mapping[str, tuple[Response, ...]]
    judge_views: tuple[JudgeView, ...]
    jury: tuple[JuryScore, ...]
    adjudications: tuple[Adjudication, ...]
    calibration: tuple[CalibrationScore, ...]
    audit: tuple[AuditScore, ...]
    screening: tuple[Screening, ...] = ()  # Art. 37 (required in an archive: verify)
    authorizations: tuple[Authorization, ...] = ()  # authorizations.csv, optional
