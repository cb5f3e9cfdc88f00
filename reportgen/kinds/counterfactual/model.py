"""The counterfactual round's types (kind `counterfactual`, docs/counterfactual.md).

They extend the common core of `reportgen.model`: `Manifest` adds the `counterfactual`
block, `System` the five models.csv columns of a system under test, `Round` the
battery (attributes, groups, variants, templates, rewrites, variables), the
responses and extractions per system, and the judge's calibration. Rows are small
frozen dataclasses; rationals are exact `Fraction`s (the spec never compares floats).
Empty CSV cells that mean "none" are `None` here (a template's context, a variant's
slot, a system's baseline); an empty `value` or `held_value` stays "" because it
means "no mention", which is a value.
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

NAME = "counterfactual"

Signal = Literal["name", "age", "postcode", "writing_style", "explicit"]
SIGNALS: tuple[Signal, ...] = ("name", "age", "postcode", "writing_style", "explicit")
Level = Literal["decision", "quality", "tone"]
LEVELS: tuple[Level, ...] = ("decision", "quality", "tone")  # most to least serious
VariableType = Literal["binary", "count", "score"]
VARIABLE_TYPES: tuple[VariableType, ...] = ("binary", "count", "score")
ExtractorKind = Literal["code", "model"]
EXTRACTORS: tuple[ExtractorKind, ...] = ("code", "model")
UserTone = Literal["neutral", "angry"]
USER_TONES: tuple[UserTone, ...] = ("neutral", "angry")
Expected = Literal["yes", "no"]
EXPECTED_VALUES: tuple[Expected, ...] = ("yes", "no")
CriterionName = Literal["demographic_parity", "equal_opportunity"]
CRITERIA: tuple[CriterionName, ...] = ("demographic_parity", "equal_opportunity")
CalibrationMetric = Literal["quadratic_weighted_kappa", "krippendorff_alpha_interval"]
CALIBRATION_METRICS: tuple[CalibrationMetric, ...] = (
    "quadratic_weighted_kappa",
    "krippendorff_alpha_interval",
)
PreregistrationStatus = Literal["preregistered", "not_preregistered"]
PREREGISTRATION_STATUSES: tuple[PreregistrationStatus, ...] = (
    "preregistered",
    "not_preregistered",
)
TEMPLATE_LANGUAGES: tuple[str, ...] = ("pt-BR", "en")
CORRECTION = "bh"  # the only correction accepted
FAMILY = "per_system"  # the only family accepted
DEFAULT_MIN_ITEMS = 50  # calibration.min_items when absent; the floor outside synthetic rounds
NA = "na"  # the extraction value of a response with no determinable value

# preregistration.tests: fixed by the software; any other value is refused as unsupported.
PREREGISTERED_TESTS: Mapping[str, Mapping[str, object]] = {
    "binary": {"test": "mcnemar", "exact_below_discordant": 25, "continuity_correction": True},
    "numeric": {
        "test": "wilcoxon_signed_rank",
        "zero_method": "wilcox",
        "ties": "average",
        "method": "exact_conditional",
        "exact_max_nonzero": 50,
        "continuity_correction": False,
        "alternative": "two-sided",
    },
}


# --- round.json's `counterfactual` block ------------------------------------------------


@dataclass(frozen=True)
class VariablePlan:
    """preregistration.variables.<variable_id>."""

    criterion: CriterionName
    acceptable_difference: Fraction  # a proportion for binary; the variable's unit otherwise


@dataclass(frozen=True)
class CalibrationPlan:
    """preregistration.calibration."""

    min_items: int
    metric: CalibrationMetric
    threshold: Fraction  # in (0, 1]


@dataclass(frozen=True)
class ExtractionCheckPlan:
    """preregistration.extraction_check (issue 21): people check a sample of the
    extractions of each binary variable and each model-extracted count variable; an
    extractor whose agreement with them is below `threshold` leaves the findings, as a
    judge that fails its calibration."""

    min_items: int  # checked responses per checked variable
    threshold: Fraction  # in (0, 1]: the lowest agreement accepted


@dataclass(frozen=True)
class Preregistration:
    status: PreregistrationStatus
    preregistered_on: date
    alpha: Fraction  # 0 < alpha < 1
    correction: str  # always CORRECTION
    family: str  # always FAMILY
    tests: Mapping[str, Mapping[str, object]]  # always PREREGISTERED_TESTS
    variables: Mapping[str, VariablePlan]  # variables.csv order
    calibration: CalibrationPlan
    rationale: Mapping[str, str]  # {"pt-BR", "en"}
    extraction_check: ExtractionCheckPlan | None = None  # None: not declared

    @property
    def preregistered(self) -> bool:
        return self.status == "preregistered"


@dataclass(frozen=True, kw_only=True)
class Manifest(core.Manifest):
    """round.json: the common keys plus the `counterfactual` block (`ended_on` required)."""

    kind: str = NAME
    system_under_test: Mapping[str, str]  # {"pt-BR", "en"}
    battery_sha256: str
    repetitions: int  # R >= 2
    mask_token: str
    baseline_round: str | None
    preregistration: Preregistration


# --- models.csv ---------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class System(core.Model):
    """One row of models.csv: a system under test (model, system prompt, tools, context)."""

    system_prompt_sha256: str
    tools: tuple[str, ...]  # sorted tool names; () when none
    tools_sha256: str
    context_source: str  # "none" when there is none
    baseline_model_id: str | None  # the system of baseline_round it re-measures


# --- the battery --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Attribute:
    """One row of attributes.csv."""

    attribute_id: str
    name_pt: str
    name_en: str
    held_value: str  # the slot's value in other attributes' items; "" = none / no mention


@dataclass(frozen=True, slots=True)
class Group:
    """One row of groups.csv; file order = display order and pair orientation."""

    group_id: str
    attribute_id: str
    name_pt: str
    name_en: str


@dataclass(frozen=True, slots=True)
class Variant:
    """One row of variants.csv: one signal value of a group."""

    variant_id: str
    group_id: str
    signal: Signal
    slot: str | None  # None for writing_style (the whole text is rewritten)
    value: str  # "" only for an explicit control (no mention)
    position: int  # k = 1..K within the group
    mask_terms: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Template:
    """One row of templates.csv: a business message template."""

    template_id: str
    attributes: tuple[str, ...]  # attribute_ids it is crossed with
    language: str  # "pt-BR" | "en": which text is sent
    scenario_pt: str
    scenario_en: str
    user_tone: UserTone
    text_pt: str
    text_en: str
    context: str | None  # None when empty
    published: bool
    expected: Mapping[str, Expected | None]  # per binary variable_id, variables.csv order

    @property
    def sent_text(self) -> str:
        return self.text_pt if self.language == "pt-BR" else self.text_en


@dataclass(frozen=True, slots=True)
class Rewrite:
    """One row of rewrites.csv: a template rewritten in a writing_style variant."""

    template_id: str
    variant_id: str
    text_pt: str
    text_en: str


@dataclass(frozen=True, slots=True)
class Variable:
    """One row of variables.csv: an outcome variable and its extractor."""

    variable_id: str
    level: Level
    type: VariableType
    scale: tuple[int, int] | None  # (scale_min, scale_max) for score; None otherwise
    extractor: ExtractorKind
    extractor_id: str
    extractor_version: str
    name_pt: str
    name_en: str
    question_pt: str
    question_en: str

    @property
    def judged_score(self) -> bool:
        """A model-scored `score` variable: it requires calibration.parquet."""
        return self.type == "score" and self.extractor == "model"


# --- items, responses, extractions, calibration -------------------------------------


@dataclass(frozen=True, slots=True)
class Item(CoreItem):
    """One row of items.parquet: one (template, variant) cell, rendered (the core's
    columns, then the kind's)."""

    template_id: str
    attribute_id: str
    variant_id: str
    context: str | None
    prompt_sha256: str
    context_sha256: str | None


@dataclass(frozen=True, slots=True)
class Response:
    """One row of responses/<model_id>.parquet: one (item, run) of a system."""

    item_id: str
    model_id: str
    run: int
    raw_text: str | None  # never null in the file; None when read without text (with_text=False)
    latency_ms: float | None
    called_at: datetime  # UTC
    run_order: int
    system_prompt_sha256: str
    tools_sha256: str
    prompt_sha256: str  # of the user message actually sent: the item's prompt
    context_sha256: str | None  # of the context actually sent (None: none sent)


ResponseKey = tuple[str, int]  # (item_id, run) within one system


@dataclass(frozen=True, slots=True)
class Extraction:
    """One row of extractions/<model_id>.parquet: one (item, run, variable)."""

    model_id: str
    item_id: str
    run: int
    variable_id: str
    value: str  # canonical spelling per type, or "na"
    input_text: str | None  # the masked text a model extractor saw; None for code
    input_sha256: str | None


@dataclass(frozen=True, slots=True)
class CalibrationRow:
    """One row of calibration.parquet: a blind hand score of a judged response."""

    variable_id: str
    model_id: str
    item_id: str
    run: int
    input_sha256: str
    judge_score: int
    human_score: int
    reviewer: str
    scored_on: date


@dataclass(frozen=True, slots=True)
class ExtractionCheckRow:
    """One row of extraction_checks.parquet: a person's reading of a checked variable
    (binary, or a model's count) in one response, beside the frozen extracted value."""

    variable_id: str
    model_id: str
    item_id: str
    run: int
    extracted_value: str  # the frozen extraction value: yes, no or na; a count or na
    human_value: str  # what the reviewer read in the answer, spelled as the value is
    reviewer: str  # a pseudonym
    checked_on: date


MaskDecisionValue = Literal["held", "leaked"]
MASK_DECISIONS: tuple[MaskDecisionValue, ...] = ("held", "leaked")
ScoreKey = tuple[str, str, str, int]  # (variable_id, model_id, item_id, run)


@dataclass(frozen=True, slots=True)
class MaskDecision:
    """One row of mask_audit.parquet: the administrator's decision on a flagged judge
    input. `leaked` voids the judge's score of that response for the analysis."""

    variable_id: str
    model_id: str
    item_id: str
    run: int
    input_sha256: str
    decision: MaskDecisionValue
    ref: str  # the review app's sample code
    decided_on: date

    @property
    def key(self) -> ScoreKey:
        return (self.variable_id, self.model_id, self.item_id, self.run)


@dataclass(frozen=True, kw_only=True)
class Round(core.Round):
    """A verified counterfactual round archive plus its annulment ledger.

    `models` holds `System`s in models.csv order; `responses` and `extractions` map
    each model_id to its rows in file order. Battery tables keep their file order
    (groups.csv's order orients every group pair).
    """

    manifest: Manifest
    models: tuple[System, ...]
    items: tuple[Item, ...]
    attributes: tuple[Attribute, ...]
    groups: tuple[Group, ...]
    variants: tuple[Variant, ...]
    templates: tuple[Template, ...]
    rewrites: tuple[Rewrite, ...]  # () when no writing_style attribute
    variables: tuple[Variable, ...]
    responses: Mapping[str, tuple[Response, ...]]
    extractions: Mapping[str, tuple[Extraction, ...]]
    calibration: tuple[CalibrationRow, ...]  # () when no judged score variable
    mask_audit: tuple[MaskDecision, ...] = ()  # mask_audit.parquet, when present
    extraction_checks: tuple[ExtractionCheckRow, ...] = ()  # extraction_checks.parquet

    @property
    def voided_scores(self) -> frozenset[ScoreKey]:
        """The judge scores a leaked mask voids: left out of every finding."""
        return frozenset(row.key for row in self.mask_audit if row.decision == "leaked")
