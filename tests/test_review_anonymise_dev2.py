"""The format of the second development corpus (tests/data/anonymiser/dev2/): unique ids,
known classes and languages, every listed name or watched word present in its answer as
written, and at least 300 answers on each side. The anonymiser itself is not run here."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest

from tests.support.anonymiser_corpus_classes import (
    INNOCENT_CLASSES,
    LANGUAGES,
    SELF_IDENTIFYING_CLASSES,
)

_DEV2 = Path(__file__).resolve().parent / "data" / "anonymiser" / "dev2"
# file name, id prefix, key of the strings to find in the text, allowed classes
_CORPORA = [
    ("self_identifying.jsonl", "si-", "names", SELF_IDENTIFYING_CLASSES),
    ("innocent.jsonl", "in-", "watched", INNOCENT_CLASSES),
]


def _read(name: str) -> list[dict[str, object]]:
    lines = (_DEV2 / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


@pytest.mark.parametrize(("name", "prefix", "key", "classes"), _CORPORA)
def test_entries_are_well_formed(name: str, prefix: str, key: str, classes: set[str]) -> None:
    entries = _read(name)
    ids = [entry["id"] for entry in entries]
    assert len(ids) == len(set(ids)), f"{name}: duplicate ids"
    for entry in entries:
        assert set(entry) == {"id", "language", "class", "text", key}, entry
        assert isinstance(entry["id"], str), entry
        assert entry["id"].startswith(prefix), entry
        assert entry["language"] in LANGUAGES, entry["id"]
        assert entry["class"] in classes, entry["id"]
        text, strings = entry["text"], entry[key]
        assert isinstance(text, str), entry["id"]
        assert text.strip(), entry["id"]
        assert isinstance(strings, list), entry["id"]
        assert strings, entry["id"]
        normalised = unicodedata.normalize("NFC", text)
        for string in strings:
            assert isinstance(string, str), entry["id"]
            assert unicodedata.normalize("NFC", string) in normalised, (entry["id"], string)


@pytest.mark.parametrize(("name", "prefix", "key", "classes"), _CORPORA)
def test_corpus_is_large_and_covers_every_class_and_language(
    name: str, prefix: str, key: str, classes: set[str]
) -> None:
    entries = _read(name)
    assert len(entries) >= 300, name
    assert {entry["class"] for entry in entries} == classes, name
    assert {entry["language"] for entry in entries} == LANGUAGES, name
