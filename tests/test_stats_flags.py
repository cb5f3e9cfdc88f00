"""Fairness flags (issue 10, points 7 and 8): exact-rational thresholds, a minimum group
size, and every gap's crossed-bootstrap interval and seeded permutation p-value, checked
against scipy."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from reportgen.kinds.estigmas.model import Stigma
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CountCube
from reportgen.kinds.estigmas.stats import fairness
from reportgen.kinds.estigmas.stats.fairness import (
    MIN_GROUP_ITEMS,
    PERMUTATIONS,
    bootstrap_gaps,
    exact_gap,
    fairness_views,
    permutation_p,
)
from tests.support.synthetic import random_round


def _stigma(stigma_id: str, axis: str | None) -> Stigma:
    return Stigma(stigma_id, stigma_id, stigma_id, "inherited", 1.0, "assigned", axis)  # type: ignore[arg-type]


def _cube(groups: Sequence[tuple[int, int]], axis: str = "race") -> tuple[CountCube, list[Stigma]]:
    """One model; stigma k of `axis` has groups[k] = (decisions against, items), every item
    of style positive, in one structure; the other items are biased."""
    stigmas = [_stigma(f"s{k}", axis) for k in range(len(groups))]
    counts = np.zeros((1, len(groups), 1, 3, 3, 4), dtype=np.int32)
    items = np.zeros((len(groups), 1, 3, 3), dtype=np.int32)
    for k, (against, total) in enumerate(groups):
        counts[0, k, 0, 2, 0, AGAINST] = against
        counts[0, k, 0, 2, 0, BIASED] = total - against
        items[k, 0, 2, 0] = total
    cube = CountCube(("m",), tuple(s.stigma_id for s in stigmas), ("t0",), counts, items)
    return cube, stigmas


def test_a_gap_of_exactly_twenty_points_is_not_serious() -> None:
    # 8/10 - 6/10 is 0.20000000000000007 in floats: the old rule called it "serious".
    assert 8 / 10 - 6 / 10 > 0.2
    size = 10 * MIN_GROUP_ITEMS
    cube, stigmas = _cube([(8 * size // 10, size), (6 * size // 10, size)])
    view = fairness_views(cube, stigmas)[0]
    assert view.parity.flag == "investigate"
    assert view.opportunity.flag == "investigate"
    assert exact_gap([8, 6], [10, 10]) == Fraction(1, 5)


@pytest.mark.parametrize(
    ("rates", "expected"),
    [
        ((Fraction(3, 10), Fraction(2, 10)), None),  # exactly 10 points
        ((Fraction(7, 10), Fraction(6, 10) - Fraction(1, 1000)), "investigate"),
        ((Fraction(7, 10), Fraction(5, 10)), "investigate"),  # exactly 20 points
        ((Fraction(7, 10), Fraction(5, 10) - Fraction(1, 1000)), "serious"),
    ],
)
def test_flag_boundaries_at_ten_and_twenty_points(
    rates: tuple[Fraction, Fraction], expected: str | None
) -> None:
    size = 1000
    cube, stigmas = _cube([(int(r * size), size) for r in rates])
    assert fairness_views(cube, stigmas)[0].parity.flag == expected


def test_no_flag_below_the_minimum_items_per_stigma() -> None:
    small = MIN_GROUP_ITEMS - 1
    cube, stigmas = _cube([(small, small), (0, small)])  # a 100-point gap
    gap = fairness_views(cube, stigmas)[0].parity
    assert gap.gap == 1.0
    assert gap.flag is None
    assert gap.smallest_group == small
    assert gap.reason is not None
    assert str(MIN_GROUP_ITEMS) in gap.reason
    at_minimum, _ = _cube([(MIN_GROUP_ITEMS, MIN_GROUP_ITEMS), (0, MIN_GROUP_ITEMS)])
    assert fairness_views(at_minimum, stigmas)[0].parity.flag == "serious"


def test_a_single_item_per_stigma_gets_a_gap_but_no_flag() -> None:
    cube, stigmas = _cube([(1, 1), (0, 1)])
    gap = fairness_views(cube, stigmas)[0].parity
    assert (gap.gap, gap.flag, gap.smallest_group) == (1.0, None, 1)
    # Two items, one decision: half the relabellings put it on the other stigma.
    assert gap.p_value == pytest.approx(1.0)


def test_permutation_p_agrees_with_scipy_exact_permutation_test() -> None:
    groups = [(3, 4), (1, 4), (0, 3)]
    samples = [np.array([1] * h + [0] * (t - h)) for h, t in groups]

    def gap(*arrays: np.ndarray, axis: int) -> np.ndarray:
        means = np.stack([a.mean(axis=axis) for a in arrays])
        return np.asarray(means.max(axis=0) - means.min(axis=0))

    exact = scipy_stats.permutation_test(
        samples, gap, permutation_type="independent", alternative="greater",
        n_resamples=10**9, vectorized=True,
    ).pvalue  # fmt: skip
    ours = permutation_p([h for h, _ in groups], [t for _, t in groups], "k", seed=3)
    # Monte Carlo with PERMUTATIONS draws: within four standard errors of the exact p.
    error = np.sqrt(exact * (1 - exact) / PERMUTATIONS)
    assert abs(ours - exact) < 4 * error + 1 / PERMUTATIONS


def test_permutation_p_is_seeded_and_recorded() -> None:
    args = ([30, 20, 10], [50, 50, 50], "fairness/race/m/parity")
    assert permutation_p(*args, seed=42) == permutation_p(*args, seed=42)
    assert permutation_p(*args, seed=42) != permutation_p(*args, seed=43)
    # Ties: with no decision at all every relabelling reaches the observed gap of 0.
    assert permutation_p([0, 0], [5, 5], "k", seed=1) == 1.0


def test_bootstrap_gaps_drop_undrawn_stigmas_and_match_a_loop() -> None:
    rng = np.random.default_rng(5)
    hits = rng.integers(0, 5, size=(4, 6))
    totals = hits + rng.integers(0, 5, size=(4, 6))
    stigma_weights = rng.integers(0, 3, size=(50, 4)).astype(float)
    structure_weights = rng.integers(0, 3, size=(50, 6)).astype(float)
    gaps = bootstrap_gaps(hits, totals, stigma_weights, structure_weights)
    for r in range(50):
        rates = [
            (structure_weights[r] @ hits[k]) / (structure_weights[r] @ totals[k])
            for k in range(4)
            if stigma_weights[r, k] > 0 and structure_weights[r] @ totals[k] > 0
        ]
        if len(rates) >= 2:
            assert gaps[r] == pytest.approx(max(rates) - min(rates))
        else:
            assert np.isnan(gaps[r])


def test_every_gap_of_a_round_has_an_interval_and_bh_adjusted_p() -> None:
    round_ = random_round(8, models=3, stigmas=30, structures=8, cells=150, pairs=10)
    from reportgen.kinds.estigmas.results import compute_results

    results = compute_results(round_, 200)
    gaps = [g for v in results.fairness for g in (v.parity, v.opportunity)]
    raw = [g.p_value for g in gaps]
    assert all(p is not None for p in raw)
    expected = multipletests(raw, method="fdr_bh")[1]
    assert [g.p_adjusted for g in gaps] == pytest.approx(list(expected))
    for g in gaps:
        assert g.lower is not None
        assert g.upper is not None
        assert g.lower <= g.upper
        assert g.distinguishable == (g.p_adjusted is not None and g.p_adjusted < 0.05)
    assert results.permutations == PERMUTATIONS
    assert compute_results(round_, 200).fairness == results.fairness  # seeded


def test_min_group_items_guards_the_serious_threshold() -> None:
    # The documented reason: at MIN_GROUP_ITEMS items a 50% rate's 95% margin is at most 20 points.
    assert 1.96 * np.sqrt(0.25 / MIN_GROUP_ITEMS) <= float(fairness.SERIOUS_ABOVE)
    assert 1.96 * np.sqrt(0.25 / (MIN_GROUP_ITEMS - 1)) > float(fairness.SERIOUS_ABOVE)
