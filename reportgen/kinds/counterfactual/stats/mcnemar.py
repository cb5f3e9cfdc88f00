"""McNemar's test for paired binary values (counterfactual-metrics.md §4).

d = b + c discordant pairs. d = 0: p = 1 (exact, no statistic). d < 25: the exact two-sided
binomial p = min(1, 2·Σ_{i ≤ min(b, c)} C(d, i) / 2^d), computed exactly with integers
(it equals `scipy.stats.binomtest(b, d, 0.5).pvalue`). d ≥ 25: χ² = (|b − c| − 1)² / d with
p = P(χ²₁ > χ²). No determined pair: not computable.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
from scipy import special

from reportgen.kinds.counterfactual.stats.paired import Method, PairedTest

EXACT_BELOW_DISCORDANT = 25
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]


def mcnemar_p(b: int, c: int) -> tuple[Method, float | None, float]:
    """(method, statistic, p) of McNemar on b and c discordant pairs."""
    discordant = b + c
    if discordant == 0:
        return "exact", None, 1.0
    if discordant < EXACT_BELOW_DISCORDANT:
        tail = sum(math.comb(discordant, i) for i in range(min(b, c) + 1))
        return "exact", None, float(min(Fraction(1), Fraction(2 * tail, 2**discordant)))
    statistic = (abs(b - c) - 1) ** 2 / discordant
    return "chi2", statistic, float(special.chdtrc(1, statistic))


def mcnemar_table(table: tuple[tuple[int, int], tuple[int, int]]) -> PairedTest:
    """The test of a 2 x 2 table [[yy, yn], [ny, nn]] (rows g yes/no, columns h yes/no)."""
    (yy, yn), (ny, nn) = table
    n_pairs = yy + yn + ny + nn
    if n_pairs == 0:
        return PairedTest("mcnemar", 0, None, None, None, None, b=0, c=0, table=table)
    method, statistic, p = mcnemar_p(yn, ny)
    return PairedTest(
        test="mcnemar",
        n_pairs=n_pairs,
        method=method,
        statistic=statistic,
        p=p,
        effect=Fraction(yn - ny, n_pairs),
        b=yn,
        c=ny,
        table=table,
    )


def mcnemar_paired(g_yes: BoolArray, h_yes: BoolArray, kept: BoolArray) -> PairedTest:
    """The test over paired units: `g_yes`, `h_yes` the sides' values (yes = True) and
    `kept` the units where both sides are determined; all flat and aligned."""
    g = g_yes[kept]
    h = h_yes[kept]
    yy = int(np.count_nonzero(g & h))
    yn = int(np.count_nonzero(g & ~h))
    ny = int(np.count_nonzero(~g & h))
    nn = int(g.size) - yy - yn - ny
    return mcnemar_table(((yy, yn), (ny, nn)))
