"""The reviewer's side: their queue, one sample's texts, submitting a judgment and undoing
the last one.

Blindness lives here. These functions read only `samples`, `assignments`, `judgments`,
`judgment_changes`, `batches` and the round's kind, always filtered to the calling
reviewer; they never touch `sample_keys` (model, automatic answer) nor another reviewer's
rows. A test records the SQL they send and checks it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import Connection, Engine, delete, func, select, update
from sqlalchemy.exc import IntegrityError

from reportgen.kinds import TaskShape
from reportgen.kinds.review_task import ReviewTask, RubricCriterion
from review_app.core.auth import require
from review_app.core.db import (
    assignments,
    audit,
    batches,
    judgment_changes,
    judgments,
    now_utc,
    samples,
)
from review_app.core.errors import ReviewInputError
from review_app.tasks.judgment_versions import (
    judgment_version,
    update_judgment,
)
from review_app.tasks.lookup import task_of_kind
from review_app.tasks.own_assignment import _check_note, _own_assignment, open_assignment
from review_app.tasks.shapes import task_shape


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
    task: ReviewTask  # the batch's review task: the choices, or the rubric's scale
    language: str | None = None  # the statement's language (BCP-47), for `lang`
    criteria: tuple[RubricCriterion, ...] = ()  # a rubric task's criteria, in order
    scores: Mapping[str, int] = field(default_factory=dict)  # the caller's own scores
    # The judgment as loaded ("" when none), which a save from this page names: a save
    # naming an older version (another tab saved since) is refused, not applied.
    version: str = ""
    kind: str = ""  # the round's kind, whose review part may bring the task's shape

    @property
    def shape(self) -> TaskShape:
        """How the page shows this sample (review_app.tasks.shapes)."""
        return task_shape(self.kind, self.task, len(self.criteria))


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
            # A held batch awaits the administrator's leak review (review_app.rounds.batch_release).
            .where(batches.c.released_at.is_not(None))
            .order_by(batches.c.batch_id, assignments.c.position)
        ).all()
    return [QueueEntry(r.code, r.position, r.choice, r.closed_at is not None) for r in rows]


def awaiting_release(engine: Engine, token: str | None) -> int:
    """How many of the caller's samples are in batches still held for the leak review
    (the page says why the queue is empty); their texts stay out of reach."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        count = connection.execute(
            select(func.count())
            .select_from(assignments)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .join(batches, batches.c.batch_id == samples.c.batch_id)
            .where(assignments.c.reviewer_id == me.account_id)
            .where(batches.c.released_at.is_(None))
        ).scalar_one()
    return int(count)


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
    from review_app.tasks.rubric import criteria_of, own_scores

    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
        scores = own_scores(connection, row.assignment_id) if row.criteria is not None else {}
    return ReviewSample(
        row.code,
        row.prompt_text,
        row.output_text,
        row.choice,
        row.note or "",
        row.closed_at is not None,
        task_of_kind(row.kind, row.task_type),
        language=row.language,
        criteria=criteria_of(row.criteria),
        scores=scores,
        version=judgment_version(row),
        kind=row.kind,
    )


def submit_judgment(
    engine: Engine,
    token: str | None,
    code: str,
    choice: str,
    note: str | None = None,
    *,
    seen: str | None = None,
) -> bool:
    """Record or revise the caller's judgment of sample `code`.

    Returns False when the same judgment was already recorded (a repeated submit
    records once). The note is optional, except for the choices the round's task says
    need one (Estigmas: `unclassifiable`, the administrator must know why); a note of
    only spaces or over NOTE_MAX_CHARS is refused. `seen` is the version of the
    judgment the page showed (`ReviewSample.version`): when the judgment has changed
    since (another tab), the save is refused (`check_version`).
    """
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
    task = task_of_kind(row.kind, row.task_type)
    if task.is_rubric:
        # A rubric sample is judged criterion by criterion (`submit_scores`).
        raise ReviewInputError("error_scores_required", code=code)
    # A count unit (the counterfactual extraction check: one criterion) takes a number.
    if not task.accepts(choice, counted=bool(row.criteria)):
        raise ReviewInputError("error_choice", choice=choice)
    clean_note = _check_note(note, required=choice in task.note_required)
    try:
        return _record(engine, me.account_id, code, (choice, clean_note), seen)
    except IntegrityError:
        # Two submits of the same sample raced (two tabs, a double click on PostgreSQL):
        # the other one inserted first, so this one now sees it and updates or no-ops
        # (or, naming the version it showed, is refused).
        return _record(engine, me.account_id, code, (choice, clean_note), seen)


def _record(
    engine: Engine, reviewer_id: int, code: str, judgment: tuple[str, str], seen: str | None
) -> bool:
    choice, clean_note = judgment
    with engine.begin() as connection:
        row = open_assignment(connection, reviewer_id, code, seen)
        now = now_utc()
        if (row.choice, row.note or "") == (choice, clean_note):
            return False
        # What this change replaces, so that the reviewer can undo it.
        connection.execute(
            judgment_changes.insert().values(
                assignment_id=row.assignment_id,
                previous_choice=row.choice,
                previous_note=row.note or "",
                changed_at=now,
            )
        )
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
        else:
            update_judgment(connection, row, seen, choice=choice, note=clean_note, revised_at=now)
            action = "revise_judgment"
        audit(connection, reviewer_id, action, {"code": code, "choice": choice})
    return True


@dataclass(frozen=True)
class LastJudgment:
    """The caller's last change of a judgment, which they may still undo."""

    change_id: int
    code: str
    choice: str  # the judgment that change recorded


@dataclass(frozen=True)
class UndoneJudgment:
    code: str
    choice: str  # the judgment taken back
    note: str  # its note, which the page keeps as a draft
    restored: str | None  # the judgment in force again (None: the sample is unjudged)


def last_judgment(engine: Engine, token: str | None) -> LastJudgment | None:
    """The caller's last change of a judgment, if it is not undone and its batch is open."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        change = _last_change(connection, me.account_id)
        if change is None or change.undone_at is not None:
            return None
        row = _own_assignment(connection, me.account_id, change.code)
    if row.closed_at is not None or row.choice is None:
        return None
    return LastJudgment(change.change_id, change.code, row.choice)


def undo_last_judgment(
    engine: Engine, token: str | None, change_id: int | None = None
) -> UndoneJudgment | None:
    """Take back the caller's last change of a judgment, until its batch closes.

    Only the last change can be undone, once. With `change_id` (what the page offered),
    a newer change (another tab, a late keypress) makes this a no-op: the reviewer undoes
    what they saw. Returns None when there is nothing to undo.
    """
    me = require(engine, token, "reviewer")
    with engine.begin() as connection:
        change = _last_change(connection, me.account_id)
        if change is None or change.undone_at is not None:
            return None
        if change_id is not None and change.change_id != change_id:
            return None
        row = _own_assignment(connection, me.account_id, change.code)
        if row.closed_at is not None:
            raise ReviewInputError("error_batch_closed", code=change.code)
        now = now_utc()
        # The WHERE on undone_at makes two racing undos take back one change only.
        claimed = connection.execute(
            update(judgment_changes)
            .where(judgment_changes.c.change_id == change.change_id)
            .where(judgment_changes.c.undone_at.is_(None))
            .values(undone_at=now)
        )
        if claimed.rowcount != 1 or row.judgment_id is None or row.choice is None:
            return None
        if row.criteria is not None:
            from review_app.tasks.rubric import replace_scores

            # A rubric judgment: its scores go back with it (none when it was unjudged).
            previous = change.previous_scores if change.previous_choice is not None else None
            replace_scores(connection, row.assignment_id, previous)
        if change.previous_choice is None:
            connection.execute(delete(judgments).where(judgments.c.judgment_id == row.judgment_id))
        else:
            connection.execute(
                update(judgments)
                .where(judgments.c.judgment_id == row.judgment_id)
                .values(choice=change.previous_choice, note=change.previous_note, revised_at=now)
            )
        audit(
            connection,
            me.account_id,
            "undo_judgment",
            {"code": change.code, "undone": row.choice, "restored": change.previous_choice},
        )
    return UndoneJudgment(change.code, row.choice, row.note or "", change.previous_choice)


@dataclass(frozen=True)
class _Change:
    change_id: int
    code: str
    previous_choice: str | None
    previous_note: str
    undone_at: datetime | None
    previous_scores: dict[str, int] | None


def _last_change(connection: Connection, reviewer_id: int) -> _Change | None:
    row = connection.execute(
        select(
            judgment_changes.c.change_id,
            samples.c.code,
            judgment_changes.c.previous_choice,
            judgment_changes.c.previous_note,
            judgment_changes.c.undone_at,
            judgment_changes.c.previous_scores,
        )
        .select_from(judgment_changes)
        .join(assignments, assignments.c.assignment_id == judgment_changes.c.assignment_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .where(assignments.c.reviewer_id == reviewer_id)
        .order_by(judgment_changes.c.change_id.desc())
        .limit(1)
    ).first()
    return None if row is None else _Change(*row)
