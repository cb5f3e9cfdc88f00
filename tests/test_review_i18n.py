"""The review app's catalogue: same keys and placeholders in both languages, none missing."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from reportgen.kinds.estigmas.review import REVIEW_TASK
from review_app.guidelines import guidelines_text
from review_app.i18n import CATALOGUES, EN, PT_BR, translate

APP_DIR = Path(__file__).resolve().parents[1] / "review_app"


def _placeholders(message: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(message) if name}


def test_same_keys() -> None:
    assert set(PT_BR) == set(EN)


@pytest.mark.parametrize("key", sorted(PT_BR))
def test_same_placeholders(key: str) -> None:
    assert _placeholders(PT_BR[key]) == _placeholders(EN[key])
    assert PT_BR[key].strip()
    assert EN[key].strip()


def test_every_key_used_in_code_exists() -> None:
    used: set[str] = set()
    for path in APP_DIR.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        used |= set(re.findall(r"\bt\(\"([a-z_]+)\"", source))
        used |= set(re.findall(r"(?:Error|Denied|Expired)\(\s*\"([a-z_]+)\"", source))
        used |= set(re.findall(r"\"(page_[a-z]+)\"", source))
    assert used, "the scan found no keys at all"
    for language, catalogue in CATALOGUES.items():
        # A message with plural forms is found under `key.one` and `key.other`.
        found = set(catalogue) | {k.removesuffix(".other") for k in catalogue}
        assert used <= found, (language, sorted(used - found))


def test_translate_formats_and_rejects_unknown_keys() -> None:
    assert translate("en", "progress", done=2, total=5) == "2 of 5 judged"
    assert translate("xx", "progress", done=2, total=5) == "2 de 5 julgadas"
    with pytest.raises(KeyError):
        translate("en", "no_such_key")


def test_guidelines_in_both_languages() -> None:
    portuguese = guidelines_text("pt-BR")
    english = guidelines_text("en")
    assert "Diretrizes" in portuguese
    assert "guidelines" in english
    assert portuguese != english
    # The options appear in the guidelines, in the words the app shows on its buttons.
    for choice in ("yes", "no", "cant_tell", "refusal"):
        assert REVIEW_TASK.label("pt-BR", choice) in portuguese
        assert REVIEW_TASK.label("en", choice) in english
