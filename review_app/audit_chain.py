"""Checking the audit log's hash chain (`reportgen review verify-audit`).

Each entry carries the hash of the one before it (`review_app.db.audit`), as the
annulment ledger does: altering an entry breaks the link of the next one, removing
entries breaks the link across the gap. The newest entry is protected by no successor:
the head hash this check reports is what to record elsewhere, and on PostgreSQL the
app's role cannot delete or truncate at all (docs/review-database.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine

from review_app.db import audit_entry_sha256, audit_log
from review_app.errors import ReviewError

# Rows fetched per round trip: a long log is checked without holding it in memory.
_BATCH_ROWS = 1000


class AuditChainBroken(ReviewError):
    """An audit entry does not carry the hash of the entry before it."""

    def __init__(self, key: str, *, entry: int, previous: int | None = None) -> None:
        super().__init__(key, entry=entry, previous=previous)
        self.entry = entry


@dataclass(frozen=True)
class AuditChain:
    """An intact chain: how many entries, and the hash of the newest one."""

    entries: int
    head_sha256: str


def verify_audit_chain(engine: Engine) -> AuditChain:
    """Walk the log in entry order; AuditChainBroken names the first entry whose link
    does not match the entry before it."""
    expected = ""
    previous: int | None = None
    count = 0
    with (
        engine.connect() as connection,
        connection.execution_options(yield_per=_BATCH_ROWS).execute(
            audit_log.select().order_by(audit_log.c.entry_id)
        ) as rows,
    ):
        for row in rows:
            entry = row._mapping
            if entry["prev_sha256"] != expected:
                key = "error_audit_first_entry" if previous is None else "error_audit_link"
                raise AuditChainBroken(key, entry=int(entry["entry_id"]), previous=previous)
            expected = audit_entry_sha256(entry)
            previous = int(entry["entry_id"])
            count += 1
    return AuditChain(count, expected)
