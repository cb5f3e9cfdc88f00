"""Crossed (pigeonhole) bootstrap over stigmas and structures (Owen 2007).

A replicate draws the S stigmas with replacement and, independently, the T structures
with replacement; an item weighs (times its stigma was drawn) x (times its structure was
drawn). Every statistic is a ratio of weighted counts, so it only needs the round's counts
aggregated per (stigma, structure) cell: for a table C of shape (S, T) and replicate
weights w_s, w_t the weighted total is w_s^T C w_t. All replicates and all tables go
through one matrix product per chunk, so the cost is replicates x tables x S x T,
independent of how many items the round has.

The resampled levels are the stigmas and structures with at least one scored item, in
cube order (`ModelTables`).

Reproducibility. The draws come from `numpy.random.Generator(PCG64(seed))` in this
order: first all stigma draws, `integers(0, S, size=(R, S))` (row r = replicate r), then
all structure draws, `integers(0, T, size=(R, T))`. Weights and counts are integers and
every weighted total is checked to stay below the exact-integer limit of the float type
used (2**24 for float32, 2**53 for float64), so the products are exact integers whatever
the BLAS library's summation order or threading: the same seed and archive give the same
results bit for bit. Intervals are percentiles with `numpy.percentile(..., method="linear")`
(the 2.5th and 97.5th); a replicate whose denominator is zero (possible in a small
continuous round) gives no value for that statistic and is left out of its percentiles.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.model import POSITIVE
from reportgen.kinds.estigmas.score import (
    AGAINST,
    BIASED,
    CANT_TELL,
    INCONCLUSIVE,
    CountCube,
    ScoredItems,
)

FloatArray = NDArray[np.float64]
ProgressCallback = Callable[[int], None]

# The 95% interval; literals, because 100 * (1 - 0.95) / 2 is not exactly 2.5 in floats.
LOWER_PERCENTILE = 2.5
UPPER_PERCENTILE = 97.5
# Replicates per matrix product: as many as fit in this many bytes of intermediate products
# (fewer, larger products are faster; the bound keeps 100-model rounds in memory).
CHUNK_BYTES = 32 * 2**20
# Within that bound, a chunk's products are kept to about this many bytes when that leaves
# at least `_MIN_ROWS` replicates: they stay in cache for the next step, and one buffer's
# worth of fresh memory is touched instead of the whole product's (a 7-model round's is
# 25 MB, whose first writes cost more than the product).
_CACHE_BYTES = 2**20
_MIN_ROWS = 256

# Integers up to these bounds are exact in float32 and float64.
_EXACT_FLOAT32 = 2.0**24
_EXACT_FLOAT64 = 2.0**53


@dataclass(frozen=True)
class ReplicateDraws:
    """The drawn stigma and structure indexes of every replicate."""

    stigma_draws: NDArray[np.int64]  # (R, S) indexes into the stigmas
    structure_draws: NDArray[np.int64]  # (R, T) indexes into the structures
    seed: int | None = None  # the seed of `draw_replicates`, where they come from it
    # The weights, counted once: several statistics read them (never written to).
    _weights: dict[str, FloatArray] = field(default_factory=dict, compare=False, repr=False)

    @property
    def replicates(self) -> int:
        return int(self.stigma_draws.shape[0])

    @property
    def shape(self) -> tuple[int, int, int]:
        """(replicates, stigmas, structures): the sizes given to `draw_replicates`."""
        replicates, stigmas = self.stigma_draws.shape
        return int(replicates), int(stigmas), int(self.structure_draws.shape[1])

    def stigma_weights(self) -> FloatArray:
        """(R, S): how many times each stigma was drawn in each replicate (read-only)."""
        if "stigma" not in self._weights:
            self._weights["stigma"] = _draw_counts(self.stigma_draws)
        return self._weights["stigma"]

    def structure_weights(self) -> FloatArray:
        """(R, T): how many times each structure was drawn in each replicate (read-only)."""
        if "structure" not in self._weights:
            self._weights["structure"] = _draw_counts(self.structure_draws)
        return self._weights["structure"]


def draw_replicates(seed: int, replicates: int, stigmas: int, structures: int) -> ReplicateDraws:
    """Draw every replicate's stigmas, then every replicate's structures (module docstring)."""
    if replicates < 1:
        raise ValueError(f"bootstrap replicates must be at least 1, got {replicates}")
    if stigmas < 1 or structures < 1:
        raise ValueError(f"cannot resample {stigmas} stigmas x {structures} structures")
    generator = np.random.Generator(np.random.PCG64(seed))
    stigma_draws = generator.integers(0, stigmas, size=(replicates, stigmas), dtype=np.int64)
    structure_draws = generator.integers(
        0, structures, size=(replicates, structures), dtype=np.int64
    )
    return ReplicateDraws(stigma_draws=stigma_draws, structure_draws=structure_draws, seed=seed)


def _draw_counts(draws: NDArray[np.int64]) -> FloatArray:
    replicates, size = draws.shape
    # Offsetting row r by r * size turns R bincounts into one.
    offsets = np.arange(replicates, dtype=np.int64)[:, None] * size
    counts = np.bincount((draws + offsets).ravel(), minlength=replicates * size)
    weights = counts.reshape(replicates, size).astype(np.float64)
    weights.flags.writeable = False
    return weights


def weighted_totals(
    tables: FloatArray,
    stigma_weights: FloatArray,
    structure_weights: FloatArray,
    on_progress: ProgressCallback | None = None,
) -> FloatArray:
    """(R, K) weighted totals w_s[r]^T tables[k] w_t[r] of K (S, T) tables of counts.

    Every partial sum is an integer no larger than sum(w_s) x sum(w_t) x max(tables); when
    that bound is below 2**24 the products run in float32 (twice as fast, still exact),
    otherwise in float64 (exact below 2**53).
    """
    count, stigmas, structures = tables.shape
    replicates = stigma_weights.shape[0]
    bound = (
        float(stigma_weights.sum(axis=1).max(initial=0))
        * float(structure_weights.sum(axis=1).max(initial=0))
        * float(tables.max(initial=0))
    )
    if bound >= _EXACT_FLOAT64:
        raise ValueError(f"weighted totals up to {bound:.3g} would not be exact in float64")
    dtype = np.float32 if bound < _EXACT_FLOAT32 else np.float64
    # (S, K*T): the stigma weights of a chunk hit every table in one product.
    by_stigma: NDArray[np.floating[Any]] = np.ascontiguousarray(
        tables.transpose(1, 0, 2).reshape(stigmas, -1), dtype=dtype
    )
    row_weights: NDArray[np.floating[Any]] = stigma_weights.astype(dtype, copy=False)
    column_weights: NDArray[np.floating[Any]] = structure_weights.astype(dtype, copy=False)
    totals = np.empty((replicates, count), dtype=np.float64)
    row_bytes = max(1, count * structures * by_stigma.itemsize)
    chunk = min(max(_MIN_ROWS, _CACHE_BYTES // row_bytes), max(1, CHUNK_BYTES // row_bytes))
    for start in range(0, replicates, chunk):
        stop = min(start + chunk, replicates)
        partial = (row_weights[start:stop] @ by_stigma).reshape(stop - start, count, structures)
        # Exact integers, so einsum's summation order (twice as fast as a batched matmul of
        # matrix-vector products here) gives the same totals.
        totals[start:stop] = np.einsum("rkt,rt->rk", partial, column_weights[start:stop])
        if on_progress is not None:
            on_progress(stop - start)
    return totals


def ratio(numerator: FloatArray, denominator: FloatArray) -> FloatArray:
    """numerator / denominator, NaN where the denominator is zero (no warning)."""
    out = np.full(np.broadcast_shapes(numerator.shape, denominator.shape), np.nan)
    np.divide(numerator, denominator, out=out, where=denominator != 0)
    return out


def percentile_interval(values: FloatArray) -> tuple[FloatArray, FloatArray]:
    """2.5th and 97.5th percentiles along axis 0 (linear), ignoring NaN replicates."""
    if np.isnan(values).any():
        bounds = np.full((2, *values.shape[1:]), np.nan)
        has_value = ~np.isnan(values).all(axis=0)
        if has_value.any():
            bounds[:, has_value] = np.nanpercentile(
                values[:, has_value], [LOWER_PERCENTILE, UPPER_PERCENTILE], axis=0, method="linear"
            )
    else:
        bounds = np.percentile(
            values, [LOWER_PERCENTILE, UPPER_PERCENTILE], axis=0, method="linear"
        )
    return bounds[0], bounds[1]


# The per-model statistics of metrics.md with their numerator and denominator.
MODEL_STATISTICS: tuple[str, ...] = (
    "failure",
    "index",
    "bias_rate",
    "omission_rate",
    "correct_rate",
)
DENOMINATOR_OF: dict[str, str] = {
    "failure": "N",
    "index": "N",
    "bias_rate": "N",
    "omission_rate": "n",
    "correct_rate": "n",
}


@dataclass(frozen=True)
class ModelTables:
    """A round's per-model counts aggregated per (stigma, structure) cell.

    Only the stigmas and structures with at least one scored item take part (all of them
    in a full round; a continuous round's subsample may miss some): those are the levels
    the bootstrap resamples and the leave-one-out analyses leave out, in cube order.
    """

    stigma_positions: tuple[int, ...]  # indexes into CountCube.stigma_ids
    structure_positions: tuple[int, ...]  # indexes into CountCube.structure_ids
    biased: FloatArray  # (M, S, T)
    omissions: FloatArray  # (M, S, T): cant_tell or inconclusive on positive items
    correct: FloatArray  # (M, S, T): decisions against the stigma on positive items
    scored: FloatArray  # (S, T): scored items (N)
    positive: FloatArray  # (S, T): scored items of style positive (n)

    @classmethod
    def from_cube(cls, cube: CountCube) -> ModelTables:
        per_cell = cube.items.sum(axis=(2, 3))
        stigmas = np.flatnonzero(per_cell.sum(axis=1) > 0)
        structures = np.flatnonzero(per_cell.sum(axis=0) > 0)
        cells = np.ix_(stigmas, structures)
        counts = cube.counts
        if len(stigmas) < counts.shape[1] or len(structures) < counts.shape[2]:
            counts = counts[:, stigmas][:, :, structures]
        # Integer sums first, floats last: a 1,000-model cube stays in its integer type.
        positive = counts[:, :, :, POSITIVE].sum(axis=3, dtype=np.int64)  # (M, S, T, outcomes)
        return cls(
            stigma_positions=tuple(int(i) for i in stigmas),
            structure_positions=tuple(int(i) for i in structures),
            biased=counts[..., BIASED].sum(axis=(3, 4), dtype=np.int64).astype(np.float64),
            omissions=(positive[..., CANT_TELL] + positive[..., INCONCLUSIVE]).astype(np.float64),
            correct=positive[..., AGAINST].astype(np.float64),
            scored=per_cell[cells].astype(np.float64),
            positive=cube.items[:, :, POSITIVE].sum(axis=2)[cells].astype(np.float64),
        )

    @classmethod
    def from_items(cls, cube: CountCube, scored: ScoredItems) -> ModelTables:
        """`from_cube`'s tables counted from `cube`'s scored items (the same integers): at
        1,000 models, one bincount per table instead of sums over the 400 MB cube."""
        models, stigmas, structures = cube.counts.shape[:3]
        cell = scored.stigma_index.astype(np.int64) * structures + scored.structure_index
        flat = np.arange(models, dtype=np.int64)[:, None] * (stigmas * structures) + cell
        positive, outcome = (scored.style_index == POSITIVE)[None, :], scored.outcome
        omitted = positive & ((outcome == CANT_TELL) | (outcome == INCONCLUSIVE))
        # The levels, N and n from the cube's items; the models' tables from the items.
        levels = cls.from_cube(replace(cube, counts=cube.counts[:0]))
        tables = []
        for mask in (outcome == BIASED, omitted, positive & (outcome == AGAINST)):
            counts = np.bincount(flat[mask], minlength=models * stigmas * structures)
            table = counts.reshape(models, stigmas, structures)
            if (
                len(levels.stigma_positions) < stigmas
                or len(levels.structure_positions) < structures
            ):
                table = table[:, levels.stigma_positions][:, :, levels.structure_positions]
            tables.append(table.astype(np.float64))
        return replace(levels, biased=tables[0], omissions=tables[1], correct=tables[2])

    def stacked(self) -> FloatArray:
        """(3M + 2, S, T): biased, omissions and correct of every model, then N and n."""
        return np.concatenate(
            [self.biased, self.omissions, self.correct, self.scored[None], self.positive[None]]
        )


@dataclass(frozen=True)
class ModelReplicates:
    """Every per-model statistic in every replicate (R, M), plus the weighted counts."""

    values: dict[str, FloatArray]  # statistic name -> (R, M)
    failure_counts: FloatArray  # (R, M) weighted V + O (exact integers)


def statistics_from_totals(totals: FloatArray, models: int) -> ModelReplicates:
    """Turn the (R, 3M + 2) weighted totals of `ModelTables.stacked` into rates."""
    biased = totals[:, :models]
    omissions = totals[:, models : 2 * models]
    correct = totals[:, 2 * models : 3 * models]
    scored = totals[:, 3 * models, None]
    positive = totals[:, 3 * models + 1, None]
    failure_counts = biased + omissions
    failure = ratio(failure_counts, scored)
    values = {
        "failure": failure,
        "index": 1.0 - failure,
        "bias_rate": ratio(biased, scored),
        "omission_rate": ratio(omissions, positive),
        "correct_rate": ratio(correct, positive),
    }
    return ModelReplicates(values=values, failure_counts=failure_counts)


def model_replicates(
    tables: ModelTables, draws: ReplicateDraws, on_progress: ProgressCallback | None = None
) -> ModelReplicates:
    """Every per-model statistic of metrics.md in every replicate, the same weights for all."""
    totals = weighted_totals(
        tables.stacked(), draws.stigma_weights(), draws.structure_weights(), on_progress
    )
    return statistics_from_totals(totals, tables.biased.shape[0])


def point_statistics(tables: ModelTables) -> ModelReplicates:
    """The statistics of the round itself (every weight 1), as a single replicate."""
    stigmas, structures = tables.scored.shape
    totals = weighted_totals(tables.stacked(), np.ones((1, stigmas)), np.ones((1, structures)))
    return statistics_from_totals(totals, tables.biased.shape[0])


def difference_intervals(index: FloatArray) -> tuple[FloatArray, FloatArray]:
    """(M, M) lower and upper bounds of index[:, a] - index[:, b] over the replicates.

    Computed for a < b; the mirrored cell is the negated interval with its ends swapped,
    which is what the linear percentile of the negated replicates gives.
    """
    models = index.shape[1]
    lower = np.zeros((models, models))
    upper = np.zeros((models, models))
    for a in range(models - 1):
        differences = index[:, a, None] - index[:, a + 1 :]
        low, high = percentile_interval(differences)
        lower[a, a + 1 :] = low
        upper[a, a + 1 :] = high
        lower[a + 1 :, a] = -high
        upper[a + 1 :, a] = -low
    return lower, upper


def pair_intervals(
    index: FloatArray, pairs: Sequence[tuple[int, int]]
) -> tuple[FloatArray, FloatArray]:
    """Lower and upper bounds of index[:, a] - index[:, b] for each (a, b) of `pairs`.

    The same values as `difference_intervals` gives at [a, b]: computed for a < b, and the
    mirrored pair is the negated interval with its ends swapped.
    """
    lower, upper = np.empty(len(pairs)), np.empty(len(pairs))
    if not pairs:
        return lower, upper
    ordered = np.array([(min(a, b), max(a, b)) for a, b in pairs], dtype=np.int64)
    mirrored = np.array([a > b for a, b in pairs], dtype=bool)
    step = max(1, CHUNK_BYTES // (8 * index.shape[0]))
    for start in range(0, len(pairs), step):
        chunk = ordered[start : start + step]
        low, high = percentile_interval(index[:, chunk[:, 0]] - index[:, chunk[:, 1]])
        flip = mirrored[start : start + step]
        lower[start : start + step] = np.where(flip, -high, low)
        upper[start : start + step] = np.where(flip, -low, high)
    return lower, upper
