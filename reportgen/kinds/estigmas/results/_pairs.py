"""Index differences of chosen pairs of models, from the bootstrap replicates on demand.

The results object keeps the differences of every ordered pair only up to `ALL_PAIRS_UP_TO`
models (1,000 models have 999,000 ordered pairs); the compare page lists its own pairs
(`listed_pairs`) and reads each one's difference and interval from the replicates at build
time (`pair_differences`). The replicates are drawn again from the results' seed and count,
in the order of `bootstrap.draw_replicates`, and only the failure counts of the models the
pairs name are weighted: the weighted totals are exact integers, so every value is the one
`compute_results` gives for the same pair, bit for bit.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.results._schema import IndexDifference
from reportgen.kinds.estigmas.score import ModelScore, build_cube
from reportgen.kinds.estigmas.stats.bootstrap import (
    ModelTables,
    draw_replicates,
    pair_intervals,
    ratio,
    weighted_totals,
)
from reportgen.stats import blas_threads

# Up to this many models every ordered pair has its index difference and every pair its
# McNemar test (what the ranking's matrix and the compare page show); beyond, only the
# neighbours in the ranking (docs/metrics.md).
ALL_PAIRS_UP_TO = 50


def listed_pairs(scores: Sequence[ModelScore]) -> list[tuple[str, str]]:
    """The ordered pairs the compare page lists, first model minus second.

    `scores` in the pages' order (ranked models by rank, then the diagnostic cases). Up to
    `ALL_PAIRS_UP_TO` models every ordered pair of distinct models; beyond, each model and
    the next one in that order, both ways (the pair a model page links to is one of them).
    """
    ids = [s.model_id for s in scores]
    if len(ids) <= ALL_PAIRS_UP_TO:
        return [(a, b) for a in ids for b in ids if a != b]
    return [pair for x, y in itertools.pairwise(ids) for pair in ((x, y), (y, x))]


def optional(value: np.floating[Any]) -> float | None:
    return None if np.isnan(value) else float(value)


def difference(
    a: ModelScore, b: ModelScore, lower: np.floating[Any], upper: np.floating[Any]
) -> IndexDifference:
    """index(a) - index(b) with the interval's ends (NaN: no replicate had a value)."""
    low, high = optional(lower), optional(upper)
    return IndexDifference(
        model_a=a.model_id,
        model_b=b.model_id,
        estimate=a.index - b.index,
        lower=low,
        upper=high,
        separated=low is not None and high is not None and (low > 0 or high < 0),
    )


def pair_differences(
    round: Round,
    scores: Sequence[ModelScore],
    pairs: Sequence[tuple[str, str]],
    replicates: int,
    seed: int,
) -> tuple[IndexDifference, ...]:
    """The index difference of each (a, b) of `pairs` with its 95% interval, in order.

    `replicates` and `seed` are the results' (`RoundResults.replicates`, `.seed`); `scores`
    the round's scores (the point estimates). Raises ValueError for a model not in them.
    """
    if not pairs:
        return ()
    cube = build_cube(round)
    position = {model_id: i for i, model_id in enumerate(cube.model_ids)}
    score_of = {s.model_id: s for s in scores}
    unknown = sorted({m for pair in pairs for m in pair if m not in score_of or m not in position})
    if unknown:
        raise ValueError(f"round {round.round_id}: no scores for {', '.join(unknown)}")
    # The named models in `scores` order, as the columns of `compute_results`: a pair's
    # interval is computed first column minus second, then mirrored, as there.
    wanted = {m for pair in pairs for m in pair}
    column = {m: k for k, m in enumerate(s.model_id for s in scores if s.model_id in wanted)}
    named = [position[m] for m in column]
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(seed, replicates, *tables.scored.shape)
    # One table per named model: its failures (biased + omissions), then N.
    failures = tables.biased[named] + tables.omissions[named]
    stacked = np.concatenate([failures, tables.scored[None]])
    with blas_threads(replicates * stacked.size):  # a small product on one BLAS thread
        totals = weighted_totals(stacked, draws.stigma_weights(), draws.structure_weights())
    index = 1.0 - ratio(totals[:, : len(named)], totals[:, len(named), None])
    lower, upper = pair_intervals(index, [(column[a], column[b]) for a, b in pairs])
    return tuple(
        difference(score_of[a], score_of[b], lower[k], upper[k]) for k, (a, b) in enumerate(pairs)
    )
