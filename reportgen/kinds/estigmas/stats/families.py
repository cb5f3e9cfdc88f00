"""Chi-square tests of many 2 x k tables at once: the per-model families at leaderboard scale.

`chi_square_families` gives what `significance.chi_square` gives for each table, computed on
arrays: Pearson's statistic, the chi-square p-value, Cramer's V, and where an expected
count is below `MIN_EXPECTED` the permutation p-value: exact for two groups (the
hypergeometric mass, each distinct table computed once), else the Monte Carlo p-value of
`permutation.shared_permutation_p`, whose draws the tables with the same column totals
share (one family across models) and which stops early where p is clearly large.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special
from scipy import stats as scipy_stats

from reportgen.kinds.estigmas.stats.permutation import (
    IntArray,
    chi_square_statistics,
    shared_permutation_p,
)
from reportgen.kinds.estigmas.stats.significance import (
    _TIE_TOLERANCE,
    MIN_EXPECTED,
    ChiSquareTest,
    TestFamily,
)
from reportgen.stats import bh_adjust


def _reasons(biased: IntArray, totals: IntArray, columns: Sequence[str]) -> list[str | None]:
    """Why each table has no test (significance._not_computable, on arrays)."""
    if len(columns) < 2:
        return [f"needs at least two groups, found {len(columns)}"] * len(biased)
    no_biased = biased.sum(axis=1) == 0
    all_biased = (totals - biased).sum(axis=1) == 0
    empty = totals == 0
    reasons: list[str | None] = [None] * len(biased)
    for k in np.flatnonzero(no_biased | all_biased | empty.any(axis=1)):
        if no_biased[k]:
            reasons[k] = "no biased responses in the table"
        elif all_biased[k]:
            reasons[k] = "every response in the table is biased"
        else:
            names = ", ".join(columns[int(i)] for i in np.flatnonzero(empty[k]))
            reasons[k] = f"no scored items in: {names}"
    return reasons


def exact_two_group_p(biased: IntArray, totals: IntArray, statistic: NDArray[np.float64]) -> Any:
    """Exact permutation p of K 2 x 2 tables (significance._exact_p on arrays).

    Each distinct (column totals, first-row total) has one support of first-column counts;
    all supports are padded to the longest and evaluated in one call.
    """
    unique, inverse = np.unique(
        np.column_stack([totals, biased.sum(axis=1)]), axis=0, return_inverse=True
    )
    first_column, second_column, row = (unique[:, i, None] for i in range(3))
    total = first_column + second_column
    low = np.maximum(0, first_column - (total - row))
    high = np.minimum(row, first_column)
    support = low + np.arange(int((high - low).max()) + 1)[None, :]  # (U, W)
    valid = support <= high
    support = np.where(valid, support, low)
    rows = np.stack([support, row - support], axis=-1)  # (U, W, 2)
    column_totals = np.stack([first_column, second_column], axis=-1)  # (U, 1, 2)
    statistics = chi_square_statistics(rows, column_totals)
    mass = np.where(valid, scipy_stats.hypergeom.pmf(support, total, row, first_column), 0.0)
    which = inverse.ravel()
    reach = statistics[which] >= statistic[:, None] - _TIE_TOLERANCE
    return np.minimum(1.0, np.where(reach, mass[which], 0.0).sum(axis=1))


def chi_square_families(
    names: Sequence[str],
    subjects: Sequence[str],
    columns: Sequence[str],
    biased: IntArray,
    totals: IntArray,
    seed: int,
    key: str,
    dropped: tuple[str, ...] = (),
) -> tuple[TestFamily, ...]:
    """`significance.chi_square` of each table (biased[i], totals[i] - biased[i]), in families.

    `biased` is (K, k); `totals` is (K, k) or (k,). The K tables form len(names) families of
    K / len(names) consecutive tables each, corrected with Benjamini-Hochberg. Monte Carlo
    p-values come from the draws of `test_generator(seed, key)`, shared by the tables with
    the same column totals.
    """
    biased = np.asarray(biased, dtype=np.int64).reshape(len(subjects), len(columns))
    totals = np.broadcast_to(np.asarray(totals, dtype=np.int64), biased.shape)
    reasons = _reasons(biased, totals, columns)
    found = _p_values(biased, totals, np.array([r is None for r in reasons], bool), seed, key)
    statistic, p_value, method, draws = found
    size = len(subjects) // max(1, len(names))
    adjusted = np.full(len(subjects), np.nan)
    for f in range(len(names)):
        block = np.arange(f * size, (f + 1) * size)
        tested = block[[reasons[i] is None for i in block]]
        adjusted[tested] = bh_adjust([float(p) for p in p_value[tested]])
    # Plain integers, converted once: a 1,000-model round has about 100,000 tables.
    firsts, seconds = biased.tolist(), (totals - biased).tolist()
    grand = totals.sum(axis=1).tolist()
    tests = []
    for i, subject in enumerate(subjects):
        computable = reasons[i] is None
        tests.append(
            ChiSquareTest(
                subject=subject,
                columns=tuple(columns),
                biased=tuple(firsts[i]),
                not_biased=tuple(seconds[i]),
                statistic=float(statistic[i]) if computable else None,
                df=len(columns) - 1 if computable else None,
                p_value=float(p_value[i]) if computable else None,
                p_adjusted=float(adjusted[i]) if computable else None,
                cramers_v=math.sqrt(statistic[i] / grand[i]) if computable else None,
                reason=reasons[i],
                method=method[i],
                permutations=draws[i],
                dropped=dropped,
            )
        )
    return tuple(
        TestFamily(name=name, tests=tuple(tests[f * size : (f + 1) * size]))
        for f, name in enumerate(names)
    )


def _p_values(
    biased: IntArray, totals: IntArray, ok: NDArray[np.bool_], seed: int, key: str
) -> tuple[NDArray[np.float64], NDArray[np.float64], list[str | None], list[int | None]]:
    """Statistic, p-value, method and Monte Carlo draws of the computable tables (`ok`)."""
    statistic = np.full(len(biased), np.nan)
    p_value = np.full(len(biased), np.nan)
    method: list[str | None] = ["chi2" if good else None for good in ok]
    draws: list[int | None] = [None] * len(biased)
    if not ok.any():
        return statistic, p_value, method, draws
    columns = biased.shape[1]
    statistic[ok] = chi_square_statistics(biased[ok], totals[ok])
    p_value[ok] = special.chdtrc(columns - 1, statistic[ok])
    row = biased.sum(axis=1, keepdims=True)
    grand = totals.sum(axis=1, keepdims=True)
    smallest = np.minimum(row, grand - row) * totals / np.maximum(grand, 1)
    small = ok & (smallest.min(axis=1) < MIN_EXPECTED)
    if small.any() and columns == 2:
        p_value[small] = exact_two_group_p(biased[small], totals[small], statistic[small])
        for i in np.flatnonzero(small):
            method[i] = "exact"
    elif small.any():
        shapes, shape_of = np.unique(totals[small], axis=0, return_inverse=True)
        chosen = np.flatnonzero(small)
        for s, shape in enumerate(shapes):
            tables = chosen[shape_of.ravel() == s]
            named = key if len(shapes) == 1 else f"{key}/{','.join(map(str, shape))}"
            # A table with expected counts below MIN_EXPECTED has min(B, n - B) below
            # MIN_EXPECTED n / (smallest column total): the orderings need no more positions.
            longest = math.ceil(MIN_EXPECTED * int(shape.sum()) / int(shape.min()))
            found = shared_permutation_p(
                biased[tables], shape, chi_square_statistics, seed, named, longest=longest
            )
            p_value[tables] = found.p_values
            for i, count in zip(tables, found.draws, strict=True):
                method[i], draws[i] = "monte_carlo", int(count)
    return statistic, p_value, method, draws
