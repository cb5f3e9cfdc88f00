"""What a kind asks of human reviewers: its review task type.

A review task says which units of a round a person may judge (one model's output to
one item, with the kind's strata), what the person answers (the choices), what the
automatic scoring answered for the same unit, and how the two compare. The review app
knows only this interface: the Estigmas task chooses one of the parser's labels; a
rubric task (multidomain: the Art. 26 audit, the Art. 22 calibration) scores each of a
rubric's criteria with an integer on the task's scale.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field

# The answer a rubric judgment records in `judgments.choice`: its scores live per criterion.
SCORED = "scored"
# Task shapes: how the review app shows a unit and takes its answer, each a name in the
# app's registry of shapes (review_app/tasks/shapes.py). The app's own: one button per
# choice; one score per criterion on the task's scale. A kind's review part declares the
# others it uses (`KindReview.shapes`): the counterfactual one score on its 1-5 scale with
# the mask flag, and a count typed as a number.
CHOICE_SHAPE = "choice"
RUBRIC_SHAPE = "rubric"
SCALE_SHAPE = "scale"
COUNT_SHAPE = "count"
_COUNT = re.compile(r"0|[1-9][0-9]*")  # a whole number >= 0, canonical: no sign, no 0-prefix


@dataclass(frozen=True)
class RubricCriterion:
    """One criterion of a rubric as a reviewer reads it: its names and anchors 0, 3, 5."""

    criterion_id: str
    name_pt: str
    name_en: str
    anchor_0: str
    anchor_3: str
    anchor_5: str

    def name(self, language: str) -> str:
        return self.name_pt if language == "pt-BR" else self.name_en

    def as_dict(self) -> dict[str, str]:
        return {
            "criterion_id": self.criterion_id,
            "name_pt": self.name_pt,
            "name_en": self.name_en,
            "anchor_0": self.anchor_0,
            "anchor_3": self.anchor_3,
            "anchor_5": self.anchor_5,
        }


@dataclass(frozen=True)
class ReviewUnit:
    """One (item, model, run) output a reviewer may be shown."""

    item_index: int  # position of the item in the round's items
    item_id: str
    model_id: str
    prompt: str
    output: str
    automatic: str  # what automatic scoring answered for this output
    stratum: tuple[str, ...]  # the kind's sampling strata beside the model
    run: int = 1  # the response's run (single-run kinds: 1)
    language: str = ""  # the statement's language (BCP-47); "" when the kind has none
    criteria: tuple[RubricCriterion, ...] = ()  # a rubric task's criteria, in order
    key: str = ""  # a stable key other than item|model|run (a calibration response's id)

    @property
    def unit_key(self) -> str:
        """The unit's stable key: `key`, else item_id|model_id|run."""
        return self.key or f"{self.item_id}|{self.model_id}|{self.run}"


@dataclass(frozen=True)
class ReviewTask:
    """A kind's review task: choices, their labels, and the comparison with scoring."""

    task_type: str
    choices: tuple[str, ...]  # what a reviewer may answer, in display order
    note_required: frozenset[str]  # choices that need a note (the administrator must know why)
    automatic_values: tuple[str, ...]  # what automatic scoring may answer, in display order
    # choices and automatic values mapped to the categories in which they are compared
    comparison: Mapping[str, str]
    labels: Mapping[str, Mapping[str, str]]  # language -> choice or automatic value -> label
    stratum_names: tuple[str, ...]  # what the parts of ReviewUnit.stratum are
    units: Callable[[object], Iterable[ReviewUnit]]  # every unit of a round of the kind
    # A rubric task's scale (lowest, highest integer score); None for a choice task.
    scale: tuple[int, int] | None = None
    # A choice task some of whose units are counts (the counterfactual extraction check):
    # a unit with one criterion (the counted variable) is answered with a whole number
    # >= 0 or one of these choices ("na": cannot tell) instead of `choices`; () for none.
    count_choices: tuple[str, ...] = ()
    # The kind's other review tasks, by task_type (multidomain: "calibration" beside "audit").
    # (Not compared nor shown: the tasks refer to each other.)
    related: Mapping[str, ReviewTask] = field(default_factory=dict, compare=False, repr=False)
    # How the review app shows a unit of this task (a name in its registry of task
    # shapes); "" for the plain one: RUBRIC_SHAPE with a scale, else CHOICE_SHAPE.
    shape: str = ""

    @property
    def is_rubric(self) -> bool:
        return self.scale is not None

    def shape_of(self, criteria: int) -> str:
        """The shape of a unit with `criteria` criteria: COUNT_SHAPE for a count unit of a
        task with `count_choices` (one criterion: the counted variable), else the task's."""
        if self.count_choices and criteria == 1:
            return COUNT_SHAPE
        return self.shape or (RUBRIC_SHAPE if self.is_rubric else CHOICE_SHAPE)

    def variant(self, task_type: str | None) -> ReviewTask:
        """The kind's task `task_type` (None or this one's type: this task)."""
        if task_type is None or task_type == self.task_type:
            return self
        return self.related[task_type]

    def compare(self, value: str) -> str:
        """A choice or an automatic value in the comparison space."""
        return self.comparison[value]

    def accepts(self, choice: str, *, counted: bool = False) -> bool:
        """Whether `choice` answers a unit of this choice task: one of `choices`, or for
        a count unit (`counted`, only when the task has `count_choices`) a canonical
        whole number >= 0 or one of `count_choices`."""
        if counted and self.count_choices:
            return choice in self.count_choices or _COUNT.fullmatch(choice) is not None
        return choice in self.choices

    def label(self, language: str, value: str) -> str:
        """A choice's label; a count is its own label."""
        labels = self.labels[language]
        return labels[value] if value in labels or not _COUNT.fullmatch(value) else value
