"""Numbers on the multidomain admin pages, formatted as the report formats them: exact
values rounded half-up, the reader's decimal separator (Babel), a true minus sign."""

from __future__ import annotations

from fractions import Fraction

from reportgen.i18n import MISSING, exact_text

DASH = MISSING  # the site's dash for a value that does not exist


def decimal_text(value: Fraction | float | None, places: int, language: str) -> str:
    """`value` with `places` decimals in `language`'s format (`reportgen.i18n.exact_text`);
    a dash when undefined."""
    return DASH if value is None else exact_text(value, places, language)


def rate_text(value: Fraction | None, language: str) -> str:
    """A rate in [0, 1] as a percentage with one decimal (the report's `rate`)."""
    return DASH if value is None else decimal_text(value * 100, 1, language) + "%"
