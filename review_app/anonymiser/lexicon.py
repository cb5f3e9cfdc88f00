"""The maintained list of assistant and company names (data/assistant_names.json).

Kept as data, apart from the code, so that a new model or company is added without touching
the anonymiser; review_app.anonymiser.anonymise says how each list is used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from pathlib import Path

from reportgen.errors import InputError

_LEXICON_FILE = "assistant_names.json"
_LEXICON_KEYS = ("distinctive", "given_names", "everyday", "suffixes")
_OPTIONAL_KEYS = ("companies",)  # a list written before they had their own key lacks them


@dataclass(frozen=True)
class NameLexicon:
    """The maintained list of assistant and company names (data/assistant_names.json)."""

    distinctive: tuple[str, ...]  # replaced anywhere
    given_names: tuple[str, ...]  # replaced anywhere except as a person's name
    everyday: tuple[str, ...]  # replaced only in self-identifying contexts or with a version
    suffixes: tuple[str, ...]  # version and size words taken with a name
    # Makers also named in ordinary use ("o celular da Apple"): replaced like the everyday
    # words, and anywhere in an answer that names itself (review_app.anonymiser.anonymise).
    companies: tuple[str, ...] = ()


def load_lexicon(path: Path | None = None) -> NameLexicon:
    """The lexicon in `path`, or the one shipped with the review app."""
    if path is None:
        return _shipped_lexicon()
    try:
        return _parse_lexicon(str(path), json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError) as error:
        raise InputError(f"{path}: unreadable name list ({error})") from error


@cache
def _shipped_lexicon() -> NameLexicon:
    text = files("review_app").joinpath("data", _LEXICON_FILE).read_text(encoding="utf-8")
    return _parse_lexicon(_LEXICON_FILE, json.loads(text))


def _parse_lexicon(source: str, data: object) -> NameLexicon:
    if not isinstance(data, dict):
        raise InputError(f"{source}: expected a JSON object with {', '.join(_LEXICON_KEYS)}")
    lists: dict[str, tuple[str, ...]] = {}
    for key in _LEXICON_KEYS + _OPTIONAL_KEYS:
        value = data.get(key, [] if key in _OPTIONAL_KEYS else None)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise InputError(f"{source}: key {key!r}: expected a list of non-empty strings")
        lists[key] = tuple(value)
    return NameLexicon(**lists)
