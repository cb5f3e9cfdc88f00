"""The row of an attribute × variable and its finding (counterfactual-metrics.md §7).

Extreme pair: the first group (groups.csv order) with the maximum value and the first with
the minimum, written in groups.csv order; the first two groups when all values are equal.
A problem pair: |δ_gh| > acceptable difference and significant. The finding is the first
that applies of: extractor_below_agreement (people's extraction check, issue 21),
judge_not_calibrated, not_computable, problem, exceeds_not_significant,
significant_within_acceptable, no_difference_found (which never means "fair").
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal, get_args

LEVEL_ORDER: tuple[str, ...] = ("decision", "quality", "tone")
FindingName = Literal[
    "problem",
    "exceeds_not_significant",
    "significant_within_acceptable",
    "no_difference_found",
    "not_computable",
    "judge_not_calibrated",
    "extractor_below_agreement",
]
FINDING_ORDER: tuple[str, ...] = get_args(FindingName)


def extreme_pair(values: Sequence[Fraction | None]) -> tuple[int, int] | None:
    """Indices (g, h), g < h, of the pair that makes the gap; None with < 2 values."""
    present = [(i, v) for i, v in enumerate(values) if v is not None]
    if len(present) < 2:
        return None
    top = max(v for _, v in present)
    bottom = min(v for _, v in present)
    high = next(i for i, v in present if v == top)
    low = next(i for i, v in present if v == bottom)
    if high == low:
        return 0, 1
    return min(high, low), max(high, low)


def is_problem(difference: Fraction | None, significant: bool, acceptable: Fraction) -> bool:
    return difference is not None and significant and abs(difference) > acceptable


def finding_of(
    *,
    judge_calibrated: bool,
    extractor_agrees: bool = True,
    primary_gap: Fraction | None,
    exceeds: bool | None,
    problems: int,
    significant: int,
) -> str:
    if not extractor_agrees:
        return "extractor_below_agreement"
    if not judge_calibrated:
        return "judge_not_calibrated"
    if primary_gap is None:
        return "not_computable"
    if problems:
        return "problem"
    if exceeds:
        return "exceeds_not_significant"
    if significant:
        return "significant_within_acceptable"
    return "no_difference_found"


def finding_sort_key(
    level: str, finding: str, attribute_index: int, variable_index: int
) -> tuple[int, int, int, int]:
    """Level (decision → quality → tone), finding (3, 4, 5, 6, 2, 1), attribute, variable."""
    return (LEVEL_ORDER.index(level), FINDING_ORDER.index(finding), attribute_index, variable_index)
