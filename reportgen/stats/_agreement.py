"""Krippendorff's α, exact, for the interval and nominal metrics.

Written from its definition because the `krippendorff` package is GPL-licensed:
α = 1 − D_o / D_e, where over the units with two or more values (the pairable ones),
n values in all, D_o = Σ_u δ(u) / (m_u − 1) / n and D_e = δ(all values) / (n·(n − 1)),
δ(V) being the sum of the metric's differences over the ordered pairs of V. The sums are
expanded so that no unit costs more than one pass:

- interval, δ = (a − b)²: Σ_{i≠j} (v_i − v_j)² = 2·(m·Σv² − (Σv)²);
- nominal, δ = [a ≠ b]: Σ_{i≠j} [v_i ≠ v_j] = m² − Σ_c m_c² (m_c the count of value c).

Exact rationals throughout; None when no value is pairable or D_e = 0 (every value the
same), never a made-up number.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Literal

Metric = Literal["interval", "nominal"]


def _number(value: Hashable) -> Fraction:
    if isinstance(value, int | float | Fraction | str):
        return Fraction(value)
    raise TypeError(f"an interval value must be a number, got {value!r}")


def _interval_differences(values: Sequence[Hashable]) -> Fraction:
    numbers = [_number(v) for v in values]
    total = sum(numbers, Fraction(0))
    squares = sum((v * v for v in numbers), Fraction(0))
    return 2 * (len(numbers) * squares - total * total)


def _nominal_differences(values: Sequence[Hashable]) -> Fraction:
    counts = Counter(values)
    return Fraction(len(values) ** 2 - sum(c * c for c in counts.values()))


_DIFFERENCES: dict[Metric, Callable[[Sequence[Hashable]], Fraction]] = {
    "interval": _interval_differences,
    "nominal": _nominal_differences,
}


def krippendorff_alpha(
    units: Sequence[Sequence[Hashable]], metric: Metric = "interval"
) -> Fraction | None:
    """α of `units` (per unit, the values its coders gave; a missing value is absent):
    numbers (int, Fraction, decimal text) for "interval", any hashable for "nominal"."""
    differences = _DIFFERENCES[metric]
    pairable = [list(unit) for unit in units if len(unit) >= 2]
    values = [v for unit in pairable for v in unit]
    n = len(values)
    if n < 2:
        return None
    observed = sum((differences(unit) / (len(unit) - 1) for unit in pairable), Fraction(0)) / n
    expected = differences(values) / (n * (n - 1))
    if expected == 0:
        return None
    return 1 - observed / expected
