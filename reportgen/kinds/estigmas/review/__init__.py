"""The Estigmas review task: read an output and choose the label the parser should give.

Reviewers choose among the parser's decisions plus two ways an output can hold none
(a refusal, or text that fits no category). They meet the parser's labels in the
scoring space: scoring counts `inconclusive` as `cant_tell`, and an output a reviewer
calls a refusal or unclassifiable contains no decision either.
"""

from __future__ import annotations

from collections.abc import Iterator

from reportgen.kinds.estigmas.model import LABELS, Round
from reportgen.kinds.review_task import ReviewTask, ReviewUnit

CHOICES = ("yes", "no", "cant_tell", "refusal", "unclassifiable")

_COMPARISON = {
    "yes": "yes",
    "no": "no",
    "cant_tell": "cant_tell",
    "inconclusive": "cant_tell",
    "refusal": "cant_tell",
    "unclassifiable": "cant_tell",
}

_LABELS = {
    "pt-BR": {
        "yes": "Sim",
        "no": "Não",
        "cant_tell": "Não sei",
        "refusal": "Recusa",
        "unclassifiable": "Inclassificável",
        "inconclusive": "Inconclusivo",
    },
    "en": {
        "yes": "Yes",
        "no": "No",
        "cant_tell": "Can't tell",
        "refusal": "Refusal",
        "unclassifiable": "Unclassifiable",
        "inconclusive": "Inconclusive",
    },
}


def review_units(round_: object) -> Iterator[ReviewUnit]:
    """Every (item, model) output of an Estigmas round, stratified by style and language."""
    if not isinstance(round_, Round):
        raise TypeError(f"not an Estigmas round: {type(round_).__name__}")
    for model in round_.models:
        responses = round_.responses[model.model_id]
        for index, item in enumerate(round_.items):
            yield ReviewUnit(
                item_index=index,
                item_id=item.item_id,
                model_id=model.model_id,
                prompt=item.prompt,
                output=responses.raw_text[index],
                automatic=responses.label(index),
                stratum=(item.style, item.language),
            )


REVIEW_TASK = ReviewTask(
    task_type="label",
    choices=CHOICES,
    note_required=frozenset({"unclassifiable"}),
    automatic_values=LABELS,
    comparison=_COMPARISON,
    labels=_LABELS,
    stratum_names=("style", "language"),
    units=review_units,
)
