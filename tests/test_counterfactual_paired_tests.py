"""McNemar (metrics §4), Wilcoxon (§5) and Benjamini-Hochberg (§6), by hand and against
scipy and statsmodels."""

from __future__ import annotations

import itertools
import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar
from statsmodels.stats.multitest import multipletests

from reportgen.kinds.counterfactual.stats.mcnemar import mcnemar_p, mcnemar_table
from reportgen.kinds.counterfactual.stats.wilcoxon import wilcoxon
from reportgen.stats import bh_adjust, significant

# --- McNemar --------------------------------------------------------------------------


def test_the_guides_table_takes_chi_square_with_continuity_correction() -> None:
    # b = 41, c = 18, d = 59 >= 25: chi2 = (|41 - 18| - 1)^2 / 59 = 484/59 = 8.2034;
    # p = P(chi2_1 > 8.2034) = 0.00418.
    test = mcnemar_table(((402, 41), (18, 139)))
    assert test.method == "chi2"
    assert test.statistic == pytest.approx(484 / 59)
    assert round(test.statistic or 0, 4) == 8.2034
    assert test.p == pytest.approx(0.004181, abs=5e-7)
    reference = sm_mcnemar([[402, 41], [18, 139]], exact=False, correction=True)
    assert test.p == pytest.approx(float(reference.pvalue), rel=1e-12)
    assert test.statistic == pytest.approx(float(reference.statistic), rel=1e-12)
    assert test.n_pairs == 600
    assert test.effect == pytest.approx((41 - 18) / 600)


@pytest.mark.parametrize(
    ("b", "c", "hand"),
    [
        (2, 0, 0.5),  # d = 2: 2·C(2,0)/2^2 = 1/2
        (5, 1, 14 / 64),  # d = 6: 2·(C(6,0) + C(6,1))/2^6 = 14/64
        (3, 3, 1.0),  # 2·(1 + 6 + 15 + 20)/64 = 84/64, capped at 1
        (12, 8, 2 * sum(math.comb(20, i) for i in range(9)) / 2**20),  # 0.5034
        (17, 7, 2 * sum(math.comb(24, i) for i in range(8)) / 2**24),  # d = 24: still exact
    ],
)
def test_below_25_discordant_pairs_the_binomial_is_exact(b: int, c: int, hand: float) -> None:
    method, statistic, p = mcnemar_p(b, c)
    assert (method, statistic) == ("exact", None)
    assert p == pytest.approx(hand, rel=1e-12)
    assert p == pytest.approx(float(scipy_stats.binomtest(b, b + c, 0.5).pvalue), rel=1e-12)
    assert p == pytest.approx(float(sm_mcnemar([[0, b], [c, 0]], exact=True).pvalue), rel=1e-12)


def test_25_discordant_pairs_switch_to_chi_square() -> None:
    # b = 18, c = 7: chi2 = (11 - 1)^2 / 25 = 4, p = erfc(2 / sqrt 2) = 0.0455.
    method, statistic, p = mcnemar_p(18, 7)
    assert (method, statistic) == ("chi2", 4.0)
    assert p == pytest.approx(math.erfc(2 / math.sqrt(2)), rel=1e-12)


def test_no_discordant_pair_gives_p_one_and_no_pair_is_not_computable() -> None:
    assert mcnemar_p(0, 0) == ("exact", None, 1.0)
    test = mcnemar_table(((0, 0), (0, 0)))
    assert not test.computable
    assert test.reason == "no determined pair"
    assert test.p is None


# --- Wilcoxon -------------------------------------------------------------------------

SPEC_EXAMPLE = [1, 0, 0, 1, 0, 0, 1, 0, -1, 0, 1, 0]


def _sign_flip_p(nonzero: list[int]) -> float:
    """The exhaustive sign-flip permutation p over every 2^n' signs (the reference)."""
    ranks = scipy_stats.rankdata([abs(d) for d in nonzero])
    total = float(sum(ranks))
    observed = sum(r for r, d in zip(ranks, nonzero, strict=True) if d > 0)
    bound = min(observed, total - observed)
    hits = sum(
        1
        for signs in itertools.product((0, 1), repeat=len(nonzero))
        if sum(r for r, s in zip(ranks, signs, strict=True) if s) <= bound + 1e-9
    )
    return float(min(1.0, 2 * hits / 2 ** len(nonzero)))


def test_the_spec_example_gives_0_375_where_scipy_exact_gives_0_3125() -> None:
    # Non-zero d: 1, 1, 1, -1, 1 (n' = 5), all tied: midrank 3 each. W+ = 12, W- = 3.
    # Q = sum of 2·3 = 6 per positive sign; 2W+ = 24, sum q = 30, bound min(24, 6) = 6:
    # P(Q <= 6) = P(at most one positive) = (1 + 5)/32; p = 2·6/32 = 0.375.
    test = wilcoxon(SPEC_EXAMPLE)
    assert test.method == "exact_conditional"
    assert (test.n_nonzero, test.w_plus, test.statistic, test.p) == (5, 12.0, 3.0, 0.375)
    assert test.n_pairs == 12
    assert test.effect == pytest.approx(3 / 12)  # mean of d, zeros included
    assert test.median == 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns that ties make "exact" inexact
        scipy_exact = scipy_stats.wilcoxon(SPEC_EXAMPLE, method="exact").pvalue
        scipy_normal = scipy_stats.wilcoxon(  # type: ignore[call-overload]  # stale stubs
            SPEC_EXAMPLE, zero_method="wilcox", correction=False, method="asymptotic"
        ).pvalue
    assert float(scipy_exact) == pytest.approx(0.3125)
    assert float(scipy_normal) == pytest.approx(0.1797, abs=5e-5)
    assert test.p == _sign_flip_p([d for d in SPEC_EXAMPLE if d])


@pytest.mark.parametrize(
    "differences",
    [
        [1, -2, 3, 4, -5, 6, 7],  # no ties: the classical exact test
        [2, 2, -2, 3, 0, 0, -1, 4, 4, 4, -3],  # ties and zeros
        [-1, -1, -1, -2, 0, 3],
    ],
)
def test_the_exact_conditional_p_is_the_sign_flip_permutation(differences: list[int]) -> None:
    test = wilcoxon(differences)
    nonzero = [d for d in differences if d]
    assert test.p == pytest.approx(_sign_flip_p(nonzero), rel=1e-12)
    if len({abs(d) for d in nonzero}) == len(nonzero):
        assert test.p == pytest.approx(
            float(scipy_stats.wilcoxon(differences, method="exact").pvalue), rel=1e-12
        )


def test_above_50_non_zero_differences_the_normal_approximation_is_scipys() -> None:
    differences = [int(d) for d in np.random.default_rng(3).integers(-3, 4, size=90)]
    test = wilcoxon(differences)
    assert test.n_nonzero is not None
    assert test.n_nonzero > 50
    assert test.method == "normal"
    reference = scipy_stats.wilcoxon(  # type: ignore[call-overload]  # stale stubs
        differences, zero_method="wilcox", correction=False, method="asymptotic"
    )
    assert test.p == pytest.approx(float(reference.pvalue), rel=1e-10)
    assert test.statistic == pytest.approx(float(reference.statistic))


def test_51_non_zero_differences_are_normal_and_50_exact() -> None:
    assert wilcoxon([1] * 50).method == "exact_conditional"
    assert wilcoxon([1] * 50).p == pytest.approx(2 / 2**50)  # all positive, all tied
    assert wilcoxon([1] * 51).method == "normal"


def test_all_zero_differences_give_p_one_and_no_pair_is_not_computable() -> None:
    test = wilcoxon([0, 0, 0])
    assert (test.method, test.statistic, test.p, test.n_nonzero) == (
        "exact_conditional",
        0.0,
        1.0,
        0,
    )
    empty = wilcoxon([])
    assert not empty.computable
    assert empty.reason == "no determined pair"


def test_the_effects_are_the_mean_and_median_of_d_zeros_included() -> None:
    test = wilcoxon([3, 0, 0, -1])
    assert test.effect == pytest.approx(2 / 4)
    assert test.median == 0  # (0 + 0)/2
    assert wilcoxon([3, 1, 0, -1]).median == pytest.approx(1 / 2)


# --- Benjamini-Hochberg ------------------------------------------------------------------


def test_bh_by_hand_with_ties() -> None:
    # Sorted: 0.01, 0.02, 0.02, 0.04, 0.5 (m = 5). p·m/j: 0.05, 0.05, 0.0333, 0.05, 0.5;
    # step-up minimum from the top: 0.0333 for ranks 1-3, 0.05, 0.5. Ties share a value.
    raw = [0.02, 0.5, 0.01, 0.02, 0.04]
    adjusted = bh_adjust(raw)
    assert adjusted == pytest.approx([1 / 30, 0.5, 1 / 30, 1 / 30, 0.05])
    assert adjusted == pytest.approx(list(multipletests(raw, method="fdr_bh")[1]), rel=1e-15)


def test_bh_agrees_with_statsmodels_on_a_large_tied_family() -> None:
    generator = np.random.default_rng(11)
    raw = [float(p) for p in np.round(generator.uniform(0, 0.2, size=300), 3)]
    raw += [1.0, 1.0, 0.0]
    reject, reference, _, _ = multipletests(raw, alpha=0.05, method="fdr_bh")
    adjusted = bh_adjust(raw)
    assert adjusted == list(reference)
    assert [significant(p, Fraction(1, 20)) for p in adjusted] == list(reject)
    assert bh_adjust([]) == []
    assert not significant(None, Fraction(1, 20))
