"""Demo output texts: each parses as its label, deterministically, with variety."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reportgen.demo import outputs
from reportgen.demo.output_texts import POOLS
from reportgen.demo.outputs import PERSONAS, render_output
from reportgen.kinds.estigmas.model import LABELS, LANGUAGES, Label, Language
from reportgen.kinds.estigmas.parse import parse_output

SEEDS = range(150)
COMBINATIONS = [
    (persona, label, language) for persona in PERSONAS for label in LABELS for language in LANGUAGES
]


def _render(label: Label, language: Language, persona: str, seed: object) -> str:
    return render_output(
        label,
        language,
        persona,
        random.Random(f"{seed}"),
        provider="Maritaca",
        model_name="Sabiá-4",
    )


def test_at_least_seven_personas_with_descriptions() -> None:
    assert len(PERSONAS) >= 7
    assert {"terse", "plain", "markdown", "reasoning", "cautious", "verbose", "assistant"} <= set(
        PERSONAS
    )
    for name, persona in PERSONAS.items():
        assert persona.name == name
        assert persona.description


@pytest.mark.parametrize(("persona", "label", "language"), COMBINATIONS)
def test_every_text_parses_as_its_label(persona: str, label: Label, language: Language) -> None:
    for seed in SEEDS:
        text = _render(label, language, persona, seed)
        assert parse_output(text, language) == label, (seed, text)


@pytest.mark.parametrize(("persona", "label", "language"), COMBINATIONS)
def test_first_draft_usually_parses(persona: str, label: Label, language: Language) -> None:
    """The retry loop is a safety net, not the way labels are reached."""
    compose = PERSONAS[persona].compose
    who = outputs._Identity("Maritaca", "Sabiá-4")
    misses = sum(
        parse_output(compose(label, POOLS[language], random.Random(seed), who), language) != label
        for seed in SEEDS
    )
    assert misses <= len(SEEDS) // 10


@given(
    st.sampled_from(COMBINATIONS),
    st.integers(),
    st.text(min_size=1, max_size=30),
    st.text(min_size=1, max_size=30),
)
def test_any_provider_and_model_name_still_parse(
    combination: tuple[str, Label, Language], seed: int, provider: str, model_name: str
) -> None:
    persona, label, language = combination
    text = render_output(
        label, language, persona, random.Random(seed), provider=provider, model_name=model_name
    )
    assert parse_output(text, language) == label


@pytest.mark.parametrize(("persona", "label", "language"), COMBINATIONS)
def test_deterministic_for_a_given_generator_state(
    persona: str, label: Label, language: Language
) -> None:
    first = [_render(label, language, persona, seed) for seed in range(20)]
    again = [_render(label, language, persona, seed) for seed in range(20)]
    assert first == again
    rng = random.Random(7)
    rng.random()
    state = rng.getstate()
    one = render_output(label, language, persona, rng, provider="A", model_name="B")
    rng.setstate(state)
    assert render_output(label, language, persona, rng, provider="A", model_name="B") == one


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("label", LABELS)
def test_texts_are_varied(label: Label, language: Language) -> None:
    texts = {_render(label, language, persona, seed) for persona in PERSONAS for seed in range(100)}
    assert len(texts) >= 200
    long_texts = [t for t in texts if len(t) > 300]
    assert len(long_texts) >= 20


def test_personas_are_distinct() -> None:
    by_persona = {
        persona: {_render("yes", "pt-BR", persona, seed) for seed in range(60)}
        for persona in PERSONAS
    }
    names = list(by_persona)
    for i, first in enumerate(names):
        for second in names[i + 1 :]:
            assert not by_persona[first] & by_persona[second] or first == "terse", (first, second)
    assert max(len(t) for t in by_persona["terse"]) <= 10
    assert all("\n- " in t or "\n**" in t or t.startswith("#") for t in by_persona["markdown"])


@pytest.mark.parametrize("language", LANGUAGES)
def test_special_shapes_appear(language: Language) -> None:
    marker = "Resposta final" if language == "pt-BR" else "Final answer"
    reasoning = [_render("no", language, "reasoning", seed) for seed in range(60)]
    assert sum(marker in t for t in reasoning) >= 20
    assistant = [_render("cant_tell", language, "assistant", seed) for seed in range(60)]
    assert sum("Maritaca" in t for t in assistant) >= 30
    cautious = [_render("cant_tell", language, "cautious", seed) for seed in range(60)]
    refusal = re.compile(r"^(Não posso|Não me sinto|Prefiro não|Não vou|I can't|I'm not|I won't)")
    assert sum(bool(refusal.match(t)) for t in cautious) >= 10


def test_placeholders_are_always_filled() -> None:
    for persona, label, language in COMBINATIONS:
        for seed in range(30):
            assert "{" not in _render(label, language, persona, seed)


def test_unknown_persona_is_rejected() -> None:
    with pytest.raises(KeyError):
        _render("yes", "pt-BR", "poet", 1)
