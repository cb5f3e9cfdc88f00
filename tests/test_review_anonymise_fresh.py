"""The fresh anonymiser corpus (issue 23, point 4: tests/data/anonymiser/fresh/) is well
formed the way the held-out corpus is: same fields, languages and classes, every listed
name or watched word really in its answer, and no sentence taken from the earlier corpora.
The anonymiser's own figures on it are bench/bench_anonymiser_corpus.py's, not asserted."""

from __future__ import annotations

import re
from collections import Counter

import pytest

from tests.support.anonymiser_corpus import Corpus, Entry, read_corpus, still_there
from tests.support.anonymiser_corpus_classes import (
    HELDOUT,
    INNOCENT_CLASSES,
    LANGUAGES,
    SELF_IDENTIFYING_CLASSES,
)

FRESH = HELDOUT.parent / "fresh"
CJK_ONLY = {"latin_glued_cjk", "cjk_ordinary"}


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return read_corpus(FRESH)


def _check_part(entries: tuple[Entry, ...], prefix: str, classes: set[str]) -> None:
    assert len(entries) >= 65
    ids = [entry.entry_id for entry in entries]
    assert len(set(ids)) == len(ids)
    assert all(re.fullmatch(prefix + r"-\d{3}", entry_id) for entry_id in ids), ids
    per_language = Counter(entry.language for entry in entries)
    assert set(per_language) == LANGUAGES
    assert min(per_language.values()) >= 15, per_language
    # Every class of the held-out corpus, and no other, so the two read side by side.
    assert {entry.difficulty for entry in entries} == classes


def test_self_identifying_answers_are_well_formed(corpus: Corpus) -> None:
    _check_part(corpus.self_identifying, "si", SELF_IDENTIFYING_CLASSES)
    for entry in corpus.self_identifying:
        assert entry.names, entry.entry_id
        assert not entry.watched, entry.entry_id
        missing = [name for name in entry.names if not still_there(name, entry.text)]
        assert not missing, (entry.entry_id, missing)


def test_innocent_answers_use_watched_words(corpus: Corpus) -> None:
    _check_part(corpus.innocent, "in", INNOCENT_CLASSES)
    for entry in corpus.innocent:
        assert entry.watched, entry.entry_id
        assert not entry.names, entry.entry_id
        missing = [word for word in entry.watched if not still_there(word, entry.text)]
        assert not missing, (entry.entry_id, missing)


def test_every_class_has_answers_in_several_languages(corpus: Corpus) -> None:
    for entries in (corpus.self_identifying, corpus.innocent):
        languages: dict[str, set[str]] = {}
        for entry in entries:
            languages.setdefault(entry.difficulty, set()).add(entry.language)
        for difficulty, seen in languages.items():
            assert seen == {"zh"} if difficulty in CJK_ONLY else len(seen) >= 3, difficulty


def _sentences(corpus: Corpus) -> set[str]:
    texts = [entry.text for entry in corpus.self_identifying + corpus.innocent]
    pieces = (piece.strip() for text in texts for piece in re.split(r"[.!?。！？\n]", text))
    return {piece.casefold() for piece in pieces if len(piece) >= 25}


def test_no_sentence_comes_from_the_earlier_corpora(corpus: Corpus) -> None:
    # A fresh measurement means text nobody tuned on: no sentence of the held-out or the
    # development corpus may reappear here.
    fresh = _sentences(corpus)
    for earlier in (HELDOUT, HELDOUT.parent):
        shared = fresh & _sentences(read_corpus(earlier))
        assert not shared, (earlier, sorted(shared)[:3])
