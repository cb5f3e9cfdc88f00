"""The well-formedness checks every anonymiser evaluation corpus passes (held-out, fresh,
fresh2): written once here, with each corpus's own minimum counts."""

from __future__ import annotations

import re
from collections import Counter
from typing import Literal

from tests.support.anonymiser_corpus import Corpus, Entry, still_there
from tests.support.anonymiser_corpus_classes import LANGUAGES


def check_part(
    entries: tuple[Entry, ...],
    prefix: str,
    classes: set[str],
    *,
    at_least: int,
    per_language_at_least: int,
) -> None:
    """One file of a corpus: enough answers, unique `PREFIX-NNN` ids, every language with
    enough answers, exactly `classes`, and no empty answer."""
    assert len(entries) >= at_least
    ids = [entry.entry_id for entry in entries]
    assert len(set(ids)) == len(ids), "duplicate ids"
    assert all(re.fullmatch(prefix + r"-\d{3}", entry_id) for entry_id in ids), ids
    per_language = Counter(entry.language for entry in entries)
    assert set(per_language) == LANGUAGES, per_language
    assert min(per_language.values()) >= per_language_at_least, per_language
    assert {entry.difficulty for entry in entries} == classes
    for entry in entries:
        assert entry.text.strip(), entry.entry_id


def check_listed(entries: tuple[Entry, ...], field: Literal["names", "watched"]) -> None:
    """Each answer lists `field` strings and not the other kind, and the bench's checker
    reads every one in the answer: otherwise a measurement on it would prove nothing."""
    other: Literal["names", "watched"] = "watched" if field == "names" else "names"
    for entry in entries:
        listed: tuple[str, ...] = getattr(entry, field)
        assert listed, entry.entry_id
        assert not getattr(entry, other), entry.entry_id
        missing = [string for string in listed if not still_there(string, entry.text)]
        assert not missing, (entry.entry_id, missing)


def sentences(corpus: Corpus) -> set[str]:
    """The corpus's sentences of 25 characters or more, case-folded: what another corpus
    must not share with it."""
    texts = [entry.text for entry in corpus.self_identifying + corpus.innocent]
    pieces = (piece.strip() for text in texts for piece in re.split(r"[.!?。！？\n]", text))
    return {piece.casefold() for piece in pieces if len(piece) >= 25}


def check_languages_per_class(corpus: Corpus) -> None:
    """The CJK-only classes aside, a class is measured in at least three languages."""
    cjk_only = {"latin_glued_cjk", "cjk_ordinary"}
    for entries in (corpus.self_identifying, corpus.innocent):
        languages: dict[str, set[str]] = {}
        for entry in entries:
            languages.setdefault(entry.difficulty, set()).add(entry.language)
        for difficulty, seen in languages.items():
            assert seen == {"zh"} if difficulty in cjk_only else len(seen) >= 3, difficulty
