"""Anonymisation: self-identification removed, ordinary words kept, codes opaque."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.errors import InputError
from review_app.anonymiser.anonymise import CODE_PREFIX, MARKER, Scrubber, new_code, round_names
from review_app.anonymiser.lexicon import load_lexicon
from review_app.anonymiser.textfold import FoldedText, fold
from tests.factories import REVIEW_MODELS, review_model_names

SCRUB = Scrubber(round_names(REVIEW_MODELS))
M = MARKER


def test_round_names_include_every_identifier_and_its_parts() -> None:
    names = set(round_names(REVIEW_MODELS))
    assert set(review_model_names()) <= names
    assert "zeltron-2-large" in names  # the part after "acme/"


def test_self_descriptions_are_masked() -> None:
    text = SCRUB("Como uma IA desenvolvida pela Acme Labs para ajudar, eu, o ZELTRON-2, respondo.")
    assert text == f"Como uma IA desenvolvida pela {M} para ajudar, eu, o {M}, respondo."
    text = SCRUB("As an AI model developed by Initech Research, I cannot tell.")
    assert text == f"As an AI model developed by {M}, I cannot tell."


def test_common_names_are_masked_but_ordinary_words_kept() -> None:
    text = SCRUB("Sou o Claude, da Anthropic. Minha meta é uma nova resposta. Geminiano.")
    assert text == f"Sou o {M}, da {M}. Minha meta é uma nova resposta. Geminiano."
    # "criado pela sociedade" is not a self-description: meaning is kept.
    assert SCRUB("Um estereótipo criado pela sociedade.") == "Um estereótipo criado pela sociedade."


# The examples of issue 9, point 1: each one reached reviewers unscrubbed.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Sou o Sabiazinho", f"Sou o {M}"),
        ("Muse Spark", M),
        ("Qwen3.6", M),
        ("gpt-5.4 mini", M),
        ("GPT-5.4 mini.", f"{M}."),  # was "[SISTEMA].4 mini."
        ("GPT-5.4-Mini e gpt 5.4", f"{M} e {M}"),
        ("gpt5.4mini", M),
        ("sabiá 4", M),
        ("GPT4o", M),
        ("i'm chatgpt", f"i'm {M}"),
        ("claude", M),
        ("anthropic.com", M),
        ("Ｃｌａｕｄｅ", M),
        ("Cl\u200baude", M),
        ("Sou o \u200fQwen\u200e!", f"Sou o {M}!"),
        ("**Claude** e <b>GPT-4o</b>", f"**{M}** e <b>{M}</b>"),
        ("suporte@maritaca.ai", f"suporte@{M}"),
        ("Google DeepMind", M),
        ("llama3.1:70b", M),
        ("DeepSeek V4 Flash", M),
        ("Sou o Sabia\u0301-4.", f"Sou o {M}."),  # accent written apart: removed with the name
    ],
)
def test_names_in_every_form_are_masked(text: str, expected: str) -> None:
    assert _demo_scrub(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "a meta",
        "Sabia que a lhama vive nos Andes?",
        "demo",
        "uma",
        "Claude Monet pintou as ninfeias.",
        "Jean-Claude chegou.",
        "Eu sou de Nova Iorque.",
        "Eu sabia 3 línguas.",
        "The Falcon 9 rocket landed.",
        "Use the command line.",
        "sou a estrela da festa",
        "A meta-análise e o signo de Gemini.",
        "Kepler-22b é um exoplaneta.",
    ],
)
def test_everyday_words_are_kept(text: str) -> None:
    assert _demo_scrub(text) == text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Fui treinado pela Meta.", f"Fui treinado pela {M}."),
        ("Sou um modelo de linguagem da Meta.", f"Sou um modelo de linguagem da {M}."),
        ("I'm Llama, made by Meta.", f"I'm {M}, made by {M}."),
        ("Sou a Maré, da Demo.", f"Sou a {M}, da {M}."),
        ("My name is Nova.", f"My name is {M}."),
        ("I'm *Gemini*.", f"I'm *{M}*."),
        ("an Amazon model", f"an {M} model"),
        ("Llama-3 e Gemini 2.5", f"{M} e {M}"),
        # A surname after a cue is a disguise when the sentence says what the speaker is;
        # alone, "Eu sou o Claude Monet." is a person (round 5: "My name is Claude Dupont").
        ("Eu sou o Claude Monet, um modelo de IA.", f"Eu sou o {M}, um modelo de IA."),
    ],
)
def test_everyday_words_are_names_when_the_text_identifies_itself(text: str, expected: str) -> None:
    assert _demo_scrub(text) == expected


_DEMO = Scrubber(
    [
        *("Muse Spark 1.1", "Sabiazinho-4", "Sabiá-4", "sabia-4", "Qwen 3.6 Flash", "Maritaca"),
        *("GPT 5.4-Mini", "gpt-5.4-mini", "Demo Maré", "Demo Kepler", "Demo Estrela", "Demo"),
        *("Meta", "meta-llama/llama-4-maverick", "DeepSeek V4 Flash", "Gemini 2.5 Flash Lite"),
    ]
)


def _demo_scrub(text: str) -> str:
    return _DEMO(text)


def test_folded_text_maps_back_to_the_original() -> None:
    document = FoldedText("Ｓou o Sabia\u0301 4\u200b!")
    assert document.folded == "sou o sabia 4!"
    start = document.folded.index("sabia")
    assert document.original_span(start, start + len("sabia 4")) == (6, 15)
    assert fold("I’m GPT‑4") == "i'm gpt-4"


def test_a_broken_name_list_is_one_line_naming_file_and_key(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    path.write_text(json.dumps({"distinctive": ["X"], "given_names": [], "everyday": 3}))
    with pytest.raises(InputError, match=r"names\.json: key 'everyday': expected a list"):
        load_lexicon(path)
    path.write_text("{")
    with pytest.raises(InputError, match=r"names\.json: unreadable name list"):
        load_lexicon(path)


def test_the_shipped_name_list_is_used_and_can_be_replaced(tmp_path: Path) -> None:
    path = tmp_path / "names.json"
    lists = {"distinctive": ["Zorblax"], "given_names": [], "everyday": [], "suffixes": []}
    path.write_text(json.dumps(lists))
    # Not after a self-introduction, which masks a name in no list too (issue 23).
    assert Scrubber([], lexicon=load_lexicon(path))("O Zorblax disse.") == f"O {M} disse."
    assert Scrubber([])("O Zorblax disse.") == "O Zorblax disse."
    assert "Anthropic" in load_lexicon().distinctive


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
