"""Exact ratios that are undefined on an empty base: a share and a mean, written once."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction


def rate(count: int, total: int) -> Fraction | None:
    """count / total exactly; None (undefined) when total is 0."""
    return Fraction(count, total) if total else None


def mean(values: Sequence[Fraction]) -> Fraction | None:
    """The exact mean of `values`; None (undefined) when there are none."""
    return sum(values, Fraction(0)) / len(values) if values else None
