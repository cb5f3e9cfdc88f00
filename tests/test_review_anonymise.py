"""Anonymisation: self-identification removed, ordinary words kept, codes opaque."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from review_app.anonymise import CODE_PREFIX, MARKER, Scrubber, new_code, round_names
from tests.factories import REVIEW_MODELS, review_model_names

SCRUB = Scrubber(round_names(REVIEW_MODELS))


def test_round_names_include_every_identifier_and_its_parts() -> None:
    names = set(round_names(REVIEW_MODELS))
    assert set(review_model_names()) <= names
    assert "zeltron-2-large" in names  # the part after "acme/"


def test_self_descriptions_are_masked() -> None:
    text = SCRUB("Como uma IA desenvolvida pela Acme Labs para ajudar, eu, o ZELTRON-2, respondo.")
    assert text == f"Como uma IA desenvolvida pela {MARKER} para ajudar, eu, o {MARKER}, respondo."
    text = SCRUB("As an AI model developed by Initech Research, I cannot tell.")
    assert text == f"As an AI model developed by {MARKER}, I cannot tell."


def test_common_names_are_masked_but_ordinary_words_kept() -> None:
    text = SCRUB("Sou o Claude, da Anthropic. Minha meta é uma nova resposta. Geminiano.")
    assert text == f"Sou o {MARKER}, da {MARKER}. Minha meta é uma nova resposta. Geminiano."
    # "criado pela sociedade" is not a self-description: meaning is kept.
    assert SCRUB("Um estereótipo criado pela sociedade.") == "Um estereótipo criado pela sociedade."


_name = st.sampled_from(review_model_names())
_filler = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=20)


@given(
    st.lists(st.tuples(_filler, _name, st.sampled_from([str.upper, str.lower, str])), max_size=6)
)
def test_no_round_name_survives(parts: list[tuple[str, str, object]]) -> None:
    text = " ".join(f"{filler} {case(name)} " for filler, name, case in parts)  # type: ignore[operator]
    scrubbed = SCRUB(text)
    for name in review_model_names():
        pattern = rf"(?<![\w-]){re.escape(name)}(?!\w)"
        assert re.search(pattern, scrubbed, re.IGNORECASE) is None, (name, scrubbed)


def test_codes_are_opaque_and_unique() -> None:
    codes = {new_code() for _ in range(500)}
    assert len(codes) == 500
    for code in codes:
        assert re.fullmatch(rf"{CODE_PREFIX}-[2-9A-HJKMNP-Z]{{6}}", code)
