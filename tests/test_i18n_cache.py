"""The kept number and date texts of reportgen.i18n are the texts Babel writes.

`_formatted` keeps each number's text per (pattern, locale, value, sign) and `_date_text`
each date's per language, because a site of a thousand models formats the same rates and
counts about a million times; what either gives must be what formatting anew gives, for
0.0 and -0.0 apart, huge and tiny numbers, integers and floats alike, in both languages.
"""

from __future__ import annotations

import math
from datetime import date

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.i18n import (
    BABEL_LOCALE,
    SITE_LANGUAGES,
    Translator,
    _date_text,
    _formatted,
    _uncached,
    _uncached_date,
)

PATTERNS = ("#,##0", "#,##0.0", "#,##0.00", "#,##0.000", "#,##0%", "#,##0.0%", "#,##0.00%")
numbers = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30),
    st.integers(min_value=-(10**15), max_value=10**15),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=-1e15, max_value=1e15),
    st.sampled_from((0.0, -0.0, 0.5, -0.5, 0.0005, -0.0005, 1e-300, -1e-300, 1e300, 1e15 + 0.5)),
)


def _fresh(pattern: str, language: str, value: float) -> str:
    return _uncached(pattern, BABEL_LOCALE[language], value)


def _kept(pattern: str, language: str, value: float) -> str:
    return _formatted(pattern, BABEL_LOCALE[language], value, math.copysign(1.0, value))


@given(value=numbers, pattern=st.sampled_from(PATTERNS), language=st.sampled_from(SITE_LANGUAGES))
def test_a_kept_number_text_is_the_text_formatted_anew(
    value: float, pattern: str, language: str
) -> None:
    try:
        fresh = _fresh(pattern, language, value)
    except ArithmeticError as refused:  # beyond the precision of Babel's Decimal context
        for _ in range(2):
            with pytest.raises(type(refused)):
                _kept(pattern, language, value)
        return
    assert _kept(pattern, language, value) == fresh
    assert _kept(pattern, language, value) == fresh  # the second time, from the cache


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_zero_and_negative_zero_are_kept_apart(language: str) -> None:
    tr = Translator(language)
    for first, second in ((0.0, -0.0), (-0.0, 0.0)):
        for value in (first, second, first, second):
            assert tr.decimal(value, 2) == _fresh("#,##0.00", language, value)
            assert tr.percent(value) == _fresh("#,##0.0%", language, value)
    assert tr.decimal(-0.0, 1).startswith("\u2212")  # as Babel writes it, with a true minus


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_an_integer_and_an_equal_float_are_kept_apart(language: str) -> None:
    tr = Translator(language)
    assert tr.integer(3) == _fresh("#,##0", language, 3)
    assert tr.integer(3.0) == _fresh("#,##0", language, 3.0)  # type: ignore[arg-type]


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_nan_is_written_as_babel_writes_it_kept_or_not(language: str) -> None:
    tr = Translator(language)
    for nan in (math.nan, float("nan"), -math.nan, math.nan):  # distinct objects, then again
        assert tr.percent(nan) == _fresh("#,##0.0%", language, nan)
        assert tr.decimal(nan, 2) == _fresh("#,##0.00", language, nan)


@given(day=st.dates(min_value=date(1900, 1, 1), max_value=date(2200, 12, 31)))
def test_a_kept_date_text_is_the_text_formatted_anew(day: date) -> None:
    for language in SITE_LANGUAGES:
        assert Translator(language).date(day) == _uncached_date(day, language)
        assert _date_text(day, language) == _uncached_date(day, language)
