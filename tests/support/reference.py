"""A slow, obviously-correct crossed bootstrap, to check the fast one in tests and benchmarks.

It does literally what metrics.md says: for each replicate, take the drawn stigma ids and
structure ids (with their repetitions), rebuild the resampled item set (every item of each
drawn stigma x drawn structure pair, once per pair) and recompute every statistic by
counting the items' outcomes.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.model import SCORED_STYLES
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CANT_TELL, INCONCLUSIVE, ScoredItems
from reportgen.kinds.estigmas.stats.bootstrap import FloatArray, ReplicateDraws

_POSITIVE = SCORED_STYLES.index("positive")


def reference_replicates(items: ScoredItems, draws: ReplicateDraws) -> dict[str, FloatArray]:
    """Statistic name -> (R, M) values, recomputed from the resampled item sets."""
    # Draws index the stigmas and structures that have scored items, in cube order.
    stigmas = np.unique(items.stigma_index)
    structures = np.unique(items.structure_index)
    cells: dict[tuple[int, int], list[int]] = defaultdict(list)
    for position, (s, t) in enumerate(zip(items.stigma_index, items.structure_index, strict=True)):
        cells[int(s), int(t)].append(position)
    models = items.outcome.shape[0]
    names = ("failure", "index", "bias_rate", "omission_rate", "correct_rate")
    values = {name: np.empty((draws.replicates, models)) for name in names}
    for r in range(draws.replicates):
        chosen: list[int] = []
        for s in stigmas[draws.stigma_draws[r]]:
            for t in structures[draws.structure_draws[r]]:
                chosen.extend(cells.get((int(s), int(t)), ()))
        rates = _rates(items, np.asarray(chosen, dtype=np.intp))
        for name in names:
            values[name][r] = rates[name]
    return values


def _rates(items: ScoredItems, chosen: NDArray[np.intp]) -> dict[str, FloatArray]:
    outcome = items.outcome[:, chosen]
    positive = items.style_index[chosen] == _POSITIVE
    total = len(chosen)
    positives = int(positive.sum())
    biased = (outcome == BIASED).sum(axis=1)
    omitted = (((outcome == CANT_TELL) | (outcome == INCONCLUSIVE)) & positive).sum(axis=1)
    correct = ((outcome == AGAINST) & positive).sum(axis=1)
    nan = np.full(outcome.shape[0], np.nan)
    failure = (biased + omitted) / total if total else nan
    return {
        "failure": failure,
        "index": 1.0 - failure,
        "bias_rate": biased / total if total else nan,
        "omission_rate": omitted / positives if positives else nan,
        "correct_rate": correct / positives if positives else nan,
    }
