"""The review task of a round's kind (choices, labels, comparison with scoring), or one of
the kind's other tasks (a batch's `task_type`: multidomain "audit" or "calibration")."""

from __future__ import annotations

from sqlalchemy import Connection, select

from reportgen.kinds import get_kind
from reportgen.kinds.review_task import ReviewTask
from review_app.core.db import batches, rounds, samples
from review_app.core.errors import ReviewInputError


def task_of_kind(kind: str, task_type: str | None = None) -> ReviewTask:
    """The review task the kind declares (through the registry of kinds); with
    `task_type`, that one of the kind's tasks."""
    task = get_kind(kind).review_task
    try:
        return task.variant(task_type)
    except KeyError:
        raise ReviewInputError("error_unknown_task", kind=kind, task_type=task_type) from None


def task_types_of_kind(kind: str) -> tuple[str, ...]:
    """Every task type the kind offers, its own first."""
    task = get_kind(kind).review_task
    return (task.task_type, *(name for name in task.related if name != task.task_type))


def task_of_round(connection: Connection, round_id: str) -> ReviewTask:
    kind = connection.execute(select(rounds.c.kind).where(rounds.c.round_id == round_id)).scalar()
    if kind is None:
        raise ReviewInputError("error_unknown_round", round_id=round_id)
    return task_of_kind(str(kind))


def task_of_sample_code(connection: Connection, code: str) -> ReviewTask | None:
    """The task of the sample `code` (None when there is no such sample)."""
    row = connection.execute(
        select(rounds.c.kind, batches.c.task_type)
        .select_from(samples)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(rounds, rounds.c.round_id == batches.c.round_id)
        .where(samples.c.code == code)
    ).first()
    return None if row is None else task_of_kind(str(row.kind), row.task_type)
