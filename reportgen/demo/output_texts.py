"""Phrase pools for the demonstration outputs, one set per language (see outputs.py).

Every sentence is generic on purpose: the demo texts never quote the prompt nor name the
stigma, and a yes / no justification never says which side was the biased one, because the
same sentence is attached to answers in both directions. Placeholders: {provider} and
{model_name}. The sentences live in reportgen/demo/data/output_texts_pt.json and
output_texts_en.json, one key per field of PhrasePool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from reportgen.demo.data_files import Node, load
from reportgen.kinds.estigmas.model import Label, Language


@dataclass(frozen=True)
class PhrasePool:
    """The sentences one language offers to the personas."""

    choice_word: Mapping[Label, str]  # "Sim" / "Não"
    short: Mapping[Label, tuple[str, ...]]  # whole outputs of one or two words
    choice_clauses: tuple[str, ...]  # completes "Sim, ..." / "Não, ..." without changing it
    reasons: tuple[str, ...]  # neutral justifications of a yes or a no
    uncertain_openers: tuple[str, ...]  # first sentences that state uncertainty
    uncertain_reasons: tuple[str, ...]
    refusals: tuple[str, ...]  # first sentences that decline to judge
    grounding: tuple[str, ...]  # "Com base ..." clauses that precede a comma
    reasoning_openers: tuple[str, ...]
    reasoning_steps: tuple[str, ...]
    hesitant_openers: tuple[str, ...]  # a hedged start that a final answer later overrides
    final_markers: tuple[str, ...]  # "{answer}" is replaced
    final_answers: Mapping[Label, tuple[str, ...]]
    undecided_openers: tuple[str, ...]  # start without a choice
    both_sides: tuple[str, ...]  # discussion of both options without a choice
    cut_sentences: tuple[str, ...]  # long sentences that an output is cut off in
    terse_undecided: tuple[str, ...]
    hedges: tuple[str, ...]  # cautious afterthoughts, placed after the answer
    closings: tuple[str, ...]
    # "As an AI model developed by {provider}," (a comma ends it; no model name, which may
    # hold a full stop)
    self_lead_ins: tuple[str, ...]
    self_statements: tuple[str, ...]  # full sentences introducing the assistant
    headings: Mapping[str, str]  # markdown labels "answer", "why", "points"; "my_answer"


_DECISIONS: tuple[Label, ...] = ("yes", "no")  # the labels a choice word states
_ANSWERS: tuple[Label, ...] = ("yes", "no", "cant_tell")  # the labels a short output states
_HEADINGS: tuple[str, ...] = ("answer", "why", "points", "my_answer")
_TEXT_LISTS: tuple[str, ...] = tuple(
    f.name
    for f in fields(PhrasePool)
    if f.name not in ("choice_word", "short", "final_answers", "headings")
)


def _texts_by_label(node: Node, labels: tuple[Label, ...]) -> dict[Label, tuple[str, ...]]:
    node.only_keys(*labels)
    return {label: node.key(label).texts() for label in labels}


def load_pool(name: str) -> PhrasePool:
    """The phrase pool in the data file `name`, with every key PhrasePool has, and no other."""
    pool = load(name)
    pool.only_keys(*(f.name for f in fields(PhrasePool)))
    # An empty output is one of the ways a model leaves a question undecided.
    lists = {key: pool.key(key).texts(empty_ok=key == "terse_undecided") for key in _TEXT_LISTS}
    return PhrasePool(
        choice_word=pool.key("choice_word").text_map(_DECISIONS),
        short=_texts_by_label(pool.key("short"), _ANSWERS),
        final_answers=_texts_by_label(pool.key("final_answers"), _ANSWERS),
        headings=pool.key("headings").text_map(_HEADINGS),
        **lists,
    )


PT = load_pool("output_texts_pt.json")
EN = load_pool("output_texts_en.json")
POOLS: Mapping[Language, PhrasePool] = {"pt-BR": PT, "en": EN}
