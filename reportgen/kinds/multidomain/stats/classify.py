"""Classification (multidomain-metrics.md §3, MD-I15): the tie-break chain, exactly.

Start with every participant in one group; split a group by criterion k into sub-groups of
equal value (best first), recurse with k + 1 inside each sub-group of two or more. A
criterion undefined for any member of a group is skipped for that group. Groups left after
the last criterion share a rank (competition ranking: 1, 2, 2, 4).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.score import RoundPoints, fraction_sum

# Criterion names in chain order, and whether a higher value is better.
CRITERIA: tuple[str, ...] = (
    "primary",
    "global",
    "high_grade",
    "non_native",
    "judge_variance",
    "cost_per_point",
)
HIGHER_IS_BETTER: Mapping[str, bool] = {
    "primary": True,
    "global": True,
    "high_grade": True,
    "non_native": True,
    "judge_variance": False,
    "cost_per_point": False,
}

Values = Mapping[str, Fraction | None]  # criterion -> value for one participant


def population_variance(values: Sequence[Fraction]) -> Fraction:
    """(n Σ v² - (Σ v)²) / n², with the values scaled to integers first (fast, exact)."""
    scale = math.lcm(*(v.denominator for v in values))
    scaled = [v.numerator * (scale // v.denominator) for v in values]
    n = len(scaled)
    return Fraction(n * sum(x * x for x in scaled) - sum(scaled) ** 2, n * n * scale * scale)


def judge_variance(points: RoundPoints, model: int) -> Fraction | None:
    """Criterion 4: mean over the participant's jury-scored responses to scored items (all
    runs) of the population variance of its juror scores; None without any."""
    model_id = points.model_ids[model]
    by_denominator: dict[int, int] = defaultdict(int)  # Σ numerators per denominator
    count = 0
    for item in points.items:
        for response in points.responses.get((model_id, item.item_id), ()):
            outcome = points.outcomes.get((item.item_id, model_id, response.run))
            if outcome is not None:
                variance = population_variance(outcome.juror_scores)
                by_denominator[variance.denominator] += variance.numerator
                count += 1
    if not count:
        return None
    total = sum((Fraction(n, d) for d, n in by_denominator.items()), Fraction(0))
    return total / count


def cost_per_point(points: RoundPoints, model: int) -> Fraction | None:
    """Criterion 5: Σ cost_micro ÷ Σ_r Σ_i p(m, i, r); None with zero points."""
    model_id = points.model_ids[model]
    total_points = fraction_sum(p for runs in points.run_points[model] for p in runs)
    if total_points == 0:
        return None
    cost = sum(
        response.cost_micro
        for item in points.items
        for response in points.responses.get((model_id, item.item_id), ())
    )
    return cost / total_points


@dataclass(frozen=True)
class Classification:
    order: tuple[str, ...]  # model ids, best first
    ranks: Mapping[str, int]
    decided_by: tuple[str | None, ...]  # per adjacent pair of `order`; None: same rank


def classify(model_ids: Sequence[str], values: Mapping[str, Values]) -> Classification:
    """Order, competition ranks and "decided by" of every adjacent pair."""
    groups, labels = _split(list(model_ids), 0, values)
    order: list[str] = []
    decided_by: list[str | None] = []
    ranks: dict[str, int] = {}
    for index, group in enumerate(groups):
        if index > 0:
            decided_by.append(labels[index - 1])
        first = len(order) + 1  # competition ranking: 1 + members of earlier groups
        for position, model_id in enumerate(group):
            if position > 0:
                decided_by.append(None)
            ranks[model_id] = first
            order.append(model_id)
    return Classification(order=tuple(order), ranks=ranks, decided_by=tuple(decided_by))


def _split(
    members: list[str], k: int, values: Mapping[str, Values]
) -> tuple[list[list[str]], list[str]]:
    """Final groups of `members` from criterion k on, and the criterion that separates
    each pair of consecutive groups."""
    if len(members) <= 1 or k == len(CRITERIA):
        return [members], []
    criterion = CRITERIA[k]
    member_values = [values[m][criterion] for m in members]
    if any(value is None for value in member_values):
        return _split(members, k + 1, values)
    distinct = sorted(
        {v for v in member_values if v is not None}, reverse=HIGHER_IS_BETTER[criterion]
    )
    groups: list[list[str]] = []
    labels: list[str] = []
    for index, value in enumerate(distinct):
        sub = [m for m, v in zip(members, member_values, strict=True) if v == value]
        sub_groups, sub_labels = _split(sub, k + 1, values)
        if index > 0:
            labels.append(criterion)
        groups.extend(sub_groups)
        labels.extend(sub_labels)
    return groups, labels
