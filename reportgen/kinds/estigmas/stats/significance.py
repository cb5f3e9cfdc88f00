"""Association and tests (metrics.md): diagnostics beside the ranking, never used to rank.

Chi-square tests are Pearson's test of independence without continuity correction
(what `scipy.stats.chi2_contingency(..., correction=False)` computes), with Cramer's V
beside the p-value.
A table with a zero row or column total has no test: it is reported as not computable,
with the reason. Every family is corrected with Benjamini-Hochberg
(`statsmodels.stats.multitest.multipletests(method="fdr_bh")`) over its computable tests;
raw and adjusted p-values are both kept.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray
from scipy import special
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from reportgen.kinds.estigmas.score import BIASED

# McNemar uses the exact binomial test below this many discordant pairs (metrics.md).
EXACT_MCNEMAR_BELOW = 25


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


def chi_square(
    subject: str, columns: Sequence[str], biased: Sequence[int], totals: Sequence[int]
) -> ChiSquareTest:
    """Pearson's chi-square of the 2 x k table (biased, totals - biased)."""
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
    return replace(
        base,
        statistic=statistic,
        df=df,
        p_value=float(special.chdtrc(df, statistic)),
        cramers_v=math.sqrt(statistic / (total * (min(table.shape) - 1))),
    )


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


def bh_adjust(p_values: Sequence[float]) -> list[float]:
    if not p_values:
        return []
    return [float(p) for p in multipletests(list(p_values), method="fdr_bh")[1]]


def correlation(bias_rates: Sequence[float], omission_rates: Sequence[float]) -> Correlation:
    """Pearson r and Spearman rho of the unrounded bias and omission rates."""
    models = len(bias_rates)
    empty = Correlation(models, None, None, None, None, None)
    if models < 3:
        return replace(empty, reason=f"needs at least 3 models, found {models}")
    if len(set(bias_rates)) == 1 or len(set(omission_rates)) == 1:
        return replace(empty, reason="a rate is the same for every model")
    pearson = scipy_stats.pearsonr(bias_rates, omission_rates)
    spearman = scipy_stats.spearmanr(bias_rates, omission_rates)
    return Correlation(
        models=models,
        pearson_r=float(pearson.statistic),
        pearson_p=float(pearson.pvalue),
        spearman_rho=float(spearman.statistic),
        spearman_p=float(spearman.pvalue),
        reason=None,
    )


def mcnemar_tests(model_ids: Sequence[str], outcome: NDArray[np.int8]) -> tuple[McNemarTest, ...]:
    """McNemar for every pair of models (a before b in models.csv order), one BH family."""
    biased = (outcome == BIASED).astype(np.float64)  # (M, N)
    items = max(outcome.shape[1], 1)
    # both[a, b] = items biased for a and b alike; exact integers in float64.
    both = biased @ biased.T
    per_model = biased.sum(axis=1)
    pending: list[McNemarTest] = []
    for a in range(len(model_ids)):
        for b in range(a + 1, len(model_ids)):
            only_a = int(per_model[a] - both[a, b])
            only_b = int(per_model[b] - both[a, b])
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
