"""The audit log's length and newest hash, kept beside it so that a log emptied, or cut
at its end, no longer matches (`reportgen review verify-audit`).

The chain protects each entry by the next one's link; nothing protects the newest, and
an emptied log is a valid chain of no entries. So every append (`review_app.db.audit`)
also rewrites this one row: how many entries the log holds and the hash of the newest.
Removing entries at the end, or all of them, then shows as a count and head that do not
match. Someone who can rewrite the file can rewrite this row too: the hash printed by
`verify-audit` and recorded elsewhere (`--expect-head`) is the anchor that survives that.
"""

from __future__ import annotations

from sqlalchemy import Column, Connection, Integer, String, Table, func, select, update

from review_app.db import audit_entry_sha256, audit_log, metadata

HEAD_ROW = 1

audit_head = Table(
    "audit_head",
    metadata,
    Column("head_id", Integer, primary_key=True),  # one row, HEAD_ROW
    Column("entries", Integer, nullable=False),
    Column("head_sha256", String(64), nullable=False),
)


def record_head(connection: Connection, entry_id: int) -> None:
    """After appending `entry_id`: one more entry, and its hash the newest. A database
    from before this table gets its row at its first append, counted from the log."""
    newest = connection.execute(audit_log.select().where(audit_log.c.entry_id == entry_id)).one()
    head = audit_entry_sha256(newest._mapping)
    moved = connection.execute(
        update(audit_head)
        .where(audit_head.c.head_id == HEAD_ROW)
        .values(entries=audit_head.c.entries + 1, head_sha256=head)
    )
    if moved.rowcount == 0:
        entries = connection.execute(select(func.count()).select_from(audit_log)).scalar_one()
        connection.execute(
            audit_head.insert().values(head_id=HEAD_ROW, entries=entries, head_sha256=head)
        )


def recorded_head(connection: Connection) -> tuple[int, str] | None:
    """(entries, head hash) as last recorded, or None when no append recorded one."""
    row = connection.execute(
        select(audit_head.c.entries, audit_head.c.head_sha256).where(
            audit_head.c.head_id == HEAD_ROW
        )
    ).first()
    return None if row is None else (int(row.entries), str(row.head_sha256))
