"""Crossed bootstrap over templates × name positions (counterfactual-metrics.md §10).

Per attribute, a fresh `Generator(PCG64(seed))` draws `integers(0, |T_a|, size=(B, |T_a|))`
then `integers(0, K_a, size=(B, K_a))`; w_t and w_k count how often each is drawn. A
response of unit (t, r, k) weighs w_t·w_k, the same for every group, system and variable,
so the pairing holds. Runs are not resampled. A replicate's group value is
Σ w·value / Σ w·determined; its gap is max − min over the groups with a point value, and a
replicate where one of them has weighted denominator 0 is left out. The interval is
`numpy.percentile(kept, [2.5, 97.5], method="linear")`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds.counterfactual.score import BoolArray, Cells, IntArray

FloatArray = np.ndarray[Any, np.dtype[np.float64]]


@dataclass(frozen=True)
class Draws:
    templates: IntArray  # (B, T) times each template is drawn
    positions: IntArray  # (B, K) times each position is drawn


def _counts(draws: IntArray, size: int) -> IntArray:
    replicates = draws.shape[0]
    offsets = (np.arange(replicates, dtype=np.int64) * size)[:, None]
    counts = np.bincount((draws + offsets).ravel(), minlength=replicates * size)
    return counts.reshape(replicates, size).astype(np.int64)


def draw(seed: int, replicates: int, templates: int, positions: int) -> Draws:
    """This attribute's weights; none drawn when it has no template or no position left."""
    if templates == 0 or positions == 0:
        empty = np.zeros((replicates, 0), dtype=np.int64)
        return Draws(empty, empty)
    generator = np.random.Generator(np.random.PCG64(seed))
    template_draws = generator.integers(0, templates, size=(replicates, templates))
    position_draws = generator.integers(0, positions, size=(replicates, positions))
    return Draws(_counts(template_draws, templates), _counts(position_draws, positions))


def replicate_gaps(
    cells: Cells, population: BoolArray, draws: Draws, with_value: Sequence[bool]
) -> FloatArray | None:
    """One gap per replicate (NaN when left out); None when fewer than 2 groups have a
    point value (no gap, so no interval)."""
    chosen = np.flatnonzero(np.asarray(with_value, dtype=np.bool_))
    if len(chosen) < 2 or draws.templates.shape[1] == 0:
        return None
    determined = cells.determined[population][:, chosen]  # (T', G', K, R)
    totals = (cells.values[population][:, chosen] * determined).sum(axis=3).astype(np.float64)
    counts = determined.sum(axis=3).astype(np.float64)
    template_weights = draws.templates[:, population].astype(np.float64)
    position_weights = draws.positions.astype(np.float64)
    numerator = np.einsum("bt,tgk,bk->bg", template_weights, totals, position_weights)
    denominator = np.einsum("bt,tgk,bk->bg", template_weights, counts, position_weights)
    kept = (denominator > 0).all(axis=1)
    safe = np.where(denominator > 0, denominator, 1.0)
    values = numerator / safe
    gaps = values.max(axis=1) - values.min(axis=1)
    return np.where(kept, gaps, np.nan)


@dataclass(frozen=True)
class Interval:
    lo: float | None
    hi: float | None
    kept: int
    left_out: int


def interval(values: FloatArray) -> Interval:
    defined = values[~np.isnan(values)]
    left_out = int(values.size - defined.size)
    if defined.size == 0:
        return Interval(None, None, 0, left_out)
    lo, hi = np.percentile(defined, [2.5, 97.5], method="linear")
    return Interval(float(lo), float(hi), int(defined.size), left_out)
