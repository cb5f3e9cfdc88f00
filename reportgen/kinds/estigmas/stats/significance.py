"""Association and tests (metrics.md): diagnostics beside the ranking, never used to rank.

Chi-square tests are Pearson's test of independence without continuity correction
(what `scipy.stats.chi2_contingency(..., correction=False)` computes), with Cramer's V
beside the p-value. When an expected count is below `MIN_EXPECTED` the chi-square
distribution is a poor guide, so the p-value is a permutation p-value of the same
statistic with both margins fixed: exact (summed over the hypergeometric distribution)
for two groups, else from `PERMUTATIONS` multivariate hypergeometric draws seeded by the
round's seed and the test's name (`test_generator`), (1 + draws reaching the observed
statistic) / (1 + PERMUTATIONS). That is `chi_square`, one table on its own; the families
of a round test every model's table at once with `families.chi_square_tests`, whose Monte
Carlo draws are shared across models and stop early where p is clearly large
(`permutation`). `ChiSquareTest.method` says which p-value a test has.
Spearman's p is exact (every ordering of the models) below `EXACT_SPEARMAN_BELOW` models.
A table with a zero row or column total has no test: it is reported as not computable,
with the reason. Every family is corrected with Benjamini-Hochberg
(`reportgen.stats.bh_adjust`, statsmodels' `multipletests(method="fdr_bh")` arithmetic) over
its computable tests;
raw and adjusted p-values are both kept.
"""

from __future__ import annotations

import itertools
import math
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray
from scipy import special
from scipy import stats as scipy_stats

from reportgen.kinds.estigmas.score import BIASED
from reportgen.stats import bh_adjust

# McNemar uses the exact binomial test below this many discordant pairs (metrics.md).
EXACT_MCNEMAR_BELOW = 25
# Below this expected count a chi-square test takes a permutation p-value (Cochran's rule).
MIN_EXPECTED = 5
PERMUTATIONS = 9_999
# Spearman's p is exact (all n! orderings) below this many models.
EXACT_SPEARMAN_BELOW = 10
# A statistic this close to the observed one counts as reaching it (float round-off).
_TIE_TOLERANCE = 1e-9


@dataclass(frozen=True)
class ChiSquareTest:
    """A chi-square test of independence of biased / not biased x some grouping."""

    subject: str  # what was tested: a model id, or "model_id/stigma_id"
    columns: tuple[str, ...]  # the groups (bands, styles, stigmas, genders)
    biased: tuple[int, ...]  # first row of the table
    not_biased: tuple[int, ...]  # second row
    statistic: float | None
    df: int | None
    p_value: float | None
    p_adjusted: float | None
    cramers_v: float | None
    reason: str | None  # why the test is not computable; None when it is
    # "chi2" (asymptotic), "exact" or "monte_carlo" (permutation p: an expected count below
    # MIN_EXPECTED); None when not computable.
    method: str | None
    permutations: int | None  # Monte Carlo draws behind a "monte_carlo" p-value
    dropped: tuple[str, ...]  # groups left out of the test: no scored items


@dataclass(frozen=True)
class TestFamily:
    """Tests corrected together with Benjamini-Hochberg."""

    name: str
    tests: tuple[ChiSquareTest, ...]


@dataclass(frozen=True)
class Correlation:
    """Correlation of bias rate and omission rate across models."""

    models: int
    pearson_r: float | None
    pearson_p: float | None
    spearman_rho: float | None
    spearman_p: float | None
    reason: str | None
    spearman_method: str | None  # "exact" (every ordering) or "asymptotic" (t test)


@dataclass(frozen=True)
class McNemarTest:
    """Paired test of the biased indicator of two models over the same scored items."""

    model_a: str
    model_b: str
    only_a_biased: int  # discordant: a biased, b not
    only_b_biased: int
    method: str  # "exact" (binomial) or "chi2" (continuity corrected)
    statistic: float | None  # chi-square statistic; None for the exact test
    p_value: float
    p_adjusted: float
    difference: float  # bias rate of a minus bias rate of b (difference in proportions)


def test_generator(seed: int, key: str) -> np.random.Generator:
    """The random generator of one permutation test: the round's seed and the test's name."""
    sequence = np.random.SeedSequence(seed, spawn_key=(zlib.crc32(key.encode("utf-8")),))
    return np.random.Generator(np.random.PCG64(sequence))


def chi_square(
    subject: str,
    columns: Sequence[str],
    biased: Sequence[int],
    totals: Sequence[int],
    seed: int = 0,
    key: str = "",
) -> ChiSquareTest:
    """Pearson's chi-square of the 2 x k table (biased, totals - biased).

    `seed` and `key` (default: the subject) seed a Monte Carlo p-value (module docstring).
    """
    biased_row = tuple(int(v) for v in biased)
    other_row = tuple(int(t) - int(v) for v, t in zip(biased, totals, strict=True))
    table = np.array([biased_row, other_row], dtype=np.int64)
    base = ChiSquareTest(
        subject=subject,
        columns=tuple(columns),
        biased=biased_row,
        not_biased=other_row,
        statistic=None,
        df=None,
        p_value=None,
        p_adjusted=None,
        cramers_v=None,
        reason=None,
        method=None,
        permutations=None,
        dropped=(),
    )
    reason = _not_computable(table, columns)
    if reason is not None:
        return replace(base, reason=reason)
    # The formula of chi2_contingency(correction=False), without its per-call overhead
    # (a round has thousands of these small tables); tests check the two agree.
    total = int(table.sum())
    expected = table.sum(axis=1, keepdims=True) * table.sum(axis=0, keepdims=True) / total
    statistic = float(((table - expected) ** 2 / expected).sum())
    df = (table.shape[0] - 1) * (table.shape[1] - 1)
    tested = replace(
        base,
        statistic=statistic,
        df=df,
        p_value=float(special.chdtrc(df, statistic)),
        cramers_v=math.sqrt(statistic / (total * (min(table.shape) - 1))),
        method="chi2",
    )
    if expected.min() >= MIN_EXPECTED:
        return tested
    return _with_permutation_p(tested, table, seed, key or subject)


def _with_permutation_p(
    tested: ChiSquareTest, table: NDArray[np.int64], seed: int, key: str
) -> ChiSquareTest:
    """The test with its p-value replaced by the exact or Monte Carlo permutation p."""
    column_totals = table.sum(axis=0)
    statistic = tested.statistic or 0.0
    if table.shape[1] == 2:
        return replace(tested, p_value=_exact_p(column_totals, int(table[0].sum()), statistic),
                       method="exact")  # fmt: skip
    generator = test_generator(seed, key)
    draws = generator.multivariate_hypergeometric(
        column_totals, int(table[0].sum()), size=PERMUTATIONS
    )
    reached = np.count_nonzero(
        _chi_square_of_first_rows(draws, column_totals) >= statistic - _TIE_TOLERANCE
    )
    return replace(
        tested,
        p_value=(1 + int(reached)) / (1 + PERMUTATIONS),
        method="monte_carlo",
        permutations=PERMUTATIONS,
    )


def _chi_square_of_first_rows(first: NDArray[np.int64], column_totals: NDArray[np.int64]) -> Any:
    """Pearson's statistic of every 2 x k table whose first rows are the rows of `first`."""
    total = int(column_totals.sum())
    row_total = first.sum(axis=-1, keepdims=True)
    expected_first = row_total * column_totals / total
    expected_second = (total - row_total) * column_totals / total
    second = column_totals - first
    return ((first - expected_first) ** 2 / expected_first).sum(axis=-1) + (
        (second - expected_second) ** 2 / expected_second
    ).sum(axis=-1)


def _exact_p(column_totals: NDArray[np.int64], biased: int, statistic: float) -> float:
    """Exact permutation p of a 2 x 2 table: the hypergeometric mass of tables at least as
    far from independence (by the chi-square statistic) as the observed one."""
    first_column, total = int(column_totals[0]), int(column_totals.sum())
    low, high = max(0, first_column - (total - biased)), min(biased, first_column)
    support = np.arange(low, high + 1, dtype=np.int64)
    first_rows = np.stack([support, biased - support], axis=1)
    statistics = _chi_square_of_first_rows(first_rows, column_totals)
    mass = scipy_stats.hypergeom.pmf(support, total, biased, first_column)
    return float(min(1.0, mass[statistics >= statistic - _TIE_TOLERANCE].sum()))


def _not_computable(table: NDArray[np.int64], columns: Sequence[str]) -> str | None:
    if table.shape[1] < 2:
        return f"needs at least two groups, found {table.shape[1]}"
    if table[0].sum() == 0:
        return "no biased responses in the table"
    if table[1].sum() == 0:
        return "every response in the table is biased"
    empty = [columns[int(i)] for i in np.flatnonzero(table.sum(axis=0) == 0)]
    if empty:
        return f"no scored items in: {', '.join(empty)}"
    return None


def adjust_family(name: str, tests: Sequence[ChiSquareTest]) -> TestFamily:
    """Benjamini-Hochberg over the computable tests of one family."""
    raw = [t.p_value for t in tests if t.p_value is not None]
    adjusted = iter(bh_adjust(raw))
    return TestFamily(
        name=name,
        tests=tuple(
            t if t.p_value is None else replace(t, p_adjusted=next(adjusted)) for t in tests
        ),
    )


def correlation(bias_rates: Sequence[float], omission_rates: Sequence[float]) -> Correlation:
    """Pearson r and Spearman rho of the unrounded bias and omission rates."""
    models = len(bias_rates)
    empty = Correlation(models, None, None, None, None, None, None)
    if models < 3:
        return replace(empty, reason=f"needs at least 3 models, found {models}")
    if len(set(bias_rates)) == 1 or len(set(omission_rates)) == 1:
        return replace(empty, reason="a rate is the same for every model")
    pearson = scipy_stats.pearsonr(bias_rates, omission_rates)
    spearman = scipy_stats.spearmanr(bias_rates, omission_rates)
    exact = models < EXACT_SPEARMAN_BELOW
    return Correlation(
        models=models,
        pearson_r=float(pearson.statistic),
        pearson_p=float(pearson.pvalue),
        spearman_rho=float(spearman.statistic),
        spearman_p=exact_spearman_p(bias_rates, omission_rates)
        if exact
        else float(spearman.pvalue),
        reason=None,
        spearman_method="exact" if exact else "asymptotic",
    )


def exact_spearman_p(x: Sequence[float], y: Sequence[float]) -> float:
    """Two-sided p of Spearman's rho over every ordering of `y` against `x`.

    Two-sided as in `scipy.stats.permutation_test`: twice the smaller one-sided p, at most 1.
    """
    x_ranks = scipy_stats.rankdata(x)
    y_ranks = scipy_stats.rankdata(y)
    x_centred = x_ranks - x_ranks.mean()
    orderings = np.array(list(itertools.permutations(y_ranks - y_ranks.mean())))
    scale = float(np.sqrt((x_centred**2).sum() * ((y_ranks - y_ranks.mean()) ** 2).sum()))
    rhos = orderings @ x_centred / scale
    observed = float(rhos[0])  # the first ordering is the observed one
    greater = np.count_nonzero(rhos >= observed - _TIE_TOLERANCE) / len(rhos)
    less = np.count_nonzero(rhos <= observed + _TIE_TOLERANCE) / len(rhos)
    return float(min(1.0, 2 * min(greater, less)))


def mcnemar_tests(
    model_ids: Sequence[str],
    outcome: NDArray[np.int8],
    pairs: Sequence[tuple[int, int]] | None = None,
) -> tuple[McNemarTest, ...]:
    """McNemar for the given pairs of models, one BH family.

    `pairs` are (a, b) positions in models.csv order, a before b; default: every pair.
    """
    if pairs is None:
        count = len(model_ids)
        pairs = [(a, b) for a in range(count) for b in range(a + 1, count)]
    biased = outcome == BIASED  # (M, N)
    items = max(outcome.shape[1], 1)
    per_model = biased.sum(axis=1)
    pending: list[McNemarTest] = []
    for a, b in pairs:
        both = int(np.count_nonzero(biased[a] & biased[b]))
        only_a = int(per_model[a]) - both
        only_b = int(per_model[b]) - both
        method, statistic, p_value = _mcnemar(only_a, only_b)
        pending.append(
            McNemarTest(
                model_a=model_ids[a],
                model_b=model_ids[b],
                only_a_biased=only_a,
                only_b_biased=only_b,
                method=method,
                statistic=statistic,
                p_value=p_value,
                p_adjusted=p_value,
                difference=(only_a - only_b) / items,
            )
        )
    adjusted = bh_adjust([t.p_value for t in pending])
    return tuple(replace(t, p_adjusted=p) for t, p in zip(pending, adjusted, strict=True))


def _mcnemar(only_a: int, only_b: int) -> tuple[str, float | None, float]:
    discordant = only_a + only_b
    if discordant == 0:
        return "exact", None, 1.0  # no discordant pair: no evidence of any difference
    if discordant < EXACT_MCNEMAR_BELOW:
        return "exact", None, float(scipy_stats.binomtest(only_a, discordant, 0.5).pvalue)
    statistic = (abs(only_a - only_b) - 1) ** 2 / discordant
    return "chi2", statistic, float(special.chdtrc(1, statistic))
