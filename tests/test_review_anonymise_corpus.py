"""The anonymiser measured on two corpora (tests/data/anonymiser/): self-identifying
sentences, whose listed names must all disappear, and ordinary sentences using the same
words innocently, which must come out unchanged. Run with -s to see the figures."""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from datetime import date
from pathlib import Path

import pytest

from reportgen.model import Model
from review_app.anonymiser.anonymise import Scrubber, round_names

_ROOT = Path(__file__).resolve().parent.parent
_CORPUS = _ROOT / "tests" / "data" / "anonymiser"
_ROUNDS = ("estigmas-2026-06", "idje-avalia-2026-07")


def _demo_models() -> list[Model]:
    models: list[Model] = []
    for round_id in _ROUNDS:
        with (_ROOT / "rounds" / round_id / "models.csv").open(encoding="utf-8") as handle:
            for row in csv.DictReader(handle):
                evaluated_on = date.fromisoformat(row["evaluated_on"])
                models.append(
                    Model(
                        row["model_id"],
                        row["display_name"],
                        row["provider"],
                        row["api_identifier"],
                        row["snapshot"],
                        evaluated_on,
                    )
                )
    return models


def _read(name: str) -> list[dict[str, object]]:
    lines = (_CORPUS / name).read_text(encoding="utf-8").splitlines()
    return [json.loads(line) for line in lines if line.strip()]


def _fold(text: str) -> str:
    """Written apart from review_app.anonymiser.textfold on purpose: the check must not share the
    anonymiser's blind spots. Invisible characters out, NFKC, case and accents folded."""
    visible = "".join(c for c in text if unicodedata.category(c) != "Cf")
    decomposed = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", visible).casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _still_there(name: str, text: str) -> bool:
    """Whether `name` can still be read in `text`, whatever the case, accents or separators."""
    parts = re.findall(r"\d+|[^\W\d_]+", _fold(name))
    pattern = r"(?<![^\W_])" + r"[\W_]{0,3}".join(map(re.escape, parts)) + r"(?![^\W_])"
    return re.search(pattern, _fold(text)) is not None


def _names(entry: dict[str, object]) -> list[str]:
    names = entry["names"]
    assert isinstance(names, list), entry
    return [str(name) for name in names]


SCRUB = Scrubber(round_names(_demo_models()))
SELF_IDENTIFYING = _read("self_identifying.jsonl")
ORDINARY = _read("ordinary.jsonl")


def test_corpora_are_large_enough_and_well_formed() -> None:
    assert len(SELF_IDENTIFYING) >= 150
    assert len(ORDINARY) >= 150
    for entry in SELF_IDENTIFYING:
        text, names = entry["text"], entry["names"]
        assert isinstance(text, str), entry
        assert isinstance(names, list), entry
        assert names, entry
        # Each listed name is really in its sentence: otherwise its removal proves nothing.
        assert all(isinstance(n, str) and _still_there(n, text) for n in names), entry


def test_checker_sees_names_through_disguises() -> None:
    assert _still_there("GPT-5.4 mini", "eu sou o gpt5.4mini")
    assert _still_there("Claude", "Sou o Ｃｌａ\u200bｕｄｅ")
    assert not _still_there("Meta", "a metade do caminho")


def test_self_identifying_names_are_removed() -> None:
    leaks = []
    for entry in SELF_IDENTIFYING:
        text, names = str(entry["text"]), _names(entry)
        scrubbed = SCRUB(text)
        if any(_still_there(name, scrubbed) for name in names):
            leaks.append((text, scrubbed))
    removal = 1 - len(leaks) / len(SELF_IDENTIFYING)
    count = len(SELF_IDENTIFYING)
    print(f"\nanonymiser removal: {removal:.1%} of {count} sentences; leaks: {leaks}")
    assert removal >= 0.99, leaks


def test_ordinary_sentences_are_left_unchanged() -> None:
    changed = []
    for entry in ORDINARY:
        text = str(entry["text"])
        if (scrubbed := SCRUB(text)) != text:
            changed.append((text, scrubbed))
    kept = 1 - len(changed) / len(ORDINARY)
    print(f"\nanonymiser unchanged ordinary: {kept:.1%} of {len(ORDINARY)} sentences; {changed}")
    assert kept >= 0.98, changed


@pytest.mark.parametrize("entry", SELF_IDENTIFYING[:3])
def test_only_names_change(entry: dict[str, object]) -> None:
    # Removal keeps the rest of the sentence: what is outside the markers is the original.
    text = str(entry["text"])
    pieces = SCRUB(text).split("[SISTEMA]")
    position = 0
    for piece in pieces:
        found = text.find(piece, position)
        assert found >= 0, (piece, text)
        position = found + len(piece)
