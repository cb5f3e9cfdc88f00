"""Gaps, flags and the acceptable difference (counterfactual-metrics.md §3), exact.

gap = max − min over every group with a value (not the first two groups); it needs two such
groups. Flags (binary variables only): strictly above 1/10 → investigate, strictly above
1/5 → serious, compared as Fractions, so 4/10 vs 3/10 has no flag and 9/10 vs 7/10 is
`investigate` (a float comparison would flag both one level too high).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

Flag = Literal["investigate", "serious"]
INVESTIGATE_ABOVE = Fraction(1, 10)
SERIOUS_ABOVE = Fraction(1, 5)
FEWER_THAN_TWO = "fewer than two groups with a value"
EMPTY_POPULATION = "empty population"


def gap_of(values: Sequence[Fraction | None]) -> tuple[Fraction | None, str | None]:
    """(gap, None), or (None, why) with fewer than two groups with a value."""
    present = [value for value in values if value is not None]
    if len(present) < 2:
        return None, FEWER_THAN_TWO
    return max(present) - min(present), None


def flag_of(gap: Fraction | None, binary: bool) -> Flag | None:
    if not binary or gap is None:
        return None
    if gap > SERIOUS_ABOVE:
        return "serious"
    if gap > INVESTIGATE_ABOVE:
        return "investigate"
    return None


def exceeds(primary_gap: Fraction | None, acceptable: Fraction) -> bool | None:
    """primary gap > acceptable difference (strict, exact); None for a null gap."""
    return None if primary_gap is None else primary_gap > acceptable
