"""The compiled online Elo (stats/elo_fast.py, _elo_kernel.c) against the plain references.

- The kernel, its numpy twin (numpy's waves with `elo_exp`) and a battle-by-battle loop
  in the spec's order (multidomain-metrics.md §5) with `elo_exp` give the same ratings bit
  for bit, with one thread or two (the result never depends on the cores).
- `elo_exp` is within 2 ulp of numpy's exponential, so the fast path's ratings are within
  `elo_fast.TOLERANCE` rating points of the exact path's (`elo.py`, numpy's exp).
- The bootstrap on the fast path has the same Bradley-Terry fits, the same count of
  non-estimable replicates and Elo intervals within the tolerance.
Boundaries: 2 participants, one item, ties only, an item that a replicate never draws,
every battle skipped, a replicate whose BT is not estimable.
"""

from __future__ import annotations

import itertools
import shutil
import sys
from typing import Any

import numpy as np
import pytest

from reportgen.kinds.multidomain.model import Pairwise
from reportgen.kinds.multidomain.stats import elo, elo_fast, pairwise

RULES = Pairwise(elo_initial=1500, k=16, scale=400, base=10, bt_mean=1500)
Array = np.ndarray[Any, Any]
compiled = pytest.mark.skipif(elo_fast.kernel is None, reason="the kernel was not built")


def _loop_elo(fought: pairwise.Battles, models: int, sequence: Array) -> Array:
    """One battle at a time, in the spec's order, the replicates as the vector."""
    replicates, steps = sequence.shape
    ratings = np.full((models, replicates), 1500.0)
    slope = np.log(10.0) / 400
    for step in range(steps):
        items = sequence[:, step]
        for index, (a, b) in enumerate(fought.pairs):
            expected = np.divide(16.0, elo_fast.elo_exp((ratings[b] - ratings[a]) * slope) + 1.0)
            change = 16.0 * fought.outcome[items, index] - expected
            change[~fought.valid[items, index]] = 0.0
            ratings[a] = ratings[a] + change
            ratings[b] = ratings[b] - change
    result: Array = ratings.T
    return result


def _battles(
    models: int, items: int, skipped: float, seed: int, ties: bool = False
) -> pairwise.Battles:
    rng = np.random.default_rng(seed)
    pairs = tuple(itertools.combinations(range(models), 2))
    choices = [0.5] if ties else [0.0, 0.5, 1.0]
    outcome = rng.choice(choices, size=(items, len(pairs)))
    valid = rng.random((items, len(pairs))) >= skipped
    return pairwise.Battles(pairs=pairs, outcome=outcome, valid=valid)


def _sequence(items: int, replicates: int, seed: int, unseen: int | None = None) -> Array:
    rng = np.random.default_rng(seed)
    weights = rng.multinomial(items, [1 / items] * items, size=replicates).astype(np.int64)
    weights[0] = 1  # the round's own list, as `bootstrap` puts it first
    if unseen is not None and items > 1:  # an item no replicate but the first draws
        weights[1:, (unseen + 1) % items] += weights[1:, unseen]
        weights[1:, unseen] = 0
    return elo.replicate_sequence(weights)


CASES = [
    # models, items, replicates, skipped, ties
    (2, 1, 5, 0.0, False),
    (2, 6, 9, 0.2, False),
    (3, 9, 11, 0.0, True),
    (5, 20, 30, 0.05, False),
    (7, 15, 300, 0.5, False),
    (12, 10, 40, 0.02, False),
    (4, 6, 3, 1.0, False),  # every battle skipped
]


@pytest.mark.parametrize(("models", "items", "replicates", "skipped", "ties"), CASES)
def test_the_twin_equals_the_battle_loop_bit_for_bit(
    models: int, items: int, replicates: int, skipped: float, ties: bool
) -> None:
    fought = _battles(models, items, skipped, seed=models * 100 + items, ties=ties)
    sequence = _sequence(items, replicates, seed=replicates, unseen=0)
    twin = elo_fast.elo(
        fought.valid, fought.outcome, fought.pairs, models, RULES, sequence, compiled=False
    )
    assert np.array_equal(twin, _loop_elo(fought, models, sequence))


@compiled
@pytest.mark.parametrize(("models", "items", "replicates", "skipped", "ties"), CASES)
def test_the_kernel_equals_its_twin_bit_for_bit_on_one_thread_or_two(
    models: int, items: int, replicates: int, skipped: float, ties: bool
) -> None:
    fought = _battles(models, items, skipped, seed=models * 100 + items, ties=ties)
    sequence = _sequence(items, replicates, seed=replicates, unseen=items // 2)
    twin = elo_fast.elo(
        fought.valid, fought.outcome, fought.pairs, models, RULES, sequence, compiled=False
    )
    for threads in (1, 2, 3):
        kernel = elo_fast.elo(
            fought.valid, fought.outcome, fought.pairs, models, RULES, sequence, threads=threads
        )
        assert np.array_equal(kernel, twin)


@pytest.mark.parametrize(("models", "items", "replicates", "skipped", "ties"), CASES)
def test_the_fast_path_is_within_the_tolerance_of_the_exact_path(
    models: int, items: int, replicates: int, skipped: float, ties: bool
) -> None:
    fought = _battles(models, items, skipped, seed=models * 100 + items, ties=ties)
    sequence = _sequence(items, replicates, seed=replicates)
    fast = pairwise.elo(fought, models, RULES, sequence, fast=True)
    exact = pairwise.elo(fought, models, RULES, sequence, fast=False)
    assert np.max(np.abs(fast - exact)) <= elo_fast.TOLERANCE


def test_a_long_battle_list_stays_within_the_tolerance() -> None:
    """Many consecutive updates: the exponentials' last-bit differences do not grow."""
    fought = _battles(6, 400, 0.01, seed=7)
    sequence = _sequence(400, 20, seed=8)
    fast = pairwise.elo(fought, 6, RULES, sequence, fast=True)
    exact = pairwise.elo(fought, 6, RULES, sequence, fast=False)
    assert 0 < np.max(np.abs(fast - exact)) <= elo_fast.TOLERANCE


def test_elo_exp_is_within_two_ulp_of_numpys() -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate(
        [
            rng.uniform(-30.0, 30.0, 200_000),
            rng.uniform(-708.0, 708.0, 50_000),
            np.array([0.0, -0.0, 1e-300, -1e-300, 0.5 * np.log(2.0), -0.5 * np.log(2.0)]),
            np.array([np.log(2.0) * n for n in range(-1000, 1001, 7)]),
            np.array([-708.0, 708.0]),
        ]
    )
    fast, reference = elo_fast.elo_exp(x), np.exp(x)
    ulps = np.abs(fast - reference) / np.spacing(reference)
    assert np.max(ulps) <= 2.0


def test_elo_exp_clamps_beyond_708() -> None:
    x = np.array([-1e6, -709.0, 709.0, 1e6])
    assert np.array_equal(
        elo_fast.elo_exp(x), elo_fast.elo_exp(np.array([-708.0] * 2 + [708.0] * 2))
    )
    assert np.all(np.isfinite(elo_fast.elo_exp(x)))


@pytest.mark.parametrize("fast", [False, True])
def test_the_bootstrap_on_the_fast_path_keeps_bt_and_moves_elo_by_noise(fast: bool) -> None:
    # 3 participants, 4 items: some replicates draw only battles that one side always
    # wins, so their BT is not estimable and is left out.
    pairs = ((0, 1), (0, 2), (1, 2))
    outcome = np.array([[1.0, 1.0, 0.5], [1.0, 0.0, 1.0], [0.0, 1.0, 0.0], [0.5, 1.0, 1.0]])
    fought = pairwise.Battles(pairs=pairs, outcome=outcome, valid=np.ones((4, 3), dtype=bool))
    rng = np.random.default_rng(11)
    weights = rng.multinomial(4, [0.25] * 4, size=200).astype(np.int64)
    weights[5] = [4, 0, 0, 0]  # participant 0 wins every battle: not estimable
    exact = pairwise.bootstrap(fought, 3, RULES, weights, fast=False)
    other = pairwise.bootstrap(fought, 3, RULES, weights, fast=fast)
    assert exact.non_estimable > 0
    assert other.non_estimable == exact.non_estimable
    assert np.array_equal(other.bt, exact.bt)
    assert np.max(np.abs(other.elo - exact.elo)) <= elo_fast.TOLERANCE
    assert np.max(np.abs(other.elo_estimate - exact.elo_estimate)) <= elo_fast.TOLERANCE
    if not fast:
        assert np.array_equal(other.elo, exact.elo)


def test_the_default_path_follows_the_size() -> None:
    fought = _battles(3, 5, 0.0, seed=2)
    sequence = _sequence(5, 4, seed=3)
    small = pairwise.elo(fought, 3, RULES, sequence)
    assert np.array_equal(small, pairwise.elo(fought, 3, RULES, sequence, fast=False))


@compiled
def test_the_kernel_refuses_indices_outside_its_arrays() -> None:
    assert elo_fast.kernel is not None
    ratings = np.full((2, 3), 1500.0)
    won = np.zeros(2)
    offsets = np.array([[0, 0, 5]], dtype=np.int64)  # item offset past the table
    first, second = np.array([0]), np.array([1])
    with pytest.raises(ValueError, match="inconsistent"):
        elo_fast.kernel.run(ratings, won, offsets, first, second, 3, 0, 3, 1, 1, 16.0, 0.01)
    assert np.array_equal(ratings, np.full((2, 3), 1500.0))


@pytest.mark.skipif(
    not (sys.platform == "linux" and shutil.which("cc")), reason="no C compiler here"
)
def test_the_kernel_is_built_where_a_c_compiler_is() -> None:
    """The install builds it (setup.py); without it a large round's Elo is slow."""
    assert elo_fast.kernel is not None
