"""Agreement statistics: Cohen's κ, Krippendorff's α (nominal), confusion matrices.

Krippendorff's α is written here from its coincidence-matrix definition because the
`krippendorff` package is GPL-licensed. Both coefficients return NaN when they are
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
    """Krippendorff's α for nominal data.

    `units` holds, per unit, the values the raters gave (missing ratings simply
    absent). Units with fewer than two values are not pairable and are ignored.
    """
    coincidences: dict[tuple[Hashable, Hashable], float] = {}
    for values in units:
        m = len(values)
        if m < 2:
            continue
        for a, b in permutations(values, 2):
            coincidences[(a, b)] = coincidences.get((a, b), 0.0) + 1.0 / (m - 1)
    if not coincidences:
        return math.nan
    totals: dict[Hashable, float] = {}
    for (a, _b), weight in coincidences.items():
        totals[a] = totals.get(a, 0.0) + weight
    n = sum(totals.values())
    observed_disagreement = sum(w for (a, b), w in coincidences.items() if a != b)
    expected_pairs = n * n - sum(count * count for count in totals.values())
    if expected_pairs == 0:
        return math.nan
    return float(1.0 - (n - 1) * observed_disagreement / expected_pairs)


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
