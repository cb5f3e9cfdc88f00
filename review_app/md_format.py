"""Numbers on the multidomain admin pages, formatted as the report formats them: exact
values rounded half-up, the reader's decimal separator (Babel), a true minus sign."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from babel.numbers import format_decimal

from review_app.i18n import BABEL_LOCALES

DASH = "—"


def decimal_text(value: Fraction | float | None, places: int, language: str) -> str:
    """`value` with `places` decimals in `language`'s format; a dash when undefined."""
    if value is None:
        return DASH
    if isinstance(value, Fraction):
        exact = Decimal(value.numerator) / Decimal(value.denominator)
    else:
        exact = Decimal(repr(value))
    rounded = exact.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    pattern = "#,##0." + "0" * places if places else "#,##0"
    text = format_decimal(rounded, format=pattern, locale=BABEL_LOCALES[language])
    return "\u2212" + text[1:] if text.startswith("-") else text


def rate_text(value: Fraction | None, language: str) -> str:
    """A rate in [0, 1] as a percentage with one decimal (the report's `rate`)."""
    return DASH if value is None else decimal_text(value * 100, 1, language) + "%"
