"""The reviewer's side of a rubric task: scoring each criterion of a sample.

A rubric judgment is one `judgments` row (choice SCORED) and one `criterion_scores` row
per criterion, written in one transaction: a refused submission (a criterion missing, a
score not an integer of the scale, a criterion the sample does not have) changes
nothing. Like `review_app.tasks.reviewing`, everything here is filtered to the calling
reviewer's own assignment and never reads `sample_keys`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from sqlalchemy import Connection, Engine, delete, select
from sqlalchemy.exc import IntegrityError

from reportgen.kinds.review_task import SCORED, RubricCriterion
from review_app.core.auth import require
from review_app.core.db import (
    audit,
    criterion_scores,
    judgment_changes,
    judgments,
    now_utc,
)
from review_app.core.errors import ReviewInputError
from review_app.tasks.judgment_versions import update_judgment
from review_app.tasks.lookup import task_of_kind
from review_app.tasks.own_assignment import _check_note, _own_assignment, open_assignment


def criteria_of(stored: object) -> tuple[RubricCriterion, ...]:
    """The criteria a sample stores (`samples.criteria`), in order; () for a choice task."""
    if not isinstance(stored, list):
        return ()
    return tuple(RubricCriterion(**{k: str(v) for k, v in entry.items()}) for entry in stored)


def own_scores(connection: Connection, assignment_id: int) -> dict[str, int]:
    """criterion_id -> score of one assignment (the caller's own: see the callers)."""
    rows = connection.execute(
        select(criterion_scores.c.criterion_id, criterion_scores.c.score).where(
            criterion_scores.c.assignment_id == assignment_id
        )
    ).all()
    return {str(criterion): int(score) for criterion, score in rows}


def replace_scores(
    connection: Connection, assignment_id: int, scores: Mapping[str, int] | None
) -> None:
    """Set an assignment's scores to `scores` (None or empty: none), inside the caller's
    transaction."""
    connection.execute(
        delete(criterion_scores).where(criterion_scores.c.assignment_id == assignment_id)
    )
    if scores:
        connection.execute(
            criterion_scores.insert(),
            [
                {"assignment_id": assignment_id, "criterion_id": criterion, "score": score}
                for criterion, score in sorted(scores.items())
            ],
        )


def checked_scores(
    criteria: Sequence[RubricCriterion], scale: tuple[int, int], scores: Mapping[str, object]
) -> dict[str, int]:
    """`scores` as criterion_id -> int, or the first problem as a clear error: a criterion
    the sample does not have, a criterion without a score, a score that is not an integer
    (2.5, "3", True) or is outside the scale."""
    known = {criterion.criterion_id for criterion in criteria}
    for criterion_id in scores:
        if criterion_id not in known:
            raise ReviewInputError("error_score_unknown_criterion", criterion=criterion_id)
    low, high = scale
    checked: dict[str, int] = {}
    for criterion in criteria:
        # The English name; the page puts the name in its own language (`criterion_id`).
        names = {"criterion": criterion.name_en, "criterion_id": criterion.criterion_id}
        value = scores.get(criterion.criterion_id)
        if value is None:
            raise ReviewInputError("error_score_missing", **names)
        if isinstance(value, bool) or not isinstance(value, int):
            raise ReviewInputError("error_score_not_integer", value=value, **names)
        if not low <= value <= high:
            raise ReviewInputError("error_score_range", value=value, low=low, high=high, **names)
        checked[criterion.criterion_id] = value
    return checked


def submit_scores(
    engine: Engine,
    token: str | None,
    code: str,
    scores: Mapping[str, object],
    note: str | None = None,
    *,
    seen: str | None = None,
) -> bool:
    """Record or revise the caller's scores of rubric sample `code`: every criterion, an
    integer of the task's scale. Returns False when the same scores (and note) were
    already recorded. A refusal changes nothing; so does a save naming (`seen`) another
    version of the judgment than the stored one (`review_app.tasks.judgment_versions`)."""
    me = require(engine, token, "reviewer")
    with engine.connect() as connection:
        row = _own_assignment(connection, me.account_id, code)
    task = task_of_kind(row.kind, row.task_type)
    criteria = criteria_of(row.criteria)
    if task.scale is None or not criteria:
        raise ReviewInputError("error_not_rubric", code=code)
    checked = checked_scores(criteria, task.scale, scores)
    clean_note = _check_note(note, required=False)
    try:
        return _record_scores(engine, me.account_id, code, (checked, clean_note), seen)
    except IntegrityError:
        # Two submits raced (two tabs): the other inserted first; this one now updates
        # (or, naming the version it showed, is refused).
        return _record_scores(engine, me.account_id, code, (checked, clean_note), seen)


def _record_scores(
    engine: Engine,
    reviewer_id: int,
    code: str,
    judgment: tuple[dict[str, int], str],
    seen: str | None,
) -> bool:
    scores, clean_note = judgment
    with engine.begin() as connection:
        row = open_assignment(connection, reviewer_id, code, seen)
        current = own_scores(connection, row.assignment_id)
        if row.choice == SCORED and current == scores and (row.note or "") == clean_note:
            return False
        now = now_utc()
        # What this change replaces, so that the reviewer can undo it.
        connection.execute(
            judgment_changes.insert().values(
                assignment_id=row.assignment_id,
                previous_choice=row.choice,
                previous_note=row.note or "",
                previous_scores=current or None,
                changed_at=now,
            )
        )
        if row.judgment_id is None:
            connection.execute(
                judgments.insert().values(
                    assignment_id=row.assignment_id,
                    choice=SCORED,
                    note=clean_note,
                    submitted_at=now,
                )
            )
            action = "judge"
        else:
            update_judgment(connection, row, seen, choice=SCORED, note=clean_note, revised_at=now)
            action = "revise_judgment"
        replace_scores(connection, row.assignment_id, scores)
        audit(connection, reviewer_id, action, {"code": code, "choice": SCORED, "scores": scores})
    return True
