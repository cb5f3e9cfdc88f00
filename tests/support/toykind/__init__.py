"""A kind of round that exists only in the tests: the proof that a kind is a plug-in, one
folder (docs/adding-a-kind.md walks through it).

`toykind` has one table (`toy_scores.csv`: a score from 0 to 10 for each model's output
to each item, `model`), one score (each model's mean), one page (the table of means, in
both languages, `pages`), one review task of its own type (`verdict`: is the output good
or bad? `task`), its own review sample and export (`review`) and what the leak guard keeps
secret (unpublished prompts). `registered()` gives the registry the kind and its review
part; tests/conftest.py's one line naming this package is how the tests reach it (the
fixture `plugin_kind`). No other file names it (tests/test_toy_kind.py checks).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from reportgen.kinds import (
    register_kind,
    register_review_part,
    unregister_kind,
    unregister_review_part,
)
from tests.support.toykind.kind import NAME, ToyKind
from tests.support.toykind.model import SCORES_FILE, ToyItem, ToyResponse, ToyRound, ToyScore
from tests.support.toykind.review import REVIEW

__all__ = [
    "NAME",
    "SCORES_FILE",
    "ToyItem",
    "ToyKind",
    "ToyResponse",
    "ToyRound",
    "ToyScore",
    "registered",
]


@contextmanager
def registered() -> Iterator[ToyKind]:
    """The kind and its review part, registered while the block runs."""
    kind = ToyKind()
    register_kind(kind)
    register_review_part(kind.name, REVIEW)
    try:
        yield kind
    finally:
        unregister_review_part(kind.name)
        unregister_kind(kind.name)
