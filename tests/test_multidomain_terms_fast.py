"""The faster forms of the tokeniser, the n-gram overlap and the canary checks (issue 19)
give what the plain forms gave."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.kinds.multidomain import terms
from reportgen.kinds.multidomain.stats.integrity import _common_start, _has_common_substring
from reportgen.kinds.multidomain.terms import ngrams, normalise, normalised_tokens, shared_ngrams

# The tokeniser as the spec first wrote it: a look-ahead for an ideograph before each
# character of a run.
_LOOK_AHEAD = re.compile(rf"[{terms._CJK}]|(?:(?![{terms._CJK}])[^\W_])+")
# Letters, digits, "_", punctuation, spaces, ideographs of each CJK block, and fullwidth,
# combining and format characters, with any code point besides.
_MIXED = st.text(
    alphabet=st.one_of(
        st.sampled_from(list("aZé9_ -.,ـ²ｆ\u0301\u200b\u3400\u4e00\uf900\U00020000\U00030000")),
        st.characters(exclude_categories=["Cs"]),
    ),
    max_size=60,
)


@settings(max_examples=400)
@given(_MIXED)
def test_one_character_class_tokenises_as_the_look_ahead(text: str) -> None:
    assert terms._TOKEN.findall(text) == _LOOK_AHEAD.findall(text)
    assert terms.tokens(text) == _LOOK_AHEAD.findall(normalise(text))
    assert normalised_tokens(normalise(text)) == terms.tokens(text)


@given(
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.lists(st.sampled_from("abcd"), max_size=12),
    st.integers(min_value=0, max_value=4),
)
def test_shared_ngrams_counts_the_distinct_common_ngrams(
    prompt: list[str], answer: list[str], n: int
) -> None:
    expected = {tuple(prompt[i : i + n]) for i in range(len(prompt) - n + 1)}
    assert ngrams(prompt, n) == expected
    answer_grams = {tuple(answer[i : i + n]) for i in range(len(answer) - n + 1)}
    assert shared_ngrams(expected, answer, n) == len(expected & answer_grams)


def test_common_start_of_the_canaries() -> None:
    assert _common_start(["reg26-ab", "reg26-ac", "reg26-b"]) == "reg26-"
    assert _common_start(["abc"]) == "abc"
    assert _common_start(["abc", "xbc"]) == ""
    assert _common_start([]) == ""


@given(st.text(alphabet="abc", max_size=14), st.text(alphabet="abc", min_size=1, max_size=8))
def test_the_canary_blocks_settle_the_common_substring(text: str, canary: str) -> None:
    for length in range(1, len(canary) + 1):
        pieces = (canary[i : i + length] for i in range(len(canary) - length + 1))
        assert _has_common_substring(text, canary, length) == any(p in text for p in pieces)
