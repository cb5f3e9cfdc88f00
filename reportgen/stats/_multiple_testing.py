"""Benjamini-Hochberg over a family of tests (metrics.md, counterfactual-metrics.md §6).

Step-up, monotone, capped at 1: sort the m raw p ascending, p̃_(i) = min_{j ≥ i} p_(j)·m/j
(computed as p / (j/m), statsmodels' arithmetic, so the floats agree with
`multipletests(method="fdr_bh")`, which the tests compare against; written with numpy
so that a kind's results need not import statsmodels). Tied raw values get the same
adjusted value. Significant = adjusted p ≤ α, compared exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np


def bh_adjust(p_values: Sequence[float]) -> list[float]:
    """The adjusted p of each raw p, in the input order."""
    count = len(p_values)
    if count == 0:
        return []
    raw = np.asarray(p_values, dtype=np.float64)
    order = np.argsort(raw, kind="mergesort")
    ranks = np.arange(1, count + 1, dtype=np.float64) / count
    stepped = np.minimum.accumulate((raw[order] / ranks)[::-1])[::-1]
    adjusted = np.empty(count, dtype=np.float64)
    adjusted[order] = np.minimum(stepped, 1.0)
    return [float(p) for p in adjusted]


def significant(p_adjusted: float | None, alpha: Fraction) -> bool:
    return p_adjusted is not None and Fraction(p_adjusted) <= alpha
