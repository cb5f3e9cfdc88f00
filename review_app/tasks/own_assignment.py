"""One reviewer's own assignment of a sample, read for a judgment, and the checks of a
note: shared by the review tasks (`reviewing`, `rubric`, and a kind's own shape such as
the counterfactual `review.scale`).

Like `review_app.tasks.reviewing`, everything here is filtered to the calling reviewer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, and_, select

from review_app.core.db import NOTE_MAX_CHARS, assignments, batches, judgments, rounds, samples
from review_app.core.errors import ReviewInputError
from review_app.tasks.judgment_versions import CHANGED_AT, check_version


def _check_note(note: str | None, *, required: bool) -> str:
    if note is None or note == "":
        if required:
            raise ReviewInputError("error_note_required")
        return ""
    if not note.strip():
        raise ReviewInputError("error_note_blank")
    if len(note) > NOTE_MAX_CHARS:
        raise ReviewInputError("error_note_long", maximum=NOTE_MAX_CHARS, length=len(note))
    return note.strip()


@dataclass(frozen=True)
class _Assignment:
    assignment_id: int
    code: str
    prompt_text: str
    output_text: str
    judgment_id: int | None
    choice: str | None
    note: str | None
    changed_at: datetime | None  # when the judgment was last revised, else recorded
    closed_at: datetime | None
    kind: str
    task_type: str | None
    language: str | None
    criteria: object  # samples.criteria: a list of criteria (rubric task) or None


def _own_assignment(connection: Connection, reviewer_id: int, code: str) -> _Assignment:
    row = connection.execute(
        select(
            assignments.c.assignment_id,
            samples.c.code,
            samples.c.prompt_text,
            samples.c.output_text,
            judgments.c.judgment_id,
            judgments.c.choice,
            judgments.c.note,
            CHANGED_AT.label("changed_at"),
            batches.c.closed_at,
            rounds.c.kind,
            batches.c.task_type,
            samples.c.language,
            samples.c.criteria,
            batches.c.released_at,
        )
        .select_from(assignments)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(rounds, rounds.c.round_id == batches.c.round_id)
        .outerjoin(judgments, judgments.c.assignment_id == assignments.c.assignment_id)
        .where(and_(assignments.c.reviewer_id == reviewer_id, samples.c.code == code))
    ).first()
    if row is None:
        # The same message whether the code does not exist or belongs to someone
        # else's queue: a reviewer learns nothing about other queues.
        raise ReviewInputError("error_unknown_sample", code=code)
    if row.released_at is None:
        # Held for the leak review: neither its texts nor a judgment until it is released.
        raise ReviewInputError("error_batch_held", code=code)
    fields = dict(row._mapping)
    del fields["released_at"]
    return _Assignment(**fields)


def open_assignment(
    connection: Connection, reviewer_id: int, code: str, seen: str | None
) -> _Assignment:
    """The reviewer's own assignment of `code`, for a save, whatever the task's shape:
    refused when its batch is closed, or when its judgment changed since the screen showed
    version `seen` (`check_version`: another tab saved first)."""
    row = _own_assignment(connection, reviewer_id, code)
    if row.closed_at is not None:
        raise ReviewInputError("error_batch_closed", code=code)
    check_version(connection, row, seen)
    return row
