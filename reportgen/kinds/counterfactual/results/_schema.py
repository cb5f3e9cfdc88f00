"""The counterfactual results object as frozen pydantic models: its JSON form and JSON Schema.

Everything counterfactual-report.md shows and downloads (gaps.csv, groups.csv, names.csv,
calibration.csv) is here. `results.schema.json`, beside this module, is generated from
these models (`python -m reportgen.kinds.schemas counterfactual` writes it again; a test
fails when it is stale).
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import Field

from reportgen.kinds.counterfactual.results._values import (
    Criterion,
    Exact,
    FindingName,
    Flag,
    Gap,
    Interval,
    NameValue,
    PairTest,
    ResultsModel,
    VariableKey,
)
from reportgen.results.schema import SCHEMA_FILE as SCHEMA_FILE
from reportgen.results.schema import KindResults, ResultsSchema

SchemaVersion = Literal["reportgen-counterfactual-results/2"]
SCHEMA: Final[SchemaVersion] = "reportgen-counterfactual-results/2"


class Placebo(ResultsModel):
    """Within-group name comparisons of one attribute x variable (§8)."""

    gap: Exact | None = Field(description="max over groups of (max - min of its names)")
    pairs: tuple[PairTest, ...] = Field(description="groups.csv order, then k < k'")


class Row(VariableKey):
    """One system x attribute x variable (§7): values, gaps, tests, finding."""

    criterion: Criterion = Field(description="the preregistered criterion")
    acceptable_difference: Exact
    judge_calibrated: bool = Field(description="false: the judge failed calibration (§9)")
    demographic_parity: Gap
    equal_opportunity: Gap | None = Field(
        description="binary variables only; null for count and score variables"
    )
    primary_gap: Exact | None = Field(description="the gap of the preregistered criterion")
    exceeds: bool | None = Field(description="primary gap > acceptable difference; null if null")
    extreme_pair: PairTest | None = Field(description="the pair making the gap, from the family")
    pairs: tuple[PairTest, ...] = Field(description="every group pair, groups.csv order")
    significant_pairs: int
    total_pairs: int
    finding: FindingName
    finding_reason: str | None = Field(description="not_computable: why")
    names: tuple[NameValue, ...] = Field(description="per name: groups.csv order, positions")
    placebo: Placebo
    name_carried: bool = Field(description="the name-carried warning of §8")


class Finding(VariableKey):
    """A finding line (report §2), in the order of metrics §7."""

    finding: FindingName
    reason: str | None
    criterion: Criterion
    primary_gap: Exact | None
    interval: Interval | None
    acceptable_difference: Exact
    flag: Flag | None = Field(description="binary variables: the primary gap's flag")
    name_carried: bool


class RegressionRow(VariableKey):
    """Before/after of one attribute x variable (§11), on the primary criterion."""

    criterion: Criterion
    gap_before: Exact | None
    gap_after: Exact | None
    change: Exact | None = Field(description="after - before; null if either is null")
    interval: Interval | None = Field(description="of the change, same draws on both rounds")
    flag_before: Flag | None
    flag_after: Flag | None
    exceeds_before: bool | None
    exceeds_after: bool | None
    templates: tuple[str, ...] = Field(description="the templates present in both rounds")
    templates_differ: bool = Field(description="the set differs from this round's main view")


class Regression(ResultsModel):
    """One system with a baseline system (§11)."""

    model_id: str
    display_name: str
    baseline_model_id: str
    baseline_display_name: str
    rows: tuple[RegressionRow, ...] = Field(description="attributes.csv x variables.csv order")


class SystemResults(ResultsModel):
    """One system under test (models.csv order)."""

    model_id: str
    display_name: str
    responses: int
    findings: tuple[Finding, ...] = Field(description="metrics §7 order")
    rows: tuple[Row, ...] = Field(description="attributes.csv order, then variables.csv order")
    family_size: int = Field(description="computable tests in the system's BH family")
    placebo_family_size: int


class ScoreCount(ResultsModel):
    key: str = Field(description="a group id (per group) or a model id (per system)")
    attribute_id: str | None = Field(description="per group: the group's attribute")
    count: int


class JudgeCalibration(ResultsModel):
    """One judged score variable (§9): all systems pooled."""

    variable_id: str
    n: int
    min_items: int
    below_guide_minimum: bool = Field(description="min_items < 50 (the guide's minimum)")
    metric: Literal["quadratic_weighted_kappa", "krippendorff_alpha_interval"]
    threshold: Exact
    metric_value: Exact | None
    passes: bool
    kappa: Exact | None = Field(description="quadratic-weighted Cohen's kappa")
    alpha: Exact | None = Field(description="Krippendorff's alpha, interval metric")
    exact_agreement: Exact | None
    mean_absolute_difference: Exact | None
    spearman: float | None
    scale_min: int
    scale_max: int
    table: tuple[tuple[int, ...], ...] = Field(
        description="rows: human score scale_min..scale_max; columns: judge score"
    )
    per_group: tuple[ScoreCount, ...]
    per_system: tuple[ScoreCount, ...]


class RemovedTemplate(ResultsModel):
    """A template removed from an attribute's analysis by annulment (round §annulments)."""

    attribute_id: str
    template_id: str
    item_ids: tuple[str, ...] = Field(description="the annulled items that removed it")


class ExtractionAgreement(ResultsModel):
    """People's check of one checked variable's extractions (issue 21: a binary variable,
    or a count whose extractor is a model; agreement is an exact match): all systems pooled."""

    variable_id: str
    n: int = Field(description="checks (response x reviewer)")
    agreeing: int = Field(description="checks whose human value equals the extracted one")
    agreement: Exact | None = Field(description="agreeing / n; null without checks")
    interval_lo: float | None = Field(description="95% Wilson interval, lower end")
    interval_hi: float | None = Field(description="95% Wilson interval, upper end")
    min_items: int
    threshold: Exact
    passes: bool = Field(description="agreement >= threshold; false: no findings")


class VoidedScore(ResultsModel):
    """A judge score a leaked mask voids (mask_audit.parquet): left out of every finding."""

    variable_id: str
    model_id: str
    item_id: str
    run: int
    ref: str = Field(description="the review app's sample code of the decision")


class AttributeSummary(ResultsModel):
    attribute_id: str
    groups: tuple[str, ...]
    positions: int = Field(description="K, names (variants) per group")
    templates: tuple[str, ...] = Field(description="T_a after annulments, templates.csv order")


class Counts(ResultsModel):
    systems: int
    attributes: int
    templates: int
    variables: int
    items: int
    runs: int
    calls_per_system: int
    annulled_items: int
    voided_scores: int = Field(description="judge scores a leaked mask voids")


class Results(KindResults[SchemaVersion, Literal["counterfactual"]]):
    """Every computation of one counterfactual round (counterfactual-metrics.md)."""

    preregistered: bool = Field(description="preregistration.status = preregistered")
    alpha: Exact
    replicates: int
    seed: int
    counts: Counts
    attributes: tuple[AttributeSummary, ...]
    removed_templates: tuple[RemovedTemplate, ...]
    voided_scores: tuple[VoidedScore, ...] = Field(
        description="sorted by variable, system, item, run"
    )
    calibration: tuple[JudgeCalibration, ...] = Field(description="variables.csv order")
    extraction_checks: tuple[ExtractionAgreement, ...] = Field(
        description="checked variables (binary; model counts), variables.csv order; "
        "empty without a declared check"
    )
    systems: tuple[SystemResults, ...] = Field(description="models.csv order")
    baseline_round: str | None
    baseline_preregistration_differs: bool | None = Field(
        description="the baseline's own preregistration differed (null without baseline)"
    )
    regression: tuple[Regression, ...] = Field(description="systems with a baseline system")


RESULTS_SCHEMA = ResultsSchema(Results, SCHEMA, __name__.rpartition(".")[0])
results_json_schema = RESULTS_SCHEMA.json_schema
results_json_schema_text = RESULTS_SCHEMA.text
published_json_schema_text = RESULTS_SCHEMA.published_text
