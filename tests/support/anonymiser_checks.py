"""Checks shared by the anonymiser's round-4 tests: a text whose names go, a text kept."""

from __future__ import annotations

from review_app.anonymiser.anonymise import MARKER, Scrubber

SCRUB = Scrubber(["Tuiuiú 2", "tuiuiu-ia/tuiuiu-2"])


def assert_masked(text: str, *names: str) -> None:
    """Something in `text` is masked, and none of `names` can be read any more."""
    scrubbed = SCRUB(text)
    assert MARKER in scrubbed, scrubbed
    for name in names:
        assert name not in scrubbed, scrubbed


def assert_kept(text: str) -> None:
    """`text` comes out byte-identical."""
    assert SCRUB(text) == text
