"""The report's words and numbers in one language.

Labels come from this kind's catalogues (`locales/<language>.json`, flat keys; a missing
key is an error, never a fallback), through the shared `reportgen.render.text.KindText`,
which also writes tables with their CSVs. Numbers are the exact values rounded half-up to 2
decimals (rates as percentages with 1), then written in the language's format; each
score comes with its 95% interval and n. Dates use the core `Translator`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.i18n import Catalogue
from reportgen.kinds.multidomain.results import Exact, SliceScore
from reportgen.render.table import Estimate, ValueText
from reportgen.render.text import DASH, KindText, kind_catalogue

PACKAGE = __name__.rpartition(".")[0]


def catalogue(language: str) -> Catalogue:
    return kind_catalogue(PACKAGE, language)


@dataclass(frozen=True)
class Text(KindText):
    """Catalogue text and number formats of one language."""

    PACKAGE = PACKAGE

    def headers(self, keys: Sequence[str], prefix: str = "column") -> list[str]:
        """The column headers `keys` of a table: the messages `<prefix>.<key>`."""
        return [self.t(f"{prefix}.{k}") for k in keys]

    def exact(self, value: Exact | None, places: int = 2) -> str:
        if value is None:
            return DASH
        return ValueText(_rounded(self.language, value.exact, places), value)

    def rate(self, value: Exact | None) -> str:
        """A rate in [0, 1] as a percentage with one decimal (its value: the rate)."""
        if value is None:
            return DASH
        return ValueText(self.exact(Exact.of(value.fraction * 100), 1) + "%", value)

    def score(self, value: SliceScore | None) -> str:
        """score [lo, hi] (or a dash for an undefined slice); its value the estimate."""
        if value is None or value.score is None:
            return DASH
        shown = self.exact(value.score)
        if value.lo is None or value.hi is None:
            return shown
        interval = self.interval(self.exact(value.lo), self.exact(value.hi))
        return ValueText(f"{shown} {interval}", Estimate(value.score, value.lo, value.hi))

    def rating(self, value: float | None, lo: float | None, hi: float | None) -> str:
        """A rating [lo, hi], or "not estimable" (Bradley-Terry); its value the estimate."""
        if value is None:
            return ValueText(self.t("number.not_estimable"), None)
        if lo is None or hi is None:
            return self.real(value)
        interval = self.interval(self.real(lo), self.real(hi))
        return ValueText(f"{self.real(value)} {interval}", Estimate(value, lo, hi))


@functools.lru_cache(maxsize=8192)
def _rounded(language: str, exact: str, places: int) -> str:
    """The text of an exact value (`Exact.exact`) rounded to `places` in `language`: a site
    writes a few thousand distinct values tens of thousands of times (the items' points)."""
    return str(Text(language).decimal(Fraction(exact), places))
