"""The report's words and numbers in one language (report spec, first paragraph).

Labels come from this kind's catalogues (`locales/<language>.json`, flat keys; a missing
key is an error, never a fallback). Rates are percentages with one decimal, gaps of yes/no
variables in percentage points with one decimal, means with one decimal, gaps of count and
score variables with two (a tone gap of 0.35 against an acceptable 0.25 must not read
"0.3 against 0.3"), p-values with 4 significant digits (below 10⁻⁴ as a power of ten,
"1,713 × 10⁻⁵", never "1.713e-05"); a preregistered acceptable difference is written
exactly as declared (`threshold`). Every rounding is half-up on the exact value, by the
site's shared formatter (reportgen.i18n), and the exact fraction goes in the cell's
tooltip and in the CSV downloads (`exact_cell`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction

from markupsafe import Markup, escape

from reportgen.i18n import Catalogue, half_up
from reportgen.render.table import Cell, ValueText, escape_markdown
from reportgen.render.text import DASH, KindText, kind_catalogue

P_DIGITS = 4  # significant digits of a p-value
GAP_PLACES = {True: 1, False: 2}  # decimals of a gap: yes/no (in points), count or score
PACKAGE = __name__.rpartition(".")[0]


def catalogue(language: str) -> Catalogue:
    return kind_catalogue(PACKAGE, language)


def shown_gap(value: Fraction, binary: bool) -> Fraction:
    """A gap rounded as `Text.gap` shows it (points to one decimal for a yes/no variable,
    two decimals otherwise), in the gap's own unit (a fraction for yes/no)."""
    scale = 100 if binary else 1
    return Fraction(half_up(value * scale, GAP_PLACES[binary])) / scale


@dataclass(frozen=True)
class Text(KindText):
    """Catalogue text and number formats of one language."""

    PACKAGE = PACKAGE
    PLACES = 1
    REAL_PLACES = 3

    def named(self, name_pt: str, name_en: str) -> str:
        """A battery row's name in the page's language."""
        return name_pt if self.language == "pt-BR" else name_en

    def rate(self, value: Fraction | None) -> str:
        """A rate in [0, 1] as a percentage with one decimal."""
        return DASH if value is None else ValueText(self.decimal(value * 100) + "%", value)

    def mean(self, value: Fraction | None) -> str:
        return DASH if value is None else self.decimal(value)

    def value(self, value: Fraction | None, binary: bool) -> str:
        """A group's value: a rate (binary) or a mean."""
        return self.rate(value) if binary else self.mean(value)

    def gap(self, value: Fraction | None, binary: bool) -> str:
        """A gap: percentage points for a yes/no variable, the variable's unit otherwise."""
        if value is None:
            return DASH
        if binary:
            points = self.decimal(value * 100, GAP_PLACES[binary])
            return ValueText(f"{points} {self.t('unit.pp')}", value)
        return self.decimal(value, GAP_PLACES[binary])

    def change(self, before: Fraction | None, after: Fraction | None, binary: bool) -> str:
        """after − before as `gap` writes the two: the difference of the rounded values,
        so that a reader subtracting the numbers beside it finds the same one."""
        if before is None or after is None:
            return DASH
        return self.gap(shown_gap(after, binary) - shown_gap(before, binary), binary)

    def threshold(self, value: Fraction, binary: bool) -> str:
        """A preregistered acceptable difference, exactly as declared: the fewest decimals
        that write it (at most 4; a fraction like 1/3 is rounded to 4)."""
        if not binary:
            return ValueText(self.tr.as_declared(value), value)
        # Points keep their one decimal, as gaps do.
        points = self.tr.as_declared(value * 100, least=1)
        return ValueText(f"{points} {self.t('unit.pp')}", value)

    def gap_interval(self, lo: float | None, hi: float | None, binary: bool) -> str:
        """The 95% interval of a gap (bootstrap percentiles, floats); empty when none."""
        if lo is None or hi is None:
            return ""
        scale, places = (100, 1) if binary else (1, 2)
        low = self.decimal(Fraction(repr(lo)) * scale, places)
        high = self.decimal(Fraction(repr(hi)) * scale, places)
        return self.interval(low, high)

    def p(self, value: float | None) -> str:
        """A p-value or test statistic with 4 significant digits ("1,713 × 10⁻⁵")."""
        return DASH if value is None else ValueText(self.tr.significant(value, P_DIGITS), value)

    def exact(self, value: Fraction | None, places: int = 3) -> str:
        return DASH if value is None else self.decimal(value, places)

    def flag(self, value: str | None) -> str:
        return self.t(f"flag.{value}" if value else "flag.none")


def exact_cell(shown: str, value: Fraction | None) -> Cell:
    """A table cell showing a rounded number with its exact fraction as the tooltip ("5/6");
    the table's CSV writes the number's value (`ValueText`) in full precision, and a text
    that says more than one number (an interval, a flag, counts) as shown."""
    return replace(Cell.of(shown), title=None if value is None else str(value))


def heading(text: str, anchor: str) -> Markup:
    """A level-3 heading inside a part (the anchor is a fixed slug or an identifier)."""
    return Markup(f"### {escape_markdown(text)} {{ #{escape(anchor)} }}")
