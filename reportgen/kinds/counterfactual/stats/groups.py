"""Group values and per-name values (counterfactual-metrics.md §2), exact.

n_g = determined responses of g in the population, na_g = its `na` responses; the value is
(yes count or sum of values) / n_g, and there is none when n_g = 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.counterfactual.score import AttributeCells, BoolArray, Cells
from reportgen.stats import rate

NO_DETERMINED_RESPONSE = "no determined response"


@dataclass(frozen=True, slots=True)
class GroupStat:
    group_id: str
    n: int
    na: int
    total: int  # yes count (binary) or sum of values

    @property
    def value(self) -> Fraction | None:
        return rate(self.total, self.n)


@dataclass(frozen=True, slots=True)
class NameStat:
    group_id: str
    position: int  # k, 1-based
    variant_id: str
    n: int
    na: int
    total: int

    @property
    def value(self) -> Fraction | None:
        return rate(self.total, self.n)


def group_stats(
    attribute: AttributeCells, cells: Cells, population: BoolArray
) -> tuple[GroupStat, ...]:
    """Per group (groups.csv order) over the templates in `population`."""
    determined = cells.determined[population]  # (T', G, K, R)
    values = cells.values[population]
    n = determined.sum(axis=(0, 2, 3))
    total = (values * determined).sum(axis=(0, 2, 3))
    cells_per_group = determined.size // max(len(attribute.group_ids), 1)
    return tuple(
        GroupStat(group_id, int(n[g]), cells_per_group - int(n[g]), int(total[g]))
        for g, group_id in enumerate(attribute.group_ids)
    )


def name_stats(attribute: AttributeCells, cells: Cells) -> tuple[NameStat, ...]:
    """Per name (g, k) over DP(a) restricted to position k; groups.csv order, then k."""
    n = cells.determined.sum(axis=(0, 3))  # (G, K)
    total = (cells.values * cells.determined).sum(axis=(0, 3))
    per_name = len(attribute.template_ids) * attribute.runs
    return tuple(
        NameStat(
            group_id=group_id,
            position=k + 1,
            variant_id=attribute.variant_ids[g][k],
            n=int(n[g, k]),
            na=per_name - int(n[g, k]),
            total=int(total[g, k]),
        )
        for g, group_id in enumerate(attribute.group_ids)
        for k in range(attribute.positions)
    )
