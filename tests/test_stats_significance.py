"""Tests, corrections and correlations against scipy / statsmodels and naive item loops."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from scipy.stats.contingency import association
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests

from reportgen.kinds.estigmas.model import GENDERS, Round, peril_band
from reportgen.kinds.estigmas.score import BIASED, build_cube, scored_items
from reportgen.kinds.estigmas.stats import diagnostics
from reportgen.kinds.estigmas.stats.significance import (
    EXACT_MCNEMAR_BELOW,
    adjust_family,
    chi_square,
    correlation,
    mcnemar_tests,
)
from tests.support.synthetic import random_round

tables_2xk = st.integers(2, 5).flatmap(
    lambda k: st.tuples(
        st.lists(st.integers(1, 200), min_size=k, max_size=k),
        st.lists(st.integers(1, 200), min_size=k, max_size=k),
    )
)


@given(rows=tables_2xk)
@settings(max_examples=60, deadline=None)
def test_chi_square_agrees_with_scipy(rows: tuple[list[int], list[int]]) -> None:
    biased, other = rows
    totals = [b + o for b, o in zip(biased, other, strict=True)]
    columns = [f"g{i}" for i in range(len(biased))]
    test = chi_square("m", columns, biased, totals)
    expected = scipy_stats.chi2_contingency(np.array([biased, other]), correction=False)
    assert test.reason is None
    assert test.statistic == pytest.approx(expected.statistic, rel=1e-12)
    if expected.expected_freq.min() >= 5:
        assert test.method == "chi2"
        assert test.p_value == pytest.approx(expected.pvalue, rel=1e-12)
    else:  # small expected counts: a permutation p-value (tests/test_stats_small_samples.py)
        assert test.method == ("exact" if len(biased) == 2 else "monte_carlo")
    assert test.df == len(biased) - 1
    cramer = association(np.array([biased, other]), method="cramer")
    assert test.cramers_v == pytest.approx(cramer, rel=1e-9)


@pytest.mark.parametrize(
    ("biased", "totals", "reason"),
    [
        ([0, 0, 0], [10, 12, 9], "no biased responses"),
        ([3, 4, 5], [3, 4, 5], "every response in the table is biased"),
        ([2, 0, 5], [10, 0, 20], "no scored items in: b"),
        ([2], [10], "needs at least two groups"),
    ],
)
def test_chi_square_with_an_empty_margin_is_not_computable(
    biased: list[int], totals: list[int], reason: str
) -> None:
    test = chi_square("m", ["a", "b", "c"][: len(biased)], biased, totals)
    assert test.reason is not None
    assert reason in test.reason
    assert test.statistic is None
    assert test.p_value is None


def test_family_adjustment_is_benjamini_hochberg_over_computable_tests() -> None:
    tests = [
        chi_square("a", ["x", "y"], [10, 30], [100, 100]),
        chi_square("b", ["x", "y"], [0, 0], [100, 100]),
        chi_square("c", ["x", "y"], [12, 18], [100, 100]),
        chi_square("d", ["x", "y"], [20, 22], [100, 100]),
    ]
    family = adjust_family("peril", tests)
    raw = [t.p_value for t in family.tests if t.p_value is not None]
    expected = multipletests(raw, method="fdr_bh")[1]
    adjusted = [t.p_adjusted for t in family.tests if t.p_value is not None]
    assert adjusted == pytest.approx(list(expected), rel=1e-12)
    assert family.tests[1].p_adjusted is None


@given(
    seed=st.integers(0, 2**16),
    items=st.integers(5, 400),
    flip=st.floats(0.0, 0.6),
)
@settings(max_examples=40, deadline=None)
def test_mcnemar_agrees_with_statsmodels(seed: int, items: int, flip: float) -> None:
    rng = np.random.default_rng(seed)
    first = rng.random(items) < 0.3
    second = np.where(rng.random(items) < flip, ~first, first)
    outcome = np.where(np.stack([first, second]), BIASED, 1).astype(np.int8)
    (test,) = mcnemar_tests(["a", "b"], outcome)
    table = [
        [int((first & second).sum()), int((first & ~second).sum())],
        [int((~first & second).sum()), int((~first & ~second).sum())],
    ]
    discordant = table[0][1] + table[1][0]
    exact = discordant < EXACT_MCNEMAR_BELOW
    assert test.method == ("exact" if exact else "chi2")
    if discordant:
        expected = mcnemar(np.array(table), exact=exact, correction=True)
        assert test.p_value == pytest.approx(float(expected.pvalue), rel=1e-9, abs=1e-300)
    else:
        assert test.p_value == 1.0
    assert test.difference == pytest.approx(first.mean() - second.mean(), abs=1e-12)


def test_mcnemar_family_is_every_pair_corrected_together() -> None:
    rng = np.random.default_rng(4)
    outcome = (rng.random((4, 300)) < [[0.1], [0.2], [0.25], [0.4]]).astype(np.int8)
    outcome = np.where(outcome == 1, BIASED, 2).astype(np.int8)
    tests = mcnemar_tests(["a", "b", "c", "d"], outcome)
    assert [(t.model_a, t.model_b) for t in tests] == [
        ("a", "b"), ("a", "c"), ("a", "d"), ("b", "c"), ("b", "d"), ("c", "d"),
    ]  # fmt: skip
    expected = multipletests([t.p_value for t in tests], method="fdr_bh")[1]
    assert [t.p_adjusted for t in tests] == pytest.approx(list(expected), rel=1e-12)


@given(
    rates=st.lists(
        st.tuples(st.floats(0, 1, allow_nan=False), st.floats(0, 1, allow_nan=False)),
        min_size=3,
        max_size=12,
    )
)
@settings(max_examples=40, deadline=None)
def test_correlation_agrees_with_scipy(rates: list[tuple[float, float]]) -> None:
    bias = [b for b, _ in rates]
    omission = [o for _, o in rates]
    result = correlation(bias, omission)
    if len(set(bias)) == 1 or len(set(omission)) == 1:
        assert result.reason is not None
        return
    assert result.pearson_r == pytest.approx(scipy_stats.pearsonr(bias, omission).statistic)
    assert result.spearman_rho == pytest.approx(scipy_stats.spearmanr(bias, omission).statistic)


def test_correlation_needs_three_models() -> None:
    assert correlation([0.1, 0.2], [0.3, 0.1]).reason == "needs at least 3 models, found 2"


@pytest.fixture(scope="module")
def round_() -> Round:
    return random_round(21, models=4, stigmas=30, structures=8, cells=200, pairs=50)


def _naive_tables(
    round_: Round, group_of_item: list[str | None], groups: list[str]
) -> list[tuple[list[int], list[int]]]:
    """Per model: biased count and items per group, counted item by item."""
    items = scored_items(round_)
    out = []
    for m in range(len(round_.models)):
        biased = dict.fromkeys(groups, 0)
        totals = dict.fromkeys(groups, 0)
        for position, group in enumerate(group_of_item):
            if group is None:
                continue
            totals[group] += 1
            biased[group] += int(items.outcome[m, position] == BIASED)
        out.append(([biased[g] for g in groups], [totals[g] for g in groups]))
    return out


def test_peril_style_and_axis_families_count_like_item_loops(round_: Round) -> None:
    cube = build_cube(round_)
    items = scored_items(round_)
    stigmas = round_.stigmas
    bands = round_.manifest.peril_bands
    band_names = ["low", "medium", "high"]
    cases = {
        "peril": (
            diagnostics.peril_family(cube, stigmas, bands),
            [band_names[peril_band(stigmas[s].peril, bands)] for s in items.stigma_index],
            band_names,
        ),
        "style": (
            diagnostics.style_family(cube),
            [["original", "doubt", "positive"][s] for s in items.style_index],
            ["original", "doubt", "positive"],
        ),
        "race": (
            diagnostics.axis_family(cube, stigmas, "race"),
            [
                stigmas[s].stigma_id if stigmas[s].axis == "race" else None
                for s in items.stigma_index
            ],
            [s.stigma_id for s in stigmas if s.axis == "race"],
        ),
    }
    for name, (family, group_of_item, groups) in cases.items():
        assert family.name == name
        for test, (biased, totals) in zip(
            family.tests, _naive_tables(round_, group_of_item, groups), strict=True
        ):
            assert list(test.columns) == groups
            assert list(test.biased) == biased
            assert [b + o for b, o in zip(test.biased, test.not_biased, strict=True)] == totals


def test_gender_gaps_and_within_stigma_tests(round_: Round) -> None:
    cube = build_cube(round_)
    items = scored_items(round_)
    male, female = GENDERS.index("male"), GENDERS.index("female")
    positive = items.style_index == 2
    for m, gap in enumerate(diagnostics.gender_gaps(cube)):
        outcome = items.outcome[m]
        for g, bias, omission in (
            (male, gap.bias_male, gap.omission_male),
            (female, gap.bias_female, gap.omission_female),
        ):
            of_gender = items.gender_index == g
            assert bias == pytest.approx((outcome[of_gender] == BIASED).mean())
            cant = (outcome >= 2) & positive & of_gender
            assert omission == pytest.approx(cant.sum() / (positive & of_gender).sum())
        assert gap.bias_delta == pytest.approx(gap.bias_male - gap.bias_female)  # type: ignore[operator]
    families = diagnostics.gender_families(cube)
    for m, family in enumerate(families):
        tested = []
        for s, stigma in enumerate(round_.stigmas):
            of_stigma = items.stigma_index == s
            counts = [int((of_stigma & (items.gender_index == g)).sum()) for g in (male, female)]
            if min(counts) >= diagnostics.MIN_ITEMS_PER_GENDER:
                tested.append(f"{round_.models[m].model_id}/{stigma.stigma_id}")
        assert [t.subject for t in family.tests] == tested
        computable = [t for t in family.tests if t.p_value is not None]
        assert all(t.p_adjusted is not None and t.p_adjusted >= t.p_value for t in computable)  # type: ignore[operator]
        assert all(t.df == 1 for t in computable)
        assert all(math.isfinite(t.cramers_v or 0.0) for t in computable)
