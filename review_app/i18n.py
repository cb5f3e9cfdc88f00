"""The review app's message catalogue: pt-BR (default) and English.

The messages live in `review_app/locales/<language>.json`. Both catalogues must have the
same keys (a test checks it); a missing key is a bug, so `translate` raises instead of
falling back to another language. The loader and the plural rule are the site's
(`reportgen.i18n.Catalogue`).
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.i18n import Catalogue, MissingMessageError, read_catalogue
from reportgen.model import TEXT_LANGUAGES

LANGUAGES: tuple[str, ...] = TEXT_LANGUAGES
DEFAULT_LANGUAGE = "pt-BR"
LANGUAGE_NAMES: Mapping[str, str] = {"pt-BR": "Português (Brasil)", "en": "English"}


def _load(language: str) -> Catalogue:
    """One language's messages, from `review_app/locales/<language>.json`."""
    path = f"locales/{language}.json"
    return read_catalogue("review_app", path, language, f"review_app {path}")


PT_BR: Catalogue = _load("pt-BR")
EN: Catalogue = _load("en")
CATALOGUES: Mapping[str, Catalogue] = {"pt-BR": PT_BR, "en": EN}


def translate(language: str, key: str, **params: object) -> str:
    """The message `key` in `language` (pt-BR when the language is unknown).

    A message that depends on a number has plural forms, `key.one` and `key.other` (the
    site's syntax, `reportgen.i18n.Catalogue`); the `count` parameter picks one by the
    language's CLDR rule (Babel), `other` standing in for forms the catalogue does not
    spell out ("many"). A missing key is a KeyError."""
    catalogue = CATALOGUES.get(language, CATALOGUES[DEFAULT_LANGUAGE])
    if key not in catalogue and catalogue.has_plural(key):
        count = params["count"]
        if not isinstance(count, int):
            raise TypeError(f"message {key!r} needs an integer count, got {count!r}")
        key = catalogue.plural_key(key, count)
    try:
        return catalogue.message(key, **params)
    except MissingMessageError as missing:
        raise KeyError(key) from missing
