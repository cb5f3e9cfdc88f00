"""The stratified item bootstrap (multidomain-metrics.md §4, MD-I10, MD-I11), exact.

Strata: scored items by (domain_id, language, type), strata in code-point order, items by
`order`; for each stratum `g.integers(0, n_s, size=(R, n_s))` with one PCG64(seed)
generator; w(r, i) = times item i is drawn in replicate r. Replicate scores are exact: item
points are integers after scaling by their common denominator D, so a replicate's slice
score is 100 x (w·P) / (D x w·weight). Percentiles sort the replicates by float value and
settle every near-equal value exactly with Fractions, so the result is the exact linear
percentile of the exact values.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from reportgen.kinds.multidomain.model import Item
from reportgen.kinds.multidomain.score import RoundPoints

IntArray = np.ndarray[Any, np.dtype[np.int64]]
FloatArray = np.ndarray[Any, np.dtype[np.float64]]
LOWER_Q = Fraction(5, 2)
UPPER_Q = Fraction(195, 2)
# Float values within this relative distance are compared exactly (far above float error,
# far below the gap between distinct scores that matter).
_NEAR = 1e-9


def strata(items: Sequence[Item]) -> list[list[int]]:
    """Indices of `items` per stratum, strata by (domain, language, type), items by order."""
    groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
    for index, item in enumerate(items):
        groups[(item.domain_id, item.language, item.type)].append(index)
    return [
        sorted(groups[key], key=lambda i: (items[i].order or 0, items[i].item_id))
        for key in sorted(groups)
    ]


def draw_weights(items: Sequence[Item], seed: int, replicates: int) -> IntArray:
    """w(r, i): (replicates x items) counts, columns in `items` order."""
    generator = np.random.Generator(np.random.PCG64(seed))
    weights = np.zeros((replicates, len(items)), dtype=np.int64)
    for members in strata(items):
        size = len(members)
        draws = generator.integers(0, size, size=(replicates, size))
        offsets = (np.arange(replicates, dtype=np.int64) * size)[:, None]
        counts = np.bincount((draws + offsets).ravel(), minlength=replicates * size)
        weights[:, members] = counts.reshape(replicates, size)
    return weights


def exact_percentile(
    values: FloatArray, exact_of: Callable[[int], Fraction], q: Fraction
) -> Fraction | None:
    """The linear-rule percentile q of the defined (non-NaN) replicate values, exactly.

    `values` are floats close to the exact values `exact_of(r)`; None when none is defined.
    """
    defined = np.flatnonzero(~np.isnan(values))
    count = len(defined)
    if count == 0:
        return None
    h = (count - 1) * q / 100
    low = math.floor(h)
    floats = values[defined]
    ordered = np.sort(floats)
    x_low = _order_statistic(defined, floats, ordered, low, exact_of)
    if h == low:
        return x_low
    x_high = _order_statistic(defined, floats, ordered, low + 1, exact_of)
    return x_low + (h - low) * (x_high - x_low)


def _order_statistic(
    defined: IntArray,
    floats: FloatArray,
    ordered: FloatArray,
    k: int,
    exact_of: Callable[[int], Fraction],
) -> Fraction:
    target = float(ordered[k])
    tolerance = _NEAR * max(1.0, abs(target))
    near = np.abs(floats - target) <= tolerance
    below = int(np.count_nonzero(floats < target - tolerance))
    candidates = sorted(exact_of(int(r)) for r in defined[near])
    return candidates[k - below]


def linear_percentile(values: Sequence[Fraction], q: Fraction) -> Fraction | None:
    """The same rule on exact values directly (small inputs, tests)."""
    ordered = sorted(values)
    if not ordered:
        return None
    h = (len(ordered) - 1) * q / 100
    low = math.floor(h)
    if h == low:
        return ordered[low]
    return ordered[low] + (h - low) * (ordered[low + 1] - ordered[low])


@dataclass(frozen=True)
class Interval:
    lo: Fraction | None
    hi: Fraction | None
    undefined: int  # replicates left out (zero denominator)


def interval(values: FloatArray, exact_of: Callable[[int], Fraction]) -> Interval:
    return Interval(
        lo=exact_percentile(values, exact_of, LOWER_Q),
        hi=exact_percentile(values, exact_of, UPPER_Q),
        undefined=int(np.count_nonzero(np.isnan(values))),
    )


@dataclass(frozen=True)
class ScaledPoints:
    """p̄ x D as integers (items x models), and the item weights."""

    points: IntArray
    weights: IntArray
    denominator: int

    @classmethod
    def of(cls, round_points: RoundPoints) -> ScaledPoints:
        denominators = {p.denominator for row in round_points.item_points for p in row}
        denominator = math.lcm(1, *denominators)
        factor = {d: denominator // d for d in denominators}  # p x D, in integers
        matrix = np.array(
            [
                [p.numerator * factor[p.denominator] for p in row]
                for row in round_points.item_points
            ],
            dtype=np.int64,
        ).reshape(len(round_points.model_ids), len(round_points.items))
        weights = np.array([item.weight for item in round_points.items], dtype=np.int64)
        return cls(points=matrix.T.copy(), weights=weights, denominator=denominator)

    def score(self, model: int, indices: Sequence[int]) -> Fraction | None:
        """S(m, X) from the scaled integers: the same value as scores.slice_score, fast."""
        columns = list(indices)
        possible = int(self.weights[columns].sum())
        if possible == 0:
            return None
        return Fraction(100 * int(self.points[columns, model].sum()), self.denominator * possible)

    def primary(self, model: int, domains: Sequence[Sequence[int]]) -> Fraction | None:
        """The mean of the defined domain scores."""
        defined = [s for indices in domains if (s := self.score(model, indices)) is not None]
        return sum(defined, Fraction(0)) / len(defined) if defined else None


@dataclass(frozen=True)
class SliceReplicates:
    """One slice's replicate numerators (R x models) and denominators (R), unscaled."""

    numerators: IntArray
    denominators: IntArray
    denominator: int  # D

    def floats(self, model: int) -> FloatArray:
        den = self.denominators.astype(np.float64) * self.denominator
        with np.errstate(divide="ignore", invalid="ignore"):
            values = 100.0 * self.numerators[:, model] / den
        return np.where(self.denominators == 0, np.nan, values)

    def exact(self, model: int, replicate: int) -> Fraction:
        return Fraction(
            100 * int(self.numerators[replicate, model]),
            self.denominator * int(self.denominators[replicate]),
        )

    def interval(self, model: int) -> Interval:
        return interval(self.floats(model), lambda r: self.exact(model, r))


def slice_replicates(
    scaled: ScaledPoints, weights: IntArray, indices: Sequence[int]
) -> SliceReplicates:
    columns = list(indices)
    # One product for the numerators and the denominators: the drawn weights are read once.
    right = np.concatenate([scaled.points[columns, :], scaled.weights[columns, None]], axis=1)
    both = exact_product(weights[:, columns], right)
    return SliceReplicates(
        numerators=both[:, :-1], denominators=both[:, -1], denominator=scaled.denominator
    )


def exact_product(left: IntArray, right: IntArray) -> IntArray:
    """left @ right for integer matrices, exactly. When no sum can reach 2**53 in absolute
    value (every product and partial sum is then an integer a float holds exactly, in any
    order of summation), the float product (BLAS) gives the same integers, many times
    faster than numpy's integer product; otherwise the integer product."""
    if left.size == 0 or right.size == 0:
        return left @ right
    bound = int(np.abs(left).sum(axis=1).max()) * int(np.abs(right).max())
    if bound >= 2**53:
        return left @ right
    product = left.astype(np.float64) @ right.astype(np.float64)
    return product.astype(np.int64)


@dataclass(frozen=True)
class PrimaryReplicates:
    """Replicate primary scores: the mean of the defined replicate domain scores."""

    domains: tuple[SliceReplicates, ...]

    def floats(self, model: int) -> FloatArray:
        stacked = np.stack([domain.floats(model) for domain in self.domains])
        defined = np.count_nonzero(~np.isnan(stacked), axis=0)
        with np.errstate(divide="ignore", invalid="ignore"):
            values = np.nansum(stacked, axis=0) / defined
        return np.where(defined == 0, np.nan, values)

    def exact(self, model: int, replicate: int) -> Fraction:
        scores = [
            domain.exact(model, replicate)
            for domain in self.domains
            if domain.denominators[replicate] != 0
        ]
        return sum(scores, Fraction(0)) / len(scores)

    def interval(self, model: int) -> Interval:
        return interval(self.floats(model), lambda r: self.exact(model, r))

    def difference_interval(self, a: int, b: int) -> Interval:
        values = self.floats(a) - self.floats(b)
        return interval(values, lambda r: self.exact(a, r) - self.exact(b, r))


def technically_tied(score_a: Fraction, a: Interval, score_b: Fraction, b: Interval) -> bool:
    """Reading R2 (MD-I10): the intervals overlap and |S_a - S_b| < (w_a + w_b) / 4."""
    if a.lo is None or a.hi is None or b.lo is None or b.hi is None:
        return False
    overlap = max(a.lo, b.lo) <= min(a.hi, b.hi)
    widths = (a.hi - a.lo) + (b.hi - b.lo)
    return overlap and abs(score_a - score_b) < widths / 4


def tie_groups(order: Sequence[str], tied: Mapping[tuple[str, str], bool]) -> list[list[str]]:
    """Connected components of the tied pairs (a~b, b~c: one group), two or more members,
    members and groups in `order`."""
    parent = {model: model for model in order}

    def root(model: str) -> str:
        while parent[model] != model:
            parent[model] = parent[parent[model]]
            model = parent[model]
        return model

    for (a, b), is_tied in tied.items():
        if is_tied:
            parent[root(b)] = root(a)
    groups: dict[str, list[str]] = defaultdict(list)
    for model in order:
        groups[root(model)].append(model)
    return [group for group in groups.values() if len(group) > 1]
