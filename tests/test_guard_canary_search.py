"""The guard finds canaries through their prefixes (fast on big files): the answer is the
same as looking for every canary with `in`, the slow reference, overlapping starts and
folded forms (fullwidth, other case, entities) included."""

from __future__ import annotations

import html
import unicodedata

from hypothesis import given
from hypothesis import strategies as st

from reportgen.guard import SecretIndex, _find_canaries, _folded_problems

# A small alphabet, so that canaries overlap and share prefixes often.
_TEXT = st.text(alphabet="aAbB-ｂ&;ampx", max_size=60)
_CANARY = st.text(alphabet="aAbB-ｂx", min_size=1, max_size=7)


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def _index(canaries: set[str], *, folded: bool) -> SecretIndex:
    return SecretIndex(
        secret_runs=frozenset(),
        run_source={},
        canaries=frozenset(canaries),
        markup_names=frozenset(),
        fold=_fold if folded else None,
    )


@given(_TEXT, st.sets(_CANARY, max_size=6))
def test_the_canaries_found_are_those_in_the_text(text: str, canaries: set[str]) -> None:
    assert _find_canaries(text, _index(canaries, folded=False)) == sorted(
        c for c in canaries if c in text
    )


@given(_TEXT, st.sets(_CANARY, max_size=6))
def test_the_folded_canaries_found_are_those_the_slow_search_finds(
    text: str, canaries: set[str]
) -> None:
    folded = _fold(html.unescape(text))
    expected = [c for c in sorted(canaries) if c not in text and _fold(c) in folded]
    found = _folded_problems("page.html", text, _index(canaries, folded=True))
    assert [p.message for p in found] == [
        f"contains the canary {c!r} in another form" for c in expected
    ]


def test_overlapping_starts_are_all_looked_at() -> None:
    # "aab" starts inside the match of the longer prefix "aaa" at position 0.
    assert _find_canaries("aaab", _index({"aaa", "aab"}, folded=False)) == ["aaa", "aab"]
