"""The reviewer's side: their queue, one sample's texts, and submitting a judgment.

Blindness lives here. These functions read only `samples`, `assignments`,
`judgments` and `batches`, always filtered to the calling reviewer; they never touch
`sample_keys` (model, automatic answer) nor another reviewer's rows. A test records the
SQL they send and checks it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, and_, select, update
from sqlalchemy.exc import IntegrityError

from reportgen.kinds.review_task import ReviewTask
from review_app.auth import require
from review_app.db import (
    NOTE_MAX_CHARS,
    assignments,
    audit,
    batches,
    judgments,
    now_utc,
    rounds,
    samples,
)
from review_app.errors import ReviewInputError
from review_app.tasks import task_of_kind


@dataclass(frozen=True)
class QueueEntry:
    code: str
    position: int
    choice: str | None
    closed: bool


@dataclass(frozen=True)
class ReviewSample:
    """What a reviewer may see of a sample: anonymised texts and their own judgment."""

    code: str
    prompt_text: str
    output_text: str
    choice: str | None
    note: str
    closed: bool
    task: ReviewTask  # the round's review task: the choices to offer


def my_queue(engine: Engine, token: str | None) -> list[QueueEntry]:
    """The caller's assigned samples, in their shuffled order."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                samples.c.code,
                assignments.c.position,
                judgments.c.choice,
                batches.c.closed_at,
            )
            .select_from(assignments)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .join(batches, batches.c.batch_id == samples.c.batch_id)
            .outerjoin(judgments, judgments.c.assignment_id == assignments.c.assignment_id)
            .where(assignments.c.reviewer_id == me.account_id)
            .order_by(batches.c.batch_id, assignments.c.position)
        ).all()
    return [QueueEntry(r.code, r.position, r.choice, r.closed_at is not None) for r in rows]


def next_code(queue: list[QueueEntry], after: str | None = None) -> str | None:
    """The first unjudged open sample after `after` (wrapping around), else None."""
    open_unjudged = [e.code for e in queue if e.choice is None and not e.closed]
    if not open_unjudged:
        return None
    codes = [e.code for e in queue]
    if after in codes:
        start = codes.index(after)
        for entry in queue[start + 1 :] + queue[: start + 1]:
            if entry.choice is None and not entry.closed:
                return entry.code
    return open_unjudged[0]


def load_sample(engine: Engine, token: str | None, code: str) -> ReviewSample:
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
    return ReviewSample(
        row.code,
        row.prompt_text,
        row.output_text,
        row.choice,
        row.note or "",
        row.closed_at is not None,
        task_of_kind(row.kind),
    )


def submit_judgment(
    engine: Engine, token: str | None, code: str, choice: str, note: str | None = None
) -> bool:
    """Record or revise the caller's judgment of sample `code`.

    Returns False when the same judgment was already recorded (a repeated submit
    records once). The note is optional, except for the choices the round's task says
    need one (Estigmas: `unclassifiable`, the administrator must know why); a note of
    only spaces or over NOTE_MAX_CHARS is refused.
    """
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        task = task_of_kind(_own_assignment(connection, me.account_id, code).kind)
    if choice not in task.choices:
        raise ReviewInputError("error_choice", choice=choice)
    clean_note = _check_note(note, required=choice in task.note_required)
    try:
        return _record(engine, me.account_id, code, choice, clean_note)
    except IntegrityError:
        # Two submits of the same sample raced (two tabs, a double click on PostgreSQL):
        # the other one inserted first, so this one now sees it and updates or no-ops.
        return _record(engine, me.account_id, code, choice, clean_note)


def _record(engine: Engine, reviewer_id: int, code: str, choice: str, clean_note: str) -> bool:
    with engine.begin() as connection:
        row = _own_assignment(connection, reviewer_id, code)
        if row.closed_at is not None:
            raise ReviewInputError("error_batch_closed", code=code)
        now = now_utc()
        if row.judgment_id is None:
            connection.execute(
                judgments.insert().values(
                    assignment_id=row.assignment_id,
                    choice=choice,
                    note=clean_note,
                    submitted_at=now,
                )
            )
            action = "judge"
        elif (row.choice, row.note or "") == (choice, clean_note):
            return False
        else:
            connection.execute(
                update(judgments)
                .where(judgments.c.judgment_id == row.judgment_id)
                .values(choice=choice, note=clean_note, revised_at=now)
            )
            action = "revise_judgment"
        audit(connection, reviewer_id, action, {"code": code, "choice": choice})
    return True


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
    closed_at: datetime | None
    kind: str


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
            batches.c.closed_at,
            rounds.c.kind,
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
    return _Assignment(*row)
