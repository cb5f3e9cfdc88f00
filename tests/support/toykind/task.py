"""The toy kind's review task: is the output good or bad? A choice task of its own type,
`verdict`, whose units are every (item, model) output of a round, stratified by language;
the automatic verdict is "good" for a score of 5 or more."""

from __future__ import annotations

from collections.abc import Iterator

from reportgen.kinds.review_task import CHOICE_SHAPE, ReviewTask, ReviewUnit
from tests.support.toykind.model import ToyRound

VERDICT = "verdict"  # the task's type: batches.task_type of the toy kind's batches


def _units(round_: object) -> Iterator[ReviewUnit]:
    assert isinstance(round_, ToyRound)
    by_key = {(s.item_id, s.model_id): s.score for s in round_.scores}
    for model in round_.models:
        for index, item in enumerate(round_.items):
            score = by_key[(item.item_id, model.model_id)]
            yield ReviewUnit(
                item_index=index,
                item_id=item.item_id,
                model_id=model.model_id,
                prompt=item.prompt,
                output=round_.outputs[model.model_id][index],
                automatic="good" if score >= 5 else "bad",
                stratum=(item.language,),
            )


REVIEW_TASK = ReviewTask(
    task_type=VERDICT,
    choices=("good", "bad"),
    note_required=frozenset(),
    automatic_values=("good", "bad"),
    comparison={"good": "good", "bad": "bad"},
    labels={"pt-BR": {"good": "Boa", "bad": "Ruim"}, "en": {"good": "Good", "bad": "Bad"}},
    stratum_names=("language",),
    units=_units,
    # Shown as the app's choice shape: the output and one button per choice; the app's
    # registry of shapes (review_app/tasks/shapes.py) finds its view, no name of it.
    shape=CHOICE_SHAPE,
)
