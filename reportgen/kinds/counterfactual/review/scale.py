"""The reviewer's side of the counterfactual kind's `scale` task shape (its calibration):
one score and the mask flag, stored in the kind's own table (review.tables).

A scale judgment is a rubric judgment with one criterion (the judged variable) on the
task's 1-5 scale, plus the mask-audit answer "this answer still reveals the attribute",
written together in one transaction: a refused submission (a score of 0 or 6, not an
integer, a flag that is not a yes/no) changes nothing. Like `review_app.tasks.reviewing`,
everything here is filtered to the calling reviewer's own assignment and never reads
`sample_keys`: no group, name, system nor judge score is within reach.
"""

from __future__ import annotations

from sqlalchemy import Connection, Engine, select, update
from sqlalchemy.exc import IntegrityError

from reportgen.kinds.counterfactual.review.tables import mask_flags
from reportgen.kinds.review_task import SCALE_SHAPE, SCORED
from review_app.core.auth import require
from review_app.core.db import audit, judgment_changes, judgments, now_utc
from review_app.core.errors import ReviewInputError
from review_app.tasks.judgment_versions import update_judgment
from review_app.tasks.lookup import task_of_kind
from review_app.tasks.own_assignment import (
    _Assignment,
    _check_note,
    _own_assignment,
    open_assignment,
)
from review_app.tasks.rubric import checked_scores, criteria_of, own_scores, replace_scores


def _own_flag(connection: Connection, assignment_id: int) -> bool | None:
    value = connection.execute(
        select(mask_flags.c.reveals).where(mask_flags.c.assignment_id == assignment_id)
    ).scalar()
    return None if value is None else bool(value)


def my_mask_flag(engine: Engine, token: str | None, code: str) -> bool:
    """The caller's own mask-audit answer for sample `code` (False when not given)."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
        return bool(_own_flag(connection, row.assignment_id))


def submit_scale(
    engine: Engine,
    token: str | None,
    code: str,
    score: object,
    reveals: object,
    note: str | None = None,
    *,
    seen: str | None = None,
) -> bool:
    """Record or revise the caller's score of scale sample `code` (an integer of the
    task's scale) and their mask-audit answer. Returns False when the same score, flag
    and note were already recorded. A refusal changes nothing; so does a save naming
    (`seen`) another version of the judgment than the stored one."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
    task = task_of_kind(row.kind, row.task_type)
    criteria = criteria_of(row.criteria)
    if task.shape != SCALE_SHAPE or task.scale is None or len(criteria) != 1:
        raise ReviewInputError("cf_error_not_scale", code=code)
    scores = {criteria[0].criterion_id: score} if score is not None else {}
    checked = checked_scores(criteria, task.scale, scores)
    if not isinstance(reveals, bool):
        raise ReviewInputError("cf_error_flag", value=reveals)
    clean_note = _check_note(note, required=False)
    try:
        return _record(engine, me.account_id, code, (checked, reveals, clean_note), seen)
    except IntegrityError:
        # Two submits raced (two tabs): the other inserted first; this one now updates
        # (or, naming the version it showed, is refused).
        return _record(engine, me.account_id, code, (checked, reveals, clean_note), seen)


def _record(
    engine: Engine,
    reviewer_id: int,
    code: str,
    judgment: tuple[dict[str, int], bool, str],
    seen: str | None,
) -> bool:
    scores, reveals, clean_note = judgment
    with engine.begin() as connection:
        row = open_assignment(connection, reviewer_id, code, seen)
        current = own_scores(connection, row.assignment_id)
        flag = _own_flag(connection, row.assignment_id)
        same_judgment = (
            row.choice == SCORED and current == scores and (row.note or "") == clean_note
        )
        if same_judgment and flag == reveals:
            return False
        now = now_utc()
        if not same_judgment:
            _write_change(connection, row.assignment_id, row.choice, row.note, current)
            replace_scores(connection, row.assignment_id, scores)
            _set_judgment(connection, row, clean_note, seen)
        else:  # the flag alone changes: the judgment's version moves with it
            update_judgment(connection, row, seen, revised_at=now)
        if flag is None:
            connection.execute(
                mask_flags.insert().values(
                    assignment_id=row.assignment_id, reveals=reveals, flagged_at=now
                )
            )
        elif flag != reveals:
            connection.execute(
                update(mask_flags)
                .where(mask_flags.c.assignment_id == row.assignment_id)
                .values(reveals=reveals, flagged_at=now)
            )
        action = "judge" if row.judgment_id is None else "revise_judgment"
        detail = {"code": code, "choice": SCORED, "scores": scores, "reveals_attribute": reveals}
        audit(connection, reviewer_id, action, detail)
    return True


def _write_change(
    connection: Connection,
    assignment_id: int,
    choice: str | None,
    note: str | None,
    scores: dict[str, int],
) -> None:
    """What the change replaces, so that the reviewer can undo it (the flag is its own
    answer and stays as last given)."""
    connection.execute(
        judgment_changes.insert().values(
            assignment_id=assignment_id,
            previous_choice=choice,
            previous_note=note or "",
            previous_scores=scores or None,
            changed_at=now_utc(),
        )
    )


def _set_judgment(
    connection: Connection, row: _Assignment, clean_note: str, seen: str | None
) -> None:
    now = now_utc()
    if row.judgment_id is None:
        connection.execute(
            judgments.insert().values(
                assignment_id=row.assignment_id, choice=SCORED, note=clean_note, submitted_at=now
            )
        )
    else:
        update_judgment(connection, row, seen, choice=SCORED, note=clean_note, revised_at=now)
