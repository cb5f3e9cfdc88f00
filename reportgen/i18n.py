"""Message catalogues and locale-aware number formatting for the site.

Every user-facing string of the site lives in one JSON catalogue per language
(`reportgen/locales/<language>.json`, flat keys). A missing key is a build error,
never a silent fallback, so that a page cannot come out half translated.
Numbers go through Babel so that tables, text and chart labels agree with the
locale ("1,3%" / "7.626" in pt-BR, "1.3%" / "7,626" in English).
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping
from datetime import date
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cache, lru_cache
from importlib import resources
from types import MappingProxyType

from babel import Locale
from babel.dates import format_date
from babel.numbers import NumberPattern, format_decimal, parse_pattern

from reportgen.errors import ReportgenError
from reportgen.model import TEXT_LANGUAGES

SITE_LANGUAGES: tuple[str, ...] = TEXT_LANGUAGES
DEFAULT_LANGUAGE = "pt-BR"
# What stands for a value that does not exist (an undefined rate, an empty interval), on the
# site, in the CLI and in the review app alike: an en dash.
MISSING = "\u2013"
# Babel locale identifiers and d3-format locales (used by Vega) per site language.
BABEL_LOCALE: Mapping[str, str] = {"pt-BR": "pt_BR", "en": "en"}
D3_NUMBER_LOCALE: Mapping[str, Mapping[str, object]] = {
    "pt-BR": {"decimal": ",", "thousands": ".", "grouping": [3], "currency": ["R$", ""]},
    "en": {"decimal": ".", "thousands": ",", "grouping": [3], "currency": ["$", ""]},
}


@cache
def _pattern(pattern: str) -> NumberPattern:
    """Parsed once: the site formats tens of thousands of numbers per build."""
    return parse_pattern(pattern)


@cache
def _locale(identifier: str) -> Locale:
    return Locale.parse(identifier)


def _uncached(pattern: str, identifier: str, value: float) -> str:
    """`value` formatted by `pattern` in a locale, with a true minus sign (Babel every time).

    The Locale object, not its name, goes to Babel, which otherwise parses the name again on
    every call."""
    return _minus(str(_pattern(pattern).apply(value, _locale(identifier))))


@lru_cache(maxsize=1 << 17, typed=True)
def _formatted(pattern: str, identifier: str, value: float, sign: float) -> str:
    """`_uncached`, kept per value; `sign` keeps 0.0 and -0.0 apart in the cache.

    Cached, minus sign included, because Babel's formatting is slow (a Decimal quantisation
    per call) and a site of a thousand models formats about a million numbers per language,
    nearly all of them repeats (0 %, 100 %, small counts, the same rate on every page that
    shows it). A NaN is only found again as the same object, and is formatted anew otherwise.
    """
    return _uncached(pattern, identifier, value)


def _format(pattern: str, identifier: str, value: float) -> str:
    return _formatted(pattern, identifier, value, math.copysign(1.0, value))


def _minus(text: str) -> str:
    """A formatted number with the typographic minus sign (U+2212), not Babel's hyphen."""
    return "\u2212" + text[1:] if text.startswith("-") else text


def half_up(value: Decimal | Fraction, places: int) -> Decimal:
    """`value` rounded half-up to `places` decimals, computed on the exact value (the
    rounding the reports' specifications ask for; Babel alone rounds half-even)."""
    if isinstance(value, Fraction):
        value = Decimal(value.numerator) / Decimal(value.denominator)
    return value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)


def exact_text(
    value: Decimal | Fraction | float | int, places: int, language: str, *, plain: bool = False
) -> str:
    """The one writer of exact numbers (site, CLI, review app): `value` rounded half-up to
    `places` decimals on its exact value (a float as its shortest repr), in `language`'s
    format ("1.234,6" / "1,234.6") with a true minus sign; `plain` (the CLI's text, an
    error message) without the thousands separator and with an ASCII minus ("-1234.6").
    A value that rounds to zero is "0,0", never "−0,0"."""
    exact = Decimal(repr(value)) if isinstance(value, float) else value
    rounded = half_up(Decimal(exact) if isinstance(exact, int) else exact, places)
    if rounded == 0:
        rounded = abs(rounded)
    whole = "0" if plain else "#,##0"
    pattern = whole + "." + "0" * places if places else whole
    locale = _locale(BABEL_LOCALE[language])
    text = str(format_decimal(rounded, format=pattern, locale=locale))
    return text if plain else _minus(text)


_SUPERSCRIPT = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")
SMALLEST_PLAIN = Decimal("0.0001")  # below it, a number is written as a power of ten


def _uncached_date(value: date, language: str) -> str:
    """`value` as a long date in `language` ("1º de julho de 2026" / "July 1, 2026")."""
    text = str(format_date(value, format="long", locale=_locale(BABEL_LOCALE[language])))
    if language == "pt-BR" and value.day == 1 and text.startswith("1 "):
        # Brazilian usage writes the first day of a month as an ordinal: "1º de julho".
        return "1º" + text[1:]
    return text


# Kept per date: each model page writes its evaluation date, and Babel takes about a
# millisecond per date (it parses the locale's name on every call given a name).
_date_text = lru_cache(maxsize=1 << 12)(_uncached_date)


def _plural_form(identifier: str, count: int) -> str:
    return str(_locale(identifier).plural_form(count))


def plural_form(language: str, count: int) -> str:
    """The CLDR plural category of `count` in a site language ("one", "other", ...)."""
    return _plural_form(BABEL_LOCALE[language], count)


class MissingMessageError(ReportgenError):
    """A template or context asked for a catalogue key that does not exist."""


class Catalogue(Mapping[str, str]):
    """One language's messages from one flat JSON catalogue: the one loader of the site's,
    each kind's and the review app's catalogues. A missing key is an error naming the file,
    never a fallback; a message that depends on a count has its plural forms under
    `key.one`, `key.other` (and any other CLDR form it spells out), the one plural syntax."""

    def __init__(self, source: str, language: str, messages: Mapping[str, str]) -> None:
        self.source = source  # where the messages come from, for error messages
        self.language = language
        self._messages = MappingProxyType(dict(messages))

    @classmethod
    def load(cls, package: str, path: str, language: str, source: str) -> Catalogue:
        """The catalogue of the JSON file `path` inside `package`, checked: an object whose
        keys and values are strings; `source` names it in errors."""
        text = resources.files(package).joinpath(path).read_text("utf-8")
        loaded = json.loads(text)
        if not isinstance(loaded, dict) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in loaded.items()
        ):
            raise MissingMessageError(f"{package}/{path}: expected an object of strings")
        return cls(source, language, loaded)

    def __getitem__(self, key: str) -> str:
        return self._messages[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._messages)

    def __len__(self) -> int:
        return len(self._messages)

    def message(self, key: str, **params: object) -> str:
        """Message `key` with its parameters filled in."""
        try:
            message = self._messages[key]
        except KeyError:
            raise MissingMessageError(f"{self.source}: missing message key {key!r}") from None
        return message.format(**params) if params else message

    def plural_key(self, key: str, count: int) -> str:
        """The key of message `key`'s plural form for `count`: `key.one`, `key.other`...
        by the language's CLDR rule (Babel); `other` stands in for forms not spelled out."""
        form = plural_form(self.language, count)
        return f"{key}.{form}" if f"{key}.{form}" in self._messages else f"{key}.other"

    def has_plural(self, key: str) -> bool:
        """Whether message `key` comes in plural forms (`key.other` exists)."""
        return f"{key}.other" in self._messages


@cache
def read_catalogue(package: str, path: str, language: str, source: str = "") -> Catalogue:
    """The catalogue of the JSON file `path` inside `package`, read once per process;
    `source` (default `path`) names it in errors."""
    return Catalogue.load(package, path, language, source or path)


@cache
def load_catalogue(language: str) -> Catalogue:
    """The site's catalogue of one language."""
    if language not in SITE_LANGUAGES:
        raise MissingMessageError(f"no catalogue for language {language!r}")
    return read_catalogue(
        "reportgen.locales", f"{language}.json", language, f"locales/{language}.json"
    )


class Translator:
    """Messages and number formats of one site language."""

    def __init__(self, language: str) -> None:
        self.language = language
        self.messages = load_catalogue(language)
        self.locale = BABEL_LOCALE[language]

    def __call__(self, key: str, **params: object) -> str:
        return self.messages.message(key, **params)

    def plural(self, key: str, count: int) -> str:
        """The key of message `key`'s plural form for `count` (`Catalogue.plural_key`)."""
        return self.messages.plural_key(key, count)

    def pick(self, by_language: Mapping[str, str]) -> str:
        """The value for this language of a {"pt-BR": ..., "en": ...} mapping."""
        return by_language.get(self.language) or by_language.get(DEFAULT_LANGUAGE, "")

    def integer(self, value: int) -> str:
        return _format("#,##0", self.locale, value)

    def decimal(self, value: float, digits: int = 2) -> str:
        pattern = "#,##0." + "0" * digits if digits else "#,##0"
        return _format(pattern, self.locale, value)

    def percent(self, rate: float | None, digits: int = 1) -> str:
        """A rate in [0, 1] as a percentage; an absent rate as an en dash."""
        if rate is None:
            return MISSING
        pattern = "#,##0." + "0" * digits + "%" if digits else "#,##0%"
        return _format(pattern, self.locale, rate)

    def points(self, difference: float | None, digits: int = 1) -> str:
        """A difference of two rates in percentage points, always signed."""
        if difference is None:
            return MISSING
        text = self.decimal(abs(difference) * 100, digits)
        sign = "−" if difference < 0 else "+"
        return f"{sign}{text} {self('unit.points')}"

    def pvalue(self, p: float | None) -> str:
        if p is None:
            return MISSING
        if p < 0.001:
            return "< " + self.decimal(0.001, 3)
        return self.decimal(p, 3)

    def rounded(self, value: Decimal | Fraction, places: int) -> str:
        """An exact value rounded half-up to `places` decimals and written in the locale
        ("1.234,6" / "1,234.6"); a value that rounds to zero is "0,0", never "−0,0"."""
        return exact_text(value, places, self.language)

    def as_declared(
        self, value: Decimal | Fraction | float | str, least: int = 0, most: int = 4
    ) -> str:
        """A declared number (a tolerance, a temperature, α) with the decimals it was
        written with ("0.01" is "0,01" in pt-BR, never "0,0" nor "0,010"), at least
        `least`; a fraction with the fewest decimals that write it, rounded to `most`
        when none do (1/3 is "0,3333")."""
        if isinstance(value, Fraction):
            exactly = (n for n in range(least, most + 1) if (value * 10**n).denominator == 1)
            return self.rounded(value, next(exactly, most))
        exact = Decimal(repr(value) if isinstance(value, float) else str(value))
        exponent = exact.normalize().as_tuple().exponent
        places = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        return self.rounded(exact, max(places, least))

    def significant(self, value: float, digits: int) -> str:
        """`value` with `digits` significant digits, trailing zeros kept ("0,004180");
        below 10⁻⁴ as a power of ten ("1,713 × 10⁻⁵"), never in e-notation."""
        if value == 0:
            return "0"
        exact = Decimal(repr(value))
        if abs(exact) < SMALLEST_PLAIN:
            exponent = exact.adjusted()
            mantissa = self.rounded(exact.scaleb(-exponent), digits - 1)
            if mantissa.lstrip("\u2212").startswith("10"):  # 9.9996e-5 rounds up to 10
                exponent += 1
                mantissa = self.rounded(exact.scaleb(-exponent), digits - 1)
            # No-break spaces: "1,713 × 10⁻⁵" never splits over two lines of a table cell.
            return f"{mantissa}\u00a0×\u00a010{str(exponent).translate(_SUPERSCRIPT)}"
        places = max(digits - 1 - exact.adjusted(), 0)
        return self.rounded(exact, places)

    def date(self, value: date) -> str:
        return _date_text(value, self.language)


def catalogue_keys() -> Mapping[str, frozenset[str]]:
    """The key set of every catalogue (tests compare them)."""
    return {language: frozenset(load_catalogue(language)) for language in SITE_LANGUAGES}
