"""Shared, sequential permutation p-values (issue 19) against the per-test method and scipy."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from scipy import stats as scipy_stats

from reportgen.kinds.estigmas.model import AXES
from reportgen.kinds.estigmas.results import compute_results
from reportgen.kinds.estigmas.results._pairs import ALL_PAIRS_UP_TO
from reportgen.kinds.estigmas.score import build_cube
from reportgen.kinds.estigmas.stats import diagnostics
from reportgen.kinds.estigmas.stats.bootstrap import (
    ModelTables,
    difference_intervals,
    draw_replicates,
    model_replicates,
)
from reportgen.kinds.estigmas.stats.fairness import fairness_views, permutation_p
from reportgen.kinds.estigmas.stats.permutation import (
    DIRECT_UP_TO,
    STOP_AFTER,
    chi_square_statistics,
    shared_permutation_p,
)
from reportgen.kinds.estigmas.stats.sensitivity import competition_ranks
from reportgen.kinds.estigmas.stats.significance import PERMUTATIONS, chi_square
from tests.support.synthetic import random_round


def _monte_carlo_error(p: float, draws: int) -> float:
    """Standard error of a p-value: binomial over the draws read, or Besag-Clifford's."""
    if draws < PERMUTATIONS:  # stopped early: p = STOP_AFTER / draws
        return p * float(np.sqrt((1 - p) / STOP_AFTER)) + 1 / draws
    return float(np.sqrt(max(p * (1 - p), 1 / PERMUTATIONS) / PERMUTATIONS))


def _close(new: float, new_draws: int, old: float) -> bool:
    error = float(
        np.hypot(_monte_carlo_error(new, new_draws), _monte_carlo_error(old, PERMUTATIONS))
    )
    return abs(new - old) <= 4 * error + 2 / PERMUTATIONS


def test_fairness_gaps_stay_within_monte_carlo_error_of_the_per_gap_method() -> None:
    round_ = random_round(11, models=6, with_text=False)
    cube = build_cube(round_)
    views = fairness_views(cube, round_.stigmas, seed=11)
    against = cube.counts[..., 1].sum(axis=(2, 3, 4))
    items = cube.items.sum(axis=(1, 2, 3))
    compared = 0
    for view in views:
        members = [i for i, s in enumerate(round_.stigmas) if s.axis == view.axis]
        m = cube.model_ids.index(view.model_id)
        hits, totals = list(against[m, members]), list(items[members])
        old = permutation_p(hits, totals, f"fairness/{view.axis}/{view.model_id}/parity", 11)
        assert view.parity.p_value is not None
        draws = view.parity.permutations
        assert draws is not None
        assert STOP_AFTER <= draws <= PERMUTATIONS
        assert _close(view.parity.p_value, draws, old), (view.parity.p_value, old)
        compared += 1
    assert compared == len(AXES) * 6


def test_axis_tests_stay_within_monte_carlo_error_of_the_per_test_method() -> None:
    round_ = random_round(5, models=8, with_text=False)
    cube = build_cube(round_)
    family = diagnostics.axis_family(cube, round_.stigmas, "race", seed=5)
    checked = 0
    for test in family.tests:
        if test.method != "monte_carlo":
            continue
        totals = [b + o for b, o in zip(test.biased, test.not_biased, strict=True)]
        old = chi_square(test.subject, test.columns, test.biased, totals, 5, f"race/{test.subject}")
        assert (old.method, old.p_value, test.p_value) != ("monte_carlo", None, None)
        assert test.permutations is not None
        assert 0 < test.permutations <= PERMUTATIONS
        assert _close(test.p_value or 0.0, test.permutations, old.p_value or 0.0)
        checked += 1
    assert checked > 0


def _exact_gap_p(hits: list[int], totals: list[int]) -> float:
    samples = [np.array([1] * h + [0] * (t - h)) for h, t in zip(hits, totals, strict=True)]

    def gap(*arrays: np.ndarray, axis: int) -> np.ndarray:
        means = np.stack([a.mean(axis=axis) for a in arrays])
        return np.asarray(means.max(axis=0) - means.min(axis=0))

    return float(
        scipy_stats.permutation_test(
            samples, gap, permutation_type="independent", alternative="greater",
            n_resamples=10**9, vectorized=True,
        ).pvalue
    )  # fmt: skip


@pytest.mark.parametrize("tables", [3, DIRECT_UP_TO + 6])
def test_both_draw_sources_agree_with_scipy_exact_permutation_test(tables: int) -> None:
    # Few distinct first-row totals: hypergeometric draws per total; many: shared orderings.
    totals = np.array([4, 5, 3, 6, 5])
    rng = np.random.default_rng(tables)
    first = np.array([rng.integers(0, totals + 1) for _ in range(tables)])
    found = shared_permutation_p(first, totals, chi_square_statistics, 3, "k")
    for row, p, draws in zip(first, found.p_values, found.draws, strict=True):
        if row.sum() in (0, totals.sum()):
            continue
        exact = _exact_permutation_chi2_p(list(row), list(totals))
        assert _close(float(p), int(draws), exact), (row, p, exact)


def _exact_permutation_chi2_p(biased: list[int], totals: list[int]) -> float:
    test = chi_square("m", [str(i) for i in range(len(totals))], biased, totals)
    samples = [np.array([1] * b + [0] * (t - b)) for b, t in zip(biased, totals, strict=True)]

    def statistic(*arrays: np.ndarray, axis: int) -> np.ndarray:
        first = np.stack([a.sum(axis=axis) for a in arrays], axis=-1)
        return chi_square_statistics(first, np.array(totals))

    assert test.statistic is not None
    return float(
        scipy_stats.permutation_test(
            samples, statistic, permutation_type="independent", alternative="greater",
            n_resamples=20_000, vectorized=True, random_state=0,
        ).pvalue
    )  # fmt: skip


def test_a_table_draws_the_same_whatever_other_tables_share_them() -> None:
    totals = np.array([30, 40, 50])
    alone = shared_permutation_p(np.array([[3, 9, 20]]), totals, chi_square_statistics, 9, "k")
    many = np.array([[3, 9, 20]] + [[i, i // 2, i // 3] for i in range(1, 30)])
    shared = shared_permutation_p(many, totals, chi_square_statistics, 9, "k")
    assert len(np.unique(many.sum(axis=1))) > DIRECT_UP_TO
    # Orderings (many totals) and direct draws (one total) differ, but each is seeded.
    again = shared_permutation_p(many, totals, chi_square_statistics, 9, "k")
    assert np.array_equal(again.p_values, shared.p_values)
    assert np.array_equal(again.draws, shared.draws)
    fewer = shared_permutation_p(many[:26], totals, chi_square_statistics, 9, "k")
    assert len(np.unique(many[:26].sum(axis=1))) > DIRECT_UP_TO
    assert np.array_equal(fewer.p_values, shared.p_values[:26])
    assert alone.p_values[0] == pytest.approx(shared.p_values[0], abs=0.05)


def test_a_clearly_large_p_stops_early_and_records_its_draws() -> None:
    # Every relabelling reaches a statistic of zero: stop after STOP_AFTER draws, p = 1.
    found = shared_permutation_p(
        np.array([[5, 5], [2, 9]]), np.array([10, 10]), chi_square_statistics, 1, "k"
    )
    assert found.draws[0] == STOP_AFTER
    assert found.p_values[0] == 1.0
    # A far-off table reads every draw: p = (1 + reached) / (1 + PERMUTATIONS).
    assert found.draws[1] == PERMUTATIONS
    assert found.p_values[1] * (1 + PERMUTATIONS) == pytest.approx(
        round(found.p_values[1] * (1 + PERMUTATIONS))
    )


def test_families_on_arrays_equal_one_table_at_a_time_where_exact() -> None:
    round_ = random_round(3, models=5, with_text=False)
    cube = build_cube(round_)
    families = [
        *diagnostics.gender_families(cube, seed=3),
        diagnostics.style_family(cube, seed=3),
        diagnostics.peril_family(cube, round_.stigmas, round_.manifest.peril_bands, seed=3),
    ]
    methods = set()
    for family in families:
        for test in family.tests:
            totals = [b + o for b, o in zip(test.biased, test.not_biased, strict=True)]
            one = chi_square(test.subject, test.columns, test.biased, totals, 3)
            assert (test.method, test.reason, test.df) == (one.method, one.reason, one.df)
            methods.add(test.method)
            if test.method in ("chi2", "exact"):
                assert test.p_value == pytest.approx(one.p_value, rel=1e-12)
                assert test.statistic == pytest.approx(one.statistic, rel=1e-12)
                assert test.cramers_v == pytest.approx(one.cramers_v, rel=1e-12)
    assert {"chi2", "exact"} <= methods


def test_past_fifty_models_pairs_are_the_ranking_neighbours_and_ranks_have_intervals() -> None:
    models = ALL_PAIRS_UP_TO + 2
    round_ = random_round(4, models=models, stigmas=20, structures=6, cells=100, pairs=10)
    results = compute_results(round_, 200)
    ranked = [m.model_id for m in results.models if m.rank is not None]
    neighbours = set(itertools.pairwise(ranked))
    assert {(d.model_a, d.model_b) for d in results.differences} == neighbours | {
        (b, a) for a, b in neighbours
    }
    assert {tuple(sorted((t.model_a, t.model_b))) for t in results.mcnemar} == {
        tuple(sorted(pair)) for pair in neighbours
    }
    # The intervals are those of the full matrix at those pairs.
    cube = build_cube(round_)
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(round_.manifest.bootstrap_seed, 200, *tables.scored.shape)
    replicated = model_replicates(tables, draws)
    lower, upper = difference_intervals(replicated.values["index"])
    column = {m: i for i, m in enumerate(cube.model_ids)}
    for d in results.differences:
        a, b = column[d.model_a], column[d.model_b]
        assert (d.lower, d.upper) == pytest.approx((lower[a, b], upper[a, b]), abs=1e-15)
    # Rank intervals: every replicate ranked again, slowly.
    positions = [column[m] for m in ranked]
    ranks = np.array([competition_ranks(row[positions]) for row in replicated.failure_counts])
    assert [r.model_id for r in results.ranks] == ranked
    for k, entry in enumerate(results.ranks):
        assert entry.best == int(np.percentile(ranks[:, k], 2.5, method="lower"))
        assert entry.worst == int(np.percentile(ranks[:, k], 97.5, method="higher"))
        assert entry.rank == results.models[k].rank


def test_orderings_drawn_only_as_far_as_the_tables_need_agree_with_scipy() -> None:
    # min(B, n - B) <= 20 for every table: 20 positions of each ordering (partial shuffle).
    totals = np.array([20, 25, 15, 30, 20])
    rows = np.array([[b // 2, b - b // 2, 0, 0, 0] for b in range(1, 21)])
    first = np.concatenate([rows, totals - rows])  # B and n - B alike
    assert len(np.unique(first.sum(axis=1))) > DIRECT_UP_TO
    found = shared_permutation_p(first, totals, chi_square_statistics, 5, "k", longest=20)
    for row, p, draws in zip(first[::3], found.p_values[::3], found.draws[::3], strict=True):
        exact = _exact_permutation_chi2_p(list(row), list(totals))
        assert _close(float(p), int(draws), exact), (row, p, exact)
    with pytest.raises(ValueError, match="positions"):
        shared_permutation_p(first, totals, chi_square_statistics, 5, "k", longest=10)
