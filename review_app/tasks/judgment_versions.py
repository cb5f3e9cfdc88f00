"""Which version of a judgment a page showed, and the refusal of a save made from a stale
one (a second tab or window that still shows what the first has since changed).

A judgment's version is its id and when it last changed; a page remembers the version it
showed (`review_app.pages.versions`) and names it when it saves. Every writer of a judgment
(`reviewing`, `rubric`, a kind's own shape such as the counterfactual `review.scale`)
checks it inside the transaction that
writes, and its update repeats the check in its WHERE clause.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import Connection, func, select, update

from review_app.core.db import as_utc, judgment_changes, judgments, now_utc
from review_app.core.errors import ReviewInputError

if TYPE_CHECKING:
    from review_app.tasks.own_assignment import _Assignment

# When a judgment last changed: the moment it was revised, else recorded.
CHANGED_AT = func.coalesce(judgments.c.revised_at, judgments.c.submitted_at)


def judgment_version(row: _Assignment) -> str:
    """The version of an assignment's judgment: its id and when it last changed ("" when
    there is none)."""
    if row.judgment_id is None or row.changed_at is None:
        return ""
    return f"{row.judgment_id}@{as_utc(row.changed_at).isoformat()}"


def check_version(connection: Connection, row: _Assignment, seen: str | None) -> None:
    """Refuse a save from a page that showed another version of the judgment than the
    one stored (`seen` None: the caller does not say, e.g. a script)."""
    if seen is not None and seen != judgment_version(row):
        _refuse_changed(connection, row)


def update_judgment(
    connection: Connection, row: _Assignment, seen: str | None, **values: object
) -> None:
    """Update the assignment's judgment. Naming the version seen, the update also checks
    that no one changed it since it was read: PostgreSQL's READ COMMITTED lets another
    transaction commit between this one's read and its write."""
    query = update(judgments).where(judgments.c.judgment_id == row.judgment_id)
    if seen is not None:
        query = query.where(CHANGED_AT.is_not_distinct_from(row.changed_at))
    if connection.execute(query.values(**values)).rowcount != 1:
        _refuse_changed(connection, row)


def _refuse_changed(connection: Connection, row: _Assignment) -> None:
    """The refusal of a stale save, saying when the judgment last changed (UTC)."""
    changes = connection.execute(
        select(
            func.max(judgment_changes.c.changed_at), func.max(judgment_changes.c.undone_at)
        ).where(judgment_changes.c.assignment_id == row.assignment_id)
    ).one()
    moments = [as_utc(m) for m in (row.changed_at, *changes) if m is not None]
    when = max(moments) if moments else now_utc()
    raise ReviewInputError("error_judgment_changed", code=row.code, time=f"{when:%H:%M}")
