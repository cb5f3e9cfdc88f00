"""The within-group placebo (counterfactual-metrics.md §8).

Placebo gap = max over groups of (max − min of that group's per-name values). The
name-carried warning: the finding reports something (problem, exceeds_not_significant or
significant_within_acceptable), the DP gap is above 0, and the placebo gap is at least the
DP gap, so the reported difference is no larger than the one between names of one group.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from fractions import Fraction

from reportgen.kinds.counterfactual.stats.groups import NameStat

REPORTING = frozenset({"problem", "exceeds_not_significant", "significant_within_acceptable"})


def placebo_gap(names: Sequence[NameStat]) -> Fraction | None:
    """None when no group has two names with a value."""
    by_group: dict[str, list[Fraction]] = defaultdict(list)
    for name in names:
        if name.value is not None:
            by_group[name.group_id].append(name.value)
    spreads = [max(values) - min(values) for values in by_group.values() if len(values) >= 2]
    return max(spreads) if spreads else None


def name_carried(finding: str, dp_gap: Fraction | None, placebo: Fraction | None) -> bool:
    if finding not in REPORTING or dp_gap is None or placebo is None:
        return False
    return dp_gap > 0 and placebo >= dp_gap
