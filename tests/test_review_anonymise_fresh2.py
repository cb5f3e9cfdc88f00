"""The third evaluation corpus of the anonymiser (issue 23, point 4:
tests/data/anonymiser/fresh2/), written after the second redesign round by someone who had
not seen the rules, is well formed: unique ids, known classes and languages, every listed
name or watched word in its answer as written, and enough answers in every language. The
anonymiser itself is not run here; its figures on the corpus are the bench's."""

from __future__ import annotations

import re
import unicodedata
from collections import Counter

import pytest

from tests.support.anonymiser_corpus import Corpus, Entry, read_corpus, still_there
from tests.support.anonymiser_corpus_classes import (
    HELDOUT,
    INNOCENT_CLASSES,
    LANGUAGES,
    SELF_IDENTIFYING_CLASSES,
)

FRESH2 = HELDOUT.parent / "fresh2"
MIN_ANSWERS = 70
MIN_PER_LANGUAGE = 17


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return read_corpus(FRESH2)


def _check_part(entries: tuple[Entry, ...], prefix: str, classes: set[str]) -> None:
    assert len(entries) >= MIN_ANSWERS
    ids = [entry.entry_id for entry in entries]
    assert len(set(ids)) == len(ids), "duplicate ids"
    assert all(re.fullmatch(prefix + r"-\d{3}", entry_id) for entry_id in ids), ids
    per_language = Counter(entry.language for entry in entries)
    assert set(per_language) == LANGUAGES, per_language
    assert min(per_language.values()) >= MIN_PER_LANGUAGE, per_language
    # Every class, and only the known ones, so the figures read beside the other corpora's.
    assert {entry.difficulty for entry in entries} == classes
    for entry in entries:
        assert entry.text.strip(), entry.entry_id


def _present_as_written(string: str, text: str) -> bool:
    return unicodedata.normalize("NFC", string) in unicodedata.normalize("NFC", text)


def test_self_identifying_answers_are_well_formed(corpus: Corpus) -> None:
    _check_part(corpus.self_identifying, "si", SELF_IDENTIFYING_CLASSES)
    for entry in corpus.self_identifying:
        assert entry.names, entry.entry_id
        assert not entry.watched, entry.entry_id
        for name in entry.names:
            assert _present_as_written(name, entry.text), (entry.entry_id, name)
            # The bench's checker must see the name before scrubbing, or a leak would pass.
            assert still_there(name, entry.text), (entry.entry_id, name)


def test_innocent_answers_are_well_formed(corpus: Corpus) -> None:
    _check_part(corpus.innocent, "in", INNOCENT_CLASSES)
    for entry in corpus.innocent:
        assert entry.watched, entry.entry_id
        assert not entry.names, entry.entry_id
        for word in entry.watched:
            assert _present_as_written(word, entry.text), (entry.entry_id, word)


def _sentences(corpus: Corpus) -> set[str]:
    texts = [entry.text for entry in corpus.self_identifying + corpus.innocent]
    pieces = (piece.strip() for text in texts for piece in re.split(r"[.!?。！？\n]", text))
    return {piece.casefold() for piece in pieces if len(piece) >= 25}


def test_no_sentence_comes_from_the_other_corpora(corpus: Corpus) -> None:
    # An evaluation corpus is only worth its figures if nobody tuned on its text: no
    # sentence of the development, held-out or first fresh corpus may reappear here.
    mine = _sentences(corpus)
    for other in ("dev2", "heldout", "fresh"):
        # Only the count is reported: the other corpora's text is not to be shown.
        shared_count = len(mine & _sentences(read_corpus(HELDOUT.parent / other)))
        assert shared_count == 0, other
