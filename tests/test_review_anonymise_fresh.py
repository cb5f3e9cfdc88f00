"""The fresh anonymiser corpus (issue 23, point 4: tests/data/anonymiser/fresh/) is well
formed the way the held-out corpus is: same fields, languages and classes, every listed
name or watched word really in its answer, and no sentence taken from the earlier corpora.
The anonymiser's own figures on it are bench/bench_anonymiser_corpus.py's, not asserted."""

from __future__ import annotations

import pytest

from tests.support.anonymiser_corpus import Corpus, read_corpus
from tests.support.anonymiser_corpus_classes import (
    HELDOUT,
    INNOCENT_CLASSES,
    SELF_IDENTIFYING_CLASSES,
)
from tests.support.corpus_checks import (
    check_languages_per_class,
    check_listed,
    check_part,
    sentences,
)

FRESH = HELDOUT.parent / "fresh"
CJK_ONLY = {"latin_glued_cjk", "cjk_ordinary"}


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return read_corpus(FRESH)


_MINIMA = {"at_least": 65, "per_language_at_least": 15}


def test_self_identifying_answers_are_well_formed(corpus: Corpus) -> None:
    # Every class of the held-out corpus, and no other, so the two read side by side.
    check_part(corpus.self_identifying, "si", SELF_IDENTIFYING_CLASSES, **_MINIMA)
    check_listed(corpus.self_identifying, "names")


def test_innocent_answers_use_watched_words(corpus: Corpus) -> None:
    check_part(corpus.innocent, "in", INNOCENT_CLASSES, **_MINIMA)
    check_listed(corpus.innocent, "watched")


def test_every_class_has_answers_in_several_languages(corpus: Corpus) -> None:
    check_languages_per_class(corpus)


def test_no_sentence_comes_from_the_earlier_corpora(corpus: Corpus) -> None:
    # A fresh measurement means text nobody tuned on: no sentence of the held-out or the
    # development corpus may reappear here (only the count is reported).
    fresh = sentences(corpus)
    for earlier in (HELDOUT, HELDOUT.parent):
        shared_count = len(fresh & sentences(read_corpus(earlier)))
        assert shared_count == 0, earlier
