"""What a kind asks of human reviewers: its review task type.

A review task says which units of a round a person may judge (one model's output to
one item, with the kind's strata), what the person answers (the choices), what the
automatic scoring answered for the same unit, and how the two compare. The review app
knows only this interface: the Estigmas task chooses one of the parser's labels; the
other kinds bring rubric scores and scale scores.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class ReviewUnit:
    """One (item, model) output a reviewer may be shown."""

    item_index: int  # position of the item in the round's items
    item_id: str
    model_id: str
    prompt: str
    output: str
    automatic: str  # what automatic scoring answered for this output
    stratum: tuple[str, ...]  # the kind's sampling strata beside the model


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

    def compare(self, value: str) -> str:
        """A choice or an automatic value in the comparison space."""
        return self.comparison[value]

    def label(self, language: str, value: str) -> str:
        return self.labels[language][value]
