"""The review app's message catalogue: pt-BR (default) and English.

The messages live in `review_app/locales/<language>.json`. Both catalogues must have the
same keys (a test checks it); a missing key is a bug, so `translate` raises instead of
falling back to another language.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

from babel import Locale

from reportgen.i18n import read_catalogue
from reportgen.model import TEXT_LANGUAGES

LANGUAGES: tuple[str, ...] = TEXT_LANGUAGES
DEFAULT_LANGUAGE = "pt-BR"
LANGUAGE_NAMES: Mapping[str, str] = {"pt-BR": "Português (Brasil)", "en": "English"}


def _load(language: str) -> Mapping[str, str]:
    """One language's messages, from `review_app/locales/<language>.json`."""
    return read_catalogue("review_app", f"locales/{language}.json")


PT_BR: Mapping[str, str] = _load("pt-BR")
EN: Mapping[str, str] = _load("en")
CATALOGUES: Mapping[str, Mapping[str, str]] = {"pt-BR": PT_BR, "en": EN}


BABEL_LOCALES: Mapping[str, str] = {"pt-BR": "pt_BR", "en": "en"}


@cache
def _locale(language: str) -> Locale:
    return Locale.parse(BABEL_LOCALES[language])


def _plural_form(language: str, count: int) -> str:
    """CLDR's plural category of `count` in `language`: "one", "many", "other"..."""
    return str(_locale(language).plural_form(count))


def translate(language: str, key: str, **params: object) -> str:
    """The message `key` in `language` (pt-BR when the language is unknown).

    A message that depends on a number has plural forms, `key#one` and `key#other`; the
    `count` parameter picks one by the language's CLDR rule (Babel), `other` standing in
    for forms the catalogue does not spell out ("many")."""
    if language not in CATALOGUES:
        language = DEFAULT_LANGUAGE
    catalogue = CATALOGUES[language]
    if key not in catalogue and f"{key}#other" in catalogue:
        count = params["count"]
        if not isinstance(count, int):
            raise TypeError(f"message {key!r} needs an integer count, got {count!r}")
        form = _plural_form(language, count)
        key = f"{key}#{form}" if f"{key}#{form}" in catalogue else f"{key}#other"
    return catalogue[key].format(**params)
