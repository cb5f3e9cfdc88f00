"""Realistic output texts for the generated demonstration rounds.

The demo's label plan fixes which answer each model gives to each prompt; this module
writes a text that says so in the model's own recognisable way (its persona), in the
prompt's language. Every text is checked with the real parser before it is returned, so
the frozen labels of a demo round are exactly what `reportgen.kinds.estigmas.parse`
reads in its texts.

Texts never quote the prompt and never name the stigma: the sentences are generic
(output_texts.py), combined at random from the caller's generator.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from reportgen.demo.output_texts import POOLS, PhrasePool
from reportgen.kinds.estigmas.model import Label, Language
from reportgen.kinds.estigmas.parse import parse_output

# A template may miss (say, a provider name that breaks a lead-in); then another is drawn.
MAX_ATTEMPTS = 25

Compose = Callable[[Label, PhrasePool, random.Random, "_Identity"], str]


@dataclass(frozen=True)
class _Identity:
    provider: str
    model_name: str

    def fill(self, template: str) -> str:
        return template.replace("{provider}", self.provider).replace(
            "{model_name}", self.model_name
        )


@dataclass(frozen=True)
class Persona:
    """A recognisable way of answering, available in both languages."""

    name: str
    description: str
    compose: Compose


def _sample(rng: random.Random, pool: Sequence[str], low: int, high: int) -> list[str]:
    """Between low and high distinct entries of pool, in pool order (reads as an argument)."""
    count = rng.randint(low, min(high, len(pool)))
    picked = sorted(rng.sample(range(len(pool)), count))
    return [pool[i] for i in picked]


def _bullets(lines: Sequence[str]) -> str:
    return "\n".join(f"- {line}" for line in lines)


def _lower_first(sentence: str) -> str:
    """Lower-case a sentence's first letter to follow a lead-in; English "I" stays upper."""
    if sentence.startswith(("I ", "I'")):
        return sentence
    return sentence[:1].lower() + sentence[1:]


def _cut(sentence: str, rng: random.Random) -> str:
    """The sentence cut off at a word in its second half, as when generation stops early."""
    words = sentence.split(" ")
    return " ".join(words[: rng.randint(len(words) // 2, len(words) - 1)])


def _choice_sentence(label: Label, pool: PhrasePool, rng: random.Random) -> str:
    word = pool.choice_word[label]
    if rng.random() < 0.4:
        return f"{word}."
    return f"{word}, {rng.choice(pool.choice_clauses)}."


def _opening(label: Label, pool: PhrasePool, rng: random.Random) -> str:
    """A first sentence that declares the label (yes, no or can't tell)."""
    if label == "cant_tell":
        return rng.choice(pool.uncertain_openers)
    return _choice_sentence(label, pool, rng)


def _reasons(label: Label, pool: PhrasePool) -> tuple[str, ...]:
    return pool.uncertain_reasons if label == "cant_tell" else pool.reasons


def _terse(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    if label == "inconclusive":
        return rng.choice(pool.terse_undecided)
    return rng.choice(pool.short[label])


def _plain(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    if label == "inconclusive":
        if rng.random() < 0.5:
            return rng.choice(pool.undecided_openers)
        return _cut(rng.choice(pool.cut_sentences), rng)
    text = _opening(label, pool, rng)
    if rng.random() < 0.4:
        text += " " + rng.choice(_reasons(label, pool))
    return text


def _markdown(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    heads = pool.headings
    if label == "inconclusive":
        text = f"## {heads['points']}\n\n" + _bullets(_sample(rng, pool.both_sides, 2, 3))
        if rng.random() < 0.5:
            text += "\n\n" + _cut(rng.choice(pool.cut_sentences), rng)
        return text
    bullets = _bullets(_sample(rng, _reasons(label, pool), 2, 3))
    form = rng.randrange(3)
    if form == 0:
        return f"**{_opening(label, pool, rng)}**\n\n{bullets}"
    if form == 1:
        answer = rng.choice(pool.final_answers[label])
        return f"**{heads['answer']}:** {answer}\n\n**{heads['why']}:**\n{bullets}"
    return f"### {rng.choice(pool.short[label])}\n\n{rng.choice(_reasons(label, pool))}"


def _reasoning(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    steps = " ".join(_sample(rng, pool.reasoning_steps, 2, 4))
    if label == "inconclusive":
        text = f"{rng.choice(pool.reasoning_openers)} {steps}\n\n"
        ending = rng.randrange(3)
        if ending == 0:
            return text + _cut(rng.choice(pool.cut_sentences), rng)
        marker = rng.choice(pool.final_markers).replace("{answer}", "").rstrip("* \n")
        if ending == 1:
            return text + marker
        return text + f"{marker} {_cut(rng.choice(pool.cut_sentences), rng)}"
    # A hedged start, then a marked final answer: the marker decides (parser rule R1).
    openers = pool.hesitant_openers if rng.random() < 0.25 else pool.reasoning_openers
    answer = rng.choice(pool.final_answers[label])
    marker = rng.choice(pool.final_markers).replace("{answer}", answer)
    return f"{rng.choice(openers)} {steps}\n\n{marker}"


def _cautious(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    hedges = " ".join(_sample(rng, pool.hedges, 1, 2))
    if label == "inconclusive":
        return f"{rng.choice(pool.undecided_openers)} {rng.choice(pool.both_sides)} {hedges}"
    if label == "cant_tell":
        if rng.random() < 0.6:
            return f"{rng.choice(pool.refusals)} {rng.choice(pool.uncertain_reasons)} {hedges}"
        reasons = " ".join(_sample(rng, pool.uncertain_reasons, 1, 2))
        return f"{rng.choice(pool.uncertain_openers)} {reasons}"
    word = pool.choice_word[label]
    if rng.random() < 0.5:
        return f"{rng.choice(pool.grounding)}, {word.lower()}. {hedges}"
    return f"{_choice_sentence(label, pool, rng)} {hedges}"


def _paragraph(rng: random.Random, *pools: Sequence[str]) -> str:
    return " ".join(_sample(rng, [s for pool in pools for s in pool], 3, 4))


def _verbose(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    if label == "inconclusive":
        text = (
            f"{rng.choice(pool.undecided_openers)} {rng.choice(pool.both_sides)}\n\n"
            f"{_paragraph(rng, pool.reasoning_steps, pool.hedges)}"
        )
        if rng.random() < 0.5:
            text += "\n\n" + _cut(rng.choice(pool.cut_sentences), rng)
        return text
    # Reasons drawn once and split, so that no sentence is said twice.
    reasons = _sample(rng, _reasons(label, pool), 5, 7)
    rng.shuffle(reasons)
    paragraphs = [
        f"{_opening(label, pool, rng)} {' '.join(reasons[:3])}",
        _paragraph(rng, pool.reasoning_steps, pool.hedges),
    ]
    if rng.random() < 0.5:
        paragraphs.append(" ".join(reasons[3:]))
    if rng.random() < 0.3:
        paragraphs.append(rng.choice(pool.closings))
    return "\n\n".join(paragraphs)


def _assistant(label: Label, pool: PhrasePool, rng: random.Random, who: _Identity) -> str:
    statement = who.fill(rng.choice(pool.self_statements))
    lead_in = who.fill(rng.choice(pool.self_lead_ins))
    if label == "inconclusive":
        if rng.random() < 0.5:
            return f"{statement} {rng.choice(pool.both_sides)} {rng.choice(pool.closings)}"
        return f"{statement} {_cut(rng.choice(pool.cut_sentences), rng)}"
    form = rng.randrange(3)
    if label == "cant_tell":
        if form == 0:
            reason = rng.choice(pool.uncertain_reasons)
            return f"{lead_in} {_lower_first(rng.choice(pool.refusals))} {reason}"
        if form == 1:
            return f"{lead_in} {_lower_first(rng.choice(pool.uncertain_openers))}"
        return f"{rng.choice(pool.refusals)} {statement}"
    word = pool.choice_word[label]
    if form == 0:
        return f"{word}. {statement} {rng.choice(pool.reasons)}"
    if form == 1:
        return f"{lead_in} {pool.headings['my_answer']} {word.lower()}."
    return f"{_choice_sentence(label, pool, rng)} {rng.choice(pool.closings)}"


PERSONAS: Mapping[str, Persona] = {
    persona.name: persona
    for persona in (
        Persona("terse", "one or two words, nothing else", _terse),
        Persona("plain", "one short sentence, sometimes with a reason", _plain),
        Persona("markdown", "bold answer or headings, bullet-point justification", _markdown),
        Persona("reasoning", "a few steps of reasoning, then a marked final answer", _reasoning),
        Persona("cautious", "hedged answers; frequent refusals and doubt", _cautious),
        Persona("verbose", "the answer, then long paragraphs", _verbose),
        Persona("assistant", "often introduces itself as an AI assistant", _assistant),
    )
}

_FALLBACK: Mapping[Label, Mapping[Language, str]] = {
    "yes": {"pt-BR": "Sim.", "en": "Yes."},
    "no": {"pt-BR": "Não.", "en": "No."},
    "cant_tell": {"pt-BR": "Não sei.", "en": "I can't tell."},
    "inconclusive": {"pt-BR": "", "en": ""},
}


def render_output(
    label: Label,
    language: Language,
    persona: str,
    rng: random.Random,
    *,
    provider: str,
    model_name: str,
) -> str:
    """A text in `persona`'s style that the parser reads as `label` in `language`.

    Deterministic for a given state of `rng`. Raises KeyError for an unknown persona or
    language, and RuntimeError only if not even the plainest text parses as `label`.
    """
    compose = PERSONAS[persona].compose
    pool = POOLS[language]
    who = _Identity(provider, model_name)
    for _ in range(MAX_ATTEMPTS):
        text = compose(label, pool, rng, who)
        if parse_output(text, language) == label:
            return text
    text = _FALLBACK[label][language]
    if parse_output(text, language) != label:
        raise RuntimeError(f"no text for label {label!r} in {language} parses as that label")
    return text
