"""Agreement statistics: Cohen's κ, Krippendorff's α (nominal), confusion matrices.

Krippendorff's α is the shared one (`reportgen.stats`, written from its definition because
the `krippendorff` package is GPL-licensed); its bootstrap interval is computed here from
the coincidence matrices of all replicates at once. Both coefficients return NaN when they are
undefined (no pairable data, or a single category everywhere with no disagreement
possible), never a made-up number.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Sequence
from itertools import permutations

import numpy as np
import numpy.typing as npt

from reportgen.stats import krippendorff_alpha


def cohens_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float:
    """Cohen's κ of two raters over the same units (paired sequences)."""
    if len(first) != len(second):
        raise ValueError("both raters must rate the same units")
    if not first:
        return math.nan
    categories = sorted(set(first) | set(second), key=str)
    index = {category: position for position, category in enumerate(categories)}
    table = np.zeros((len(categories), len(categories)), dtype=np.float64)
    for a, b in zip(first, second, strict=True):
        table[index[a], index[b]] += 1
    total = table.sum()
    observed = np.trace(table) / total
    expected = float((table.sum(axis=1) @ table.sum(axis=0)) / total**2)
    if math.isclose(expected, 1.0):
        return math.nan
    return float((observed - expected) / (1.0 - expected))


def krippendorff_alpha_nominal(units: Sequence[Sequence[Hashable]]) -> float:
    """Krippendorff's α for nominal data (`reportgen.stats.krippendorff_alpha`), as a float.

    `units` holds, per unit, the values the raters gave (missing ratings simply
    absent). Units with fewer than two values are not pairable and are ignored.
    """
    alpha = krippendorff_alpha(units, "nominal")
    return math.nan if alpha is None else float(alpha)


def confusion_matrix(
    rows: Sequence[str],
    columns: Sequence[str],
    row_categories: Sequence[str],
    column_categories: Sequence[str],
) -> npt.NDArray[np.int64]:
    """Counts of (row value, column value) pairs, in the given category orders."""
    row_index = {c: i for i, c in enumerate(row_categories)}
    column_index = {c: i for i, c in enumerate(column_categories)}
    matrix = np.zeros((len(row_categories), len(column_categories)), dtype=np.int64)
    for r, c in zip(rows, columns, strict=True):
        matrix[row_index[r], column_index[c]] += 1
    return matrix


def majority(values: Sequence[str]) -> str | None:
    """The value more than half of `values` share, or None (ties and splits)."""
    if not values:
        return None
    value, count = Counter(values).most_common(1)[0]
    return value if count * 2 > len(values) else None


# Bootstrap intervals: units (samples, or judgments) are resampled with replacement, and the
# coefficient is recomputed on each replicate from per-unit tables, all replicates at once.
BOOTSTRAP_REPLICATES = 2000
BOOTSTRAP_SEED = 20260701
INTERVAL_LEVEL = 0.95


def _replicate_weights(units: int, replicates: int, seed: int) -> npt.NDArray[np.float64]:
    """How many times each unit is drawn in each replicate (replicates × units)."""
    rng = np.random.default_rng(seed)
    drawn = rng.integers(0, units, size=(replicates, units))
    offsets = (np.arange(replicates) * units)[:, None]
    counts = np.bincount((drawn + offsets).ravel(), minlength=replicates * units)
    return counts.reshape(replicates, units).astype(np.float64)


def _interval(values: npt.NDArray[np.float64], level: float) -> tuple[float, float]:
    """The percentile interval of the defined replicates (NaN when half are undefined)."""
    defined = values[np.isfinite(values)]
    if defined.size == 0 or defined.size * 2 < values.size:
        return math.nan, math.nan
    tail = (1.0 - level) / 2.0
    low, high = np.quantile(defined, [tail, 1.0 - tail])
    return float(low), float(high)


def kappa_interval(
    first: Sequence[Hashable],
    second: Sequence[Hashable],
    *,
    replicates: int = BOOTSTRAP_REPLICATES,
    seed: int = BOOTSTRAP_SEED,
    level: float = INTERVAL_LEVEL,
) -> tuple[float, float]:
    """Percentile bootstrap interval of Cohen's κ, resampling the paired units."""
    if len(first) != len(second):
        raise ValueError("both raters must rate the same units")
    if not first:
        return math.nan, math.nan
    categories = sorted(set(first) | set(second), key=str)
    index = {category: position for position, category in enumerate(categories)}
    k = len(categories)
    cells = np.zeros((len(first), k * k), dtype=np.float64)
    for unit, (a, b) in enumerate(zip(first, second, strict=True)):
        cells[unit, index[a] * k + index[b]] = 1.0
    tables = (_replicate_weights(len(first), replicates, seed) @ cells).reshape(-1, k, k)
    total = tables.sum(axis=(1, 2))
    observed = np.trace(tables, axis1=1, axis2=2) / total
    expected = np.einsum("ri,ri->r", tables.sum(axis=2), tables.sum(axis=1)) / total**2
    with np.errstate(divide="ignore", invalid="ignore"):
        kappas = np.where(np.isclose(expected, 1.0), np.nan, (observed - expected) / (1 - expected))
    return _interval(kappas, level)


def alpha_interval(
    units: Sequence[Sequence[Hashable]],
    *,
    replicates: int = BOOTSTRAP_REPLICATES,
    seed: int = BOOTSTRAP_SEED,
    level: float = INTERVAL_LEVEL,
) -> tuple[float, float]:
    """Percentile bootstrap interval of Krippendorff's α (nominal), resampling the
    pairable units (a unit's coincidences travel with it)."""
    pairable = [values for values in units if len(values) >= 2]
    if not pairable:
        return math.nan, math.nan
    categories = sorted({v for values in pairable for v in values}, key=str)
    index = {category: position for position, category in enumerate(categories)}
    k = len(categories)
    coincidences = np.zeros((len(pairable), k * k), dtype=np.float64)
    for unit, values in enumerate(pairable):
        for a, b in permutations(values, 2):
            coincidences[unit, index[a] * k + index[b]] += 1.0 / (len(values) - 1)
    weights = _replicate_weights(len(pairable), replicates, seed)
    matrices = (weights @ coincidences).reshape(-1, k, k)
    totals = matrices.sum(axis=2)
    n = totals.sum(axis=1)
    disagreement = n - np.trace(matrices, axis1=1, axis2=2)
    expected_pairs = n * n - (totals**2).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        alphas = np.where(
            np.isclose(expected_pairs, 0.0), np.nan, 1.0 - (n - 1) * disagreement / expected_pairs
        )
    return _interval(alphas, level)
