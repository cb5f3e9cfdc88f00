"""The review task of a round's kind (choices, labels, comparison with scoring)."""

from __future__ import annotations

from sqlalchemy import Connection, select

from reportgen.kinds import get_kind
from reportgen.kinds.review_task import ReviewTask
from review_app.db import batches, rounds, samples
from review_app.errors import ReviewInputError


def task_of_kind(kind: str) -> ReviewTask:
    """The review task the kind declares (through the registry of kinds)."""
    return get_kind(kind).review_task


def task_of_round(connection: Connection, round_id: str) -> ReviewTask:
    kind = connection.execute(select(rounds.c.kind).where(rounds.c.round_id == round_id)).scalar()
    if kind is None:
        raise ReviewInputError("error_unknown_round", round_id=round_id)
    return task_of_kind(str(kind))


def task_of_sample_code(connection: Connection, code: str) -> ReviewTask | None:
    """The task of the sample `code` (None when there is no such sample)."""
    kind = connection.execute(
        select(rounds.c.kind)
        .select_from(samples)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(rounds, rounds.c.round_id == batches.c.round_id)
        .where(samples.c.code == code)
    ).scalar()
    return None if kind is None else task_of_kind(str(kind))
