"""Leave-one-stigma-out and leave-one-structure-out re-rankings (metrics.md, Sensitivity).

Each analysis drops one stigma (or one structure) from every model's counts and ranks the
models again. The set of ranked models is the round's eligible set, kept fixed, so that
"the order is preserved" compares the same models; ranks are decided on the exact
integer failure counts (every model answers the same items, so they share N).
With fewer than two ranked models there is no order to keep: the family is "not
applicable" (`reason`), with no analysis counted as preserving it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.stats.bootstrap import FloatArray, ModelTables, weighted_totals

# Cells of the (rows, models) block `rank_rows` sorts at a time.
_RANK_CELLS = 2**20


@dataclass(frozen=True)
class RankRange:
    model_id: str
    best: int  # smallest rank reached
    worst: int  # largest rank reached


@dataclass(frozen=True)
class LeaveOneOut:
    """One family of analyses: each leaves out one stigma, or one structure."""

    dropped: str  # "stigma" or "structure"
    analyses: int
    preserved: int  # analyses whose complete order (ties included) equals the round's
    changed: tuple[str, ...]  # ids left out in the analyses that changed the order
    ranges: tuple[RankRange, ...]  # ranked models, in the round's ranking order
    reason: str | None  # why the family is not applicable (fewer than two ranked models)


def competition_ranks(failure_counts: Sequence[float]) -> tuple[int, ...]:
    """1 + how many models fail strictly less: ties share a rank (1, 2, 2, 4)."""
    return tuple(int(rank) for rank in rank_rows(np.asarray(failure_counts, np.float64)[None])[0])


def rank_rows(failure_counts: FloatArray) -> NDArray[np.int64]:
    """`competition_ranks` of every row of a (rows, M) array at once.

    Sorted once per row: a model's rank is 1 + the position, in its row's sorted order, of
    the first value equal to its own (how many fail strictly less). Rows go `_RANK_CELLS`
    cells at a time, which bounds the index arrays of a 1,000-model round.
    """
    rows, models = failure_counts.shape
    ranks = np.empty((rows, models), dtype=np.int64)
    step = max(1, _RANK_CELLS // max(1, models))
    for start in range(0, rows, step):
        block = failure_counts[start : start + step]
        order = np.argsort(block, axis=1, kind="stable")
        ordered = np.take_along_axis(block, order, axis=1)
        # Position of the first of each run of equal values, carried along the run.
        first = np.zeros(ordered.shape, dtype=np.int64)
        first[:, 1:] = np.where(ordered[:, 1:] != ordered[:, :-1], np.arange(1, models), 0)
        np.maximum.accumulate(first, axis=1, out=first)
        np.put_along_axis(ranks[start : start + step], order, first + 1, axis=1)
    return ranks


def _leave_one_out(
    tables: ModelTables,
    ranked: Sequence[int],
    ranked_ids: Sequence[str],
    stigma_weights: FloatArray,
    structure_weights: FloatArray,
    dropped: str,
    dropped_ids: Sequence[str],
) -> LeaveOneOut:
    if len(ranked) < 2:
        return LeaveOneOut(
            dropped=dropped,
            analyses=0,
            preserved=0,
            changed=(),
            ranges=(),
            reason=f"not applicable: {len(ranked)} ranked model(s), no order to keep",
        )
    failures = np.concatenate([tables.biased[ranked], tables.omissions[ranked]])
    totals = weighted_totals(failures, stigma_weights, structure_weights)
    models = len(ranked)
    failure_counts = totals[:, :models] + totals[:, models:]
    full = competition_ranks(
        tables.biased[ranked].sum(axis=(1, 2)) + tables.omissions[ranked].sum(axis=(1, 2))
    )
    ranks = rank_rows(failure_counts).reshape(len(dropped_ids), models)
    same = (ranks == np.asarray(full, dtype=np.int64)).all(axis=1)
    return LeaveOneOut(
        dropped=dropped,
        analyses=len(dropped_ids),
        preserved=int(same.sum()),
        changed=tuple(dropped_ids[int(i)] for i in np.flatnonzero(~same)),
        ranges=tuple(
            RankRange(
                model_id=ranked_ids[position],
                best=int(ranks[:, position].min(initial=full[position])),
                worst=int(ranks[:, position].max(initial=full[position])),
            )
            for position in range(models)
        ),
        reason=None,
    )


def leave_one_out(
    tables: ModelTables,
    ranked: Sequence[int],
    model_ids: Sequence[str],
    stigma_ids: Sequence[str],
    structure_ids: Sequence[str],
) -> tuple[LeaveOneOut, LeaveOneOut]:
    """The leave-one-stigma-out and leave-one-structure-out families.

    `ranked` holds the positions (in the cube) of the ranked models, in ranking order;
    `stigma_ids` and `structure_ids` name the levels of `tables` (those with scored items).
    A model's range covers the round itself and every analysis of the family.
    """
    stigmas, structures = tables.scored.shape
    ranked_ids = [model_ids[position] for position in ranked]
    by_stigma = _leave_one_out(
        tables,
        ranked,
        ranked_ids,
        1.0 - np.eye(stigmas),
        np.ones((stigmas, structures)),
        "stigma",
        stigma_ids,
    )
    by_structure = _leave_one_out(
        tables,
        ranked,
        ranked_ids,
        np.ones((structures, stigmas)),
        1.0 - np.eye(structures),
        "structure",
        structure_ids,
    )
    return by_stigma, by_structure
