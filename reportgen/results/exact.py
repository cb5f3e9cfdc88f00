"""Exact rationals in a results object: the one model the kinds' results share (loaded
apart from `reportgen.results`, like `schema`: it needs pydantic).

A value is kept as the rational's text ("n/d" or "n") beside its nearest float, so that a
page rounds the exact value (half-up, `reportgen.i18n.half_up`) and a download can give it
in full. A kind subclasses `Exact` to set how many decimals its pages show by default.
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar, Self

from pydantic import BaseModel, ConfigDict

from reportgen.i18n import half_up

# The config of every results model: frozen, no unknown field, no coercion.
EXACT_CONFIG = ConfigDict(frozen=True, extra="forbid", strict=True)


class ResultsModel(BaseModel):
    """The base of every model of a results object: `EXACT_CONFIG`."""

    model_config = EXACT_CONFIG


class Exact(ResultsModel):
    """An exact rational: `exact` is "n/d" or "n"; `value` the nearest float (display)."""

    DEFAULT_PLACES: ClassVar[int] = 2

    exact: str
    value: float

    @classmethod
    def of(cls, value: Fraction) -> Self:
        return cls(exact=str(value), value=float(value))

    @classmethod
    def optional(cls, value: Fraction | None) -> Self | None:
        """`of(value)`; None (an undefined value) for None."""
        return None if value is None else cls.of(value)

    @property
    def fraction(self) -> Fraction:
        return Fraction(self.exact)

    def display(self, places: int | None = None) -> str:
        """The exact value rounded half-up to `places` decimals (the kind's default)."""
        return str(half_up(self.fraction, self.DEFAULT_PLACES if places is None else places))

    def percent(self, places: int = 1) -> str:
        """A rate (or a yes/no gap, in points) as a percentage, half-up: 1/8 -> "12.5"."""
        return type(self).of(self.fraction * 100).display(places)
