"""The vectorised online Elo (stats/elo.py: waves of disjoint battles, every bootstrap
replicate at once, skipped battles zeroed by position) against a straightforward loop over
the battles in the spec's order (multidomain-metrics.md §5), bit for bit.

The reference walks every step and every pair in `itertools.combinations` order, one
battle at a time, with the replicates as the only vector dimension, and does the same
float operations in the same order: E = K / (1 + exp(ln(base)/scale x (R_b - R_a))),
change = (K o - E) x played. Both use numpy's exp, so the ratings must be equal, not close.
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest

from reportgen.kinds.multidomain.model import Pairwise
from reportgen.kinds.multidomain.stats import elo, pairwise

RULES = Pairwise(elo_initial=1500, k=16, scale=400, base=10, bt_mean=1500)
Array = np.ndarray[Any, Any]


def _loop_elo(fought: pairwise.Battles, models: int, sequence: Array) -> Array:
    replicates, steps = sequence.shape
    ratings = np.full((models, replicates), 1500.0)
    slope = np.log(10.0) / 400
    for step in range(steps):
        items = sequence[:, step]
        for index, (a, b) in enumerate(fought.pairs):
            expected = np.divide(16.0, np.exp((ratings[b] - ratings[a]) * slope) + 1.0)
            change = (16.0 * fought.outcome[items, index] - expected) * fought.valid[items, index]
            ratings[a] = ratings[a] + change
            ratings[b] = ratings[b] - change
    result: Array = ratings.T
    return result


def _battles(models: int, items: int, skipped: float, seed: int) -> pairwise.Battles:
    rng = np.random.default_rng(seed)
    pairs = tuple(itertools.combinations(range(models), 2))
    outcome = rng.choice([0.0, 0.5, 1.0], size=(items, len(pairs)))
    valid = rng.random((items, len(pairs))) >= skipped
    return pairwise.Battles(pairs=pairs, outcome=outcome, valid=valid)


@pytest.mark.parametrize(
    ("models", "items", "replicates", "skipped"),
    [
        (2, 5, 7, 0.3),
        (3, 9, 11, 0.0),
        (5, 20, 30, 0.05),
        (7, 15, 25, 0.5),
        (12, 10, 40, 0.02),
        # replicates x models >= 32,768: two threads each run half the replicates
        (6, 8, 6000, 0.1),
    ],
)
def test_vectorised_elo_equals_the_battle_loop_bit_for_bit(
    models: int, items: int, replicates: int, skipped: float
) -> None:
    fought = _battles(models, items, skipped, seed=models * 100 + items)
    rng = np.random.default_rng(replicates)
    weights = rng.multinomial(items, [1 / items] * items, size=replicates).astype(np.int64)
    weights[0] = 1  # the round's own list, as `bootstrap` puts it first
    sequence = elo.replicate_sequence(weights)
    vectorised = pairwise.elo(fought, models, RULES, sequence)
    assert np.array_equal(vectorised, _loop_elo(fought, models, sequence))


def test_a_round_where_every_battle_is_skipped_keeps_the_initial_ratings() -> None:
    fought = _battles(4, 6, 1.0, seed=1)
    assert not fought.valid.any()
    sequence = elo.replicate_sequence(np.full((3, 6), 1, dtype=np.int64))
    assert np.array_equal(pairwise.elo(fought, 4, RULES, sequence), np.full((3, 4), 1500.0))
