"""Wilcoxon's signed-rank test for paired counts and scores (counterfactual-metrics.md §5).

Zero differences dropped (zero_method "wilcox"), average ranks for ties. Up to 50 non-zero
differences the p-value is the exact conditional one: given the observed midranks ρ_i, each
sign is ± with probability ½, and the distribution of Q = Σ 2ρ_i·ε_i (integers) comes from a
dynamic programme over sums; its counts stay below 2^50, exact in float64. Above 50, the
tie-corrected normal approximation without continuity correction. Statistic = min(W⁺, W⁻).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

import numpy as np
from numpy.typing import NDArray
from scipy import stats as scipy_stats

from reportgen.kinds.counterfactual.stats.paired import Method, PairedTest

EXACT_MAX_NONZERO = 50
IntArray = NDArray[np.int64]


def _exact_conditional_p(doubled_ranks: Sequence[int], doubled_w_plus: int) -> float:
    total = sum(doubled_ranks)
    counts = np.zeros(total + 1, dtype=np.float64)
    counts[0] = 1.0
    reach = 0
    for q in doubled_ranks:  # counts[s] = sign patterns whose positive ranks sum to s
        counts[q : reach + q + 1] += counts[: reach + 1].copy()
        reach += q
    bound = min(doubled_w_plus, total - doubled_w_plus)
    tail = float(counts[: bound + 1].sum()) / 2.0 ** len(doubled_ranks)
    return min(1.0, 2.0 * tail)


def _normal_p(nonzero: int, w_plus: float, tie_sizes: Sequence[int]) -> float:
    variance = nonzero * (nonzero + 1) * (2 * nonzero + 1) / 24
    variance -= sum(t**3 - t for t in tie_sizes) / 48
    z = (w_plus - nonzero * (nonzero + 1) / 4) / math.sqrt(variance)
    return float(math.erfc(abs(z) / math.sqrt(2)))


def wilcoxon(differences: Sequence[int] | IntArray) -> PairedTest:
    """The test of the paired differences d_u = y_g − y_h (integers, zeros included)."""
    d = np.asarray(differences, dtype=np.int64).ravel()
    n_pairs = len(d)
    if n_pairs == 0:
        return PairedTest("wilcoxon_signed_rank", 0, None, None, None, None)
    effect = Fraction(int(d.sum()), n_pairs)
    middle = _median(d)
    nonzero = d[d != 0]
    if not len(nonzero):
        return PairedTest(
            "wilcoxon_signed_rank",
            n_pairs,
            "exact_conditional",
            0.0,
            1.0,
            effect,
            n_nonzero=0,
            w_plus=0.0,
            median=middle,
        )
    ranks = scipy_stats.rankdata(np.abs(nonzero), method="average")
    doubled = np.rint(2 * ranks).astype(np.int64)  # midranks are multiples of 1/2
    doubled_w_plus = int(doubled[nonzero > 0].sum())
    total = int(doubled.sum())
    w_plus = doubled_w_plus / 2
    w_minus = (total - doubled_w_plus) / 2
    if len(nonzero) <= EXACT_MAX_NONZERO:
        method: Method = "exact_conditional"
        p = _exact_conditional_p([int(q) for q in doubled], doubled_w_plus)
    else:
        _, tie_sizes = np.unique(np.abs(nonzero), return_counts=True)
        method = "normal"
        p = _normal_p(len(nonzero), w_plus, [int(t) for t in tie_sizes])
    return PairedTest(
        test="wilcoxon_signed_rank",
        n_pairs=n_pairs,
        method=method,
        statistic=min(w_plus, w_minus),
        p=p,
        effect=effect,
        n_nonzero=len(nonzero),
        w_plus=w_plus,
        median=middle,
    )


def _median(values: IntArray) -> Fraction:
    ordered = np.sort(values)
    half = len(ordered) // 2
    if len(ordered) % 2:
        return Fraction(int(ordered[half]))
    return Fraction(int(ordered[half - 1]) + int(ordered[half]), 2)
