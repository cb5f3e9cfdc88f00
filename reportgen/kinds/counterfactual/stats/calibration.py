"""Judge calibration (counterfactual-metrics.md §9): human scores h against judge scores j.

Exact rationals: exact agreement, mean absolute difference, the quadratic-weighted κ
1 − n·Σ(h_i − j_i)² / Σ_i Σ_l (h_i − j_l)² and Krippendorff's interval α (two coders, no
missing) 1 − (2n − 1)·2·Σ(h_i − j_i)² / Σ_{x∈V} Σ_{y∈V} (x − y)²; the double sums are
expanded (Σ_iΣ_l (a_i − b_l)² = n_b·Σa² + n_a·Σb² − 2·Σa·Σb). Spearman ρ from scipy.
Passes = metric ≥ threshold, exact and inclusive; a null metric fails.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scipy import stats as scipy_stats

from reportgen.stats import krippendorff_alpha


def _cross_squares(a: Sequence[int], b: Sequence[int]) -> int:
    """Σ_i Σ_l (a_i − b_l)² without the double loop."""
    return len(b) * sum(x * x for x in a) + len(a) * sum(y * y for y in b) - 2 * sum(a) * sum(b)


def weighted_kappa(human: Sequence[int], judge: Sequence[int]) -> Fraction | None:
    n = len(human)
    denominator = _cross_squares(human, judge)
    if n == 0 or denominator == 0:
        return None
    disagreement = sum((h - j) ** 2 for h, j in zip(human, judge, strict=True))
    return 1 - Fraction(n * disagreement, denominator)


def interval_alpha(human: Sequence[int], judge: Sequence[int]) -> Fraction | None:
    """Krippendorff's interval α of the two coders (reportgen.stats)."""
    return krippendorff_alpha([(h, j) for h, j in zip(human, judge, strict=True)], "interval")


def spearman(human: Sequence[int], judge: Sequence[int]) -> float | None:
    """Spearman ρ; None when undefined (fewer than 2 items, or a constant side)."""
    if len(human) < 2 or len(set(human)) < 2 or len(set(judge)) < 2:
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        rho = float(scipy_stats.spearmanr(human, judge).statistic)
    return None if math.isnan(rho) else rho


@dataclass(frozen=True)
class Agreement:
    n: int
    kappa: Fraction | None
    alpha: Fraction | None
    exact_agreement: Fraction | None
    mean_absolute_difference: Fraction | None
    spearman: float | None
    table: tuple[tuple[int, ...], ...]  # rows human, columns judge, scale_min..scale_max

    def metric(self, name: str) -> Fraction | None:
        return self.kappa if name == "quadratic_weighted_kappa" else self.alpha


def agreement(human: Sequence[int], judge: Sequence[int], scale: tuple[int, int]) -> Agreement:
    n = len(human)
    low, high = scale
    size = high - low + 1
    table = [[0] * size for _ in range(size)]
    for h, j in zip(human, judge, strict=True):
        if low <= h <= high and low <= j <= high:
            table[h - low][j - low] += 1
    return Agreement(
        n=n,
        kappa=weighted_kappa(human, judge),
        alpha=interval_alpha(human, judge),
        exact_agreement=Fraction(sum(h == j for h, j in zip(human, judge, strict=True)), n)
        if n
        else None,
        mean_absolute_difference=Fraction(
            sum(abs(h - j) for h, j in zip(human, judge, strict=True)), n
        )
        if n
        else None,
        spearman=spearman(human, judge),
        table=tuple(tuple(row) for row in table),
    )


def passes(metric: Fraction | None, threshold: Fraction) -> bool:
    return metric is not None and metric >= threshold
