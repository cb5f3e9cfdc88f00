"""The small value models of the counterfactual results object: exact rationals, group
values, gaps and tests (counterfactual-metrics.md §2-§5).

Exact values (rates, means, gaps, differences, κ, α) are `Exact`: the rational as a string
"n/d" (or "n") and the nearest float for display. p-values, test statistics, Spearman ρ and
bootstrap percentiles are floats (metrics §1). Undefined values are null, with a reason.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from reportgen.kinds.counterfactual.stats.findings import FindingName as FindingName
from reportgen.results.exact import Exact as SharedExact
from reportgen.results.exact import ResultsModel as ResultsModel

Criterion = Literal["demographic_parity", "equal_opportunity"]
Flag = Literal["investigate", "serious"]
TestName = Literal["mcnemar", "wilcoxon_signed_rank"]
TestMethod = Literal["exact", "chi2", "exact_conditional", "normal"]
Level = Literal["decision", "quality", "tone"]
VariableType = Literal["binary", "count", "score"]


class Exact(SharedExact):
    """An exact rational: `exact` is "n/d" or "n"; `value` the nearest float (display)."""

    DEFAULT_PLACES = 1


exact = Exact.optional  # an exact value, or None (undefined)


class VariableKey(ResultsModel):
    """The fields that open a model of one attribute x variable."""

    attribute_id: str
    variable_id: str
    level: Level
    type: VariableType


class GroupValue(ResultsModel):
    """One group's rate (binary) or mean (count, score) over a population (metrics §2)."""

    group_id: str
    value: Exact | None = Field(description="null when n = 0 (no determined response)")
    n: int = Field(description="determined responses of the group in the population")
    na: int = Field(description="'na' responses of the group in the population")
    positives: int = Field(description="binary: responses 'yes'; count/score: sum of values")
    reason: str | None = Field(description="'no determined response' when n = 0; else null")


class NameValue(ResultsModel):
    """The same value for one name (variant), over DP restricted to its position (§2, §8)."""

    group_id: str
    position: int
    variant_id: str
    value: Exact | None
    n: int
    na: int


class Interval(ResultsModel):
    """A 95% crossed-bootstrap interval (§10): floats, numpy's linear percentile."""

    lo: float | None = Field(description="2.5th percentile; null when no replicate is kept")
    hi: float | None = Field(description="97.5th percentile; null when no replicate is kept")
    kept: int = Field(description="replicates with a gap")
    left_out: int = Field(description="replicates where a group had weighted denominator 0")


class Gap(ResultsModel):
    """max - min of the group values over one criterion's population (§3)."""

    criterion: Criterion
    groups: tuple[GroupValue, ...] = Field(description="groups.csv order")
    gap: Exact | None = Field(description="null with fewer than 2 groups with a value")
    reason: str | None = Field(description="why the gap is null; null when it is not")
    flag: Flag | None = Field(description="binary only: strictly above 1/10 or 1/5")
    interval: Interval | None = Field(description="null when the gap is null")


class PairTest(ResultsModel):
    """The paired test of groups g (earlier) and h (later) on one population (§4, §5, §8)."""

    g: str = Field(description="group id (placebo: the group) of the earlier side")
    h: str = Field(description="group id (placebo: the same group) of the later side")
    position_g: int | None = Field(description="placebo only: the earlier position k")
    position_h: int | None = Field(description="placebo only: the later position k'")
    criterion: Criterion
    test: TestName
    computable: bool
    reason: str | None = Field(description="'no determined pair' when not computable")
    method: TestMethod | None
    n_pairs: int = Field(description="units where both sides are determined")
    b: int | None = Field(description="McNemar: g yes, h no")
    c: int | None = Field(description="McNemar: g no, h yes")
    table: tuple[tuple[int, int], tuple[int, int]] | None = Field(
        description="McNemar: [[yy, yn], [ny, nn]], rows g yes/no, columns h yes/no"
    )
    n_nonzero: int | None = Field(description="Wilcoxon: n', the non-zero differences")
    w_plus: float | None = Field(description="Wilcoxon: W+ (a multiple of 1/2)")
    statistic: float | None = Field(description="chi2, or min(W+, W-); null for exact McNemar")
    p: float | None
    p_adjusted: float | None = Field(description="BH within the family; null outside it")
    significant: bool = Field(description="p_adjusted <= alpha")
    difference: Exact | None = Field(
        description="delta_gh = value_g - value_h over the population (§7); null without both"
    )
    effect: Exact | None = Field(
        description="McNemar: (b - c) / n_pairs; Wilcoxon: mean of d over the pairs"
    )
    median_difference: Exact | None = Field(description="Wilcoxon: median of d")
    problem: bool = Field(description="|difference| > acceptable difference and significant")
    in_family: bool = Field(description="part of the system's BH family")
