"""Checking the audit log's hash chain (`reportgen review verify-audit`).

Each entry carries the hash of the one before it (`review_app.core.db.audit`), as the
annulment ledger does: altering an entry breaks the link of the next one, removing
entries breaks the link across the gap. The newest entry is protected by no successor:
the log's length and newest hash are kept beside it (`audit_head` in review_app.core.db), so that
entries cut at its end, or an emptied log, are reported too; the head hash this check
reports is what to record elsewhere (and to give back as `--expect-head`), and on
PostgreSQL the app's role cannot delete or truncate at all (docs/review-database.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Engine, select

from review_app.core.db import (
    HEAD_ROW,
    accounts,
    audit_entry_sha256,
    audit_head,
    audit_log,
)
from review_app.core.errors import ReviewError

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


def verify_audit_chain(engine: Engine, expect_head: str | None = None) -> AuditChain:
    """Walk the log in entry order; AuditChainBroken names the first entry whose link
    does not match the entry before it. AuditLogIncomplete when the log is shorter than
    recorded (audit_head), empty while accounts exist, or no longer holds `expect_head`
    (a newest hash noted elsewhere earlier)."""
    expected = ""
    previous: int | None = None
    count = 0
    seen_expected = expect_head is None
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
            seen_expected = seen_expected or expected == expect_head
            previous = int(entry["entry_id"])
            count += 1
    with engine.connect() as connection:
        _check_complete(connection, AuditChain(count, expected))
    if not seen_expected:
        raise AuditLogIncomplete("error_audit_head_absent", head=expect_head, entries=count)
    return AuditChain(count, expected)


class AuditLogIncomplete(ReviewError):
    """Entries are missing at the log's end (or all of them): nothing links to them."""


def _check_complete(connection: Connection, chain: AuditChain) -> None:
    recorded = recorded_head(connection)
    if recorded is None:
        if chain.entries:
            raise AuditLogIncomplete("error_audit_head_missing", entries=chain.entries)
        if connection.execute(select(accounts.c.account_id).limit(1)).first() is not None:
            raise AuditLogIncomplete("error_audit_empty")
        return
    entries, head = recorded
    if (entries, head) != (chain.entries, chain.head_sha256):
        raise AuditLogIncomplete(
            "error_audit_truncated", entries=chain.entries, recorded=entries, head=head
        )


def recorded_head(connection: Connection) -> tuple[int, str] | None:
    """(entries, head hash) as last recorded, or None when no append recorded one."""
    row = connection.execute(
        select(audit_head.c.entries, audit_head.c.head_sha256).where(
            audit_head.c.head_id == HEAD_ROW
        )
    ).first()
    return None if row is None else (int(row.entries), str(row.head_sha256))
