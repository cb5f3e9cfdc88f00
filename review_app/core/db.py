"""The review database: schema, engine and the audit log.

The schema is split by who may read it. Tables a reviewer's queries touch
(`samples`, `assignments`, `judgments`) hold no model identity, no automatic answer and
no other reviewer's work beyond what the query filters out by reviewer. Everything
that unblinds a sample lives in `sample_keys`, which `review_app.core.unblinding` defines and
alone reads (an import-linter contract keeps it from every reviewer-facing module).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    CheckConstraint,
    Column,
    Connection,
    CursorResult,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
    create_engine,
    event,
    func,
    select,
    text,
    update,
)

from review_app.core.audit_guard import (
    AUDIT_CHAIN_LOCK,
    POSTGRES_APPEND_ONLY,
    POSTGRES_GUARDED,
    SQLITE_APPEND_ONLY,
)

DEFAULT_DB_FILE = "review.db"
ROLES = ("reviewer", "admin", "participant")
NOTE_MAX_CHARS = 2000

metadata = MetaData()

accounts = Table(
    "accounts",
    metadata,
    Column("account_id", Integer, primary_key=True),
    Column("name", String(80), nullable=False, unique=True),
    # NFKC and case-folded: "R1" and "r1", or two encodings of "José", are one account.
    Column("name_key", String(80), nullable=False, unique=True),
    Column("role", String(20), nullable=False),
    Column("password_hash", String(255), nullable=False),
    Column("language", String(8), nullable=False, default="pt-BR"),
    Column("disabled", Boolean, nullable=False, default=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

login_sessions = Table(
    "login_sessions",
    metadata,
    Column("token_sha256", String(64), primary_key=True),
    Column("account_id", ForeignKey("accounts.account_id"), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
    Column("revoked", Boolean, nullable=False, default=False),
)

rounds = Table(
    "rounds",
    metadata,
    Column("round_id", String(100), primary_key=True),
    Column("round_dir", Text, nullable=False),  # absolute and resolved
    Column("kind", String(40), nullable=False),  # the round's kind: its review task
    # The archive's identity when the round entered the database: the hash of its
    # SHA256SUMS, checked before its ledger is appended to; for a raw round (a
    # counterfactual judge calibrated before the first freeze) the hash of the listing
    # SHA256SUMS would hold for its raw files (review_app.core.round_identity.listing_sha256).
    Column("sums_sha256", String(64), nullable=True),
    Column("published_on", DateTime(timezone=True), nullable=True),
    Column("contest_window_days", Integer, nullable=False, default=10),
)

batches = Table(
    "batches",
    metadata,
    Column("batch_id", Integer, primary_key=True),
    Column("round_id", ForeignKey("rounds.round_id"), nullable=False),
    Column("seed", Integer, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("closed_at", DateTime(timezone=True), nullable=True),
    # Which of the kind's review tasks the batch is (`ReviewTask.task_type`, e.g. "audit"
    # or "calibration" for multidomain); None: the kind's own task (Estigmas: "label").
    Column("task_type", String(40), nullable=True),
    # The leak review (review_app.rounds.batch_release): None while the batch is held, when no
    # reviewer query returns its samples. Set once: by whom (None: the CLI's operator or
    # the system), how ("admin", "cli", "automatic", "upgrade") and how many samples the
    # leak report flagged then.
    Column("released_at", DateTime(timezone=True), nullable=True),
    Column("released_by", Integer, nullable=True),
    Column("released_via", String(20), nullable=True),
    Column("flagged_at_release", Integer, nullable=True),
    # `sample` refuses a second draw of the same outputs (same round, same seed).
    UniqueConstraint("round_id", "seed"),
)

# Reviewer-visible: the anonymised texts only.
samples = Table(
    "samples",
    metadata,
    Column("sample_id", Integer, primary_key=True),
    Column("batch_id", ForeignKey("batches.batch_id"), nullable=False),
    Column("code", String(32), nullable=False, unique=True),
    Column("prompt_text", Text, nullable=False),
    Column("output_text", Text, nullable=False),
    # The statement's language (BCP-47), so the page can mark it (`lang="zh"`); None:
    # the page's language.
    Column("language", String(35), nullable=True),
    # A rubric task's criteria as the reviewer reads them, in order: a list of
    # {"criterion_id", "name_pt", "name_en", "anchor_0", "anchor_3", "anchor_5"};
    # None for a choice task (Estigmas), except a count of the counterfactual extraction
    # check: its one criterion is the counted variable. No score of anyone lives here.
    Column("criteria", JSON, nullable=True),
)

# Administrator-only: samples held back from reviewers (the leak report), with the
# assignments taken away, so that releasing one gives each reviewer back their place.
held_samples = Table(
    "held_samples",
    metadata,
    Column("sample_id", ForeignKey("samples.sample_id"), primary_key=True),
    Column("assignments", JSON, nullable=False),  # [[reviewer_id, position], ...]
    Column("held_by", ForeignKey("accounts.account_id"), nullable=True),
    Column("held_at", DateTime(timezone=True), nullable=False),
)

assignments = Table(
    "assignments",
    metadata,
    Column("assignment_id", Integer, primary_key=True),
    Column("sample_id", ForeignKey("samples.sample_id"), nullable=False),
    Column("reviewer_id", ForeignKey("accounts.account_id"), nullable=False),
    Column("position", Integer, nullable=False),
    UniqueConstraint("sample_id", "reviewer_id"),
)

judgments = Table(
    "judgments",
    metadata,
    Column("judgment_id", Integer, primary_key=True),
    Column("assignment_id", ForeignKey("assignments.assignment_id"), nullable=False, unique=True),
    Column("choice", String(20), nullable=False),
    Column("note", Text, nullable=False, default=""),
    Column("submitted_at", DateTime(timezone=True), nullable=False),
    Column("revised_at", DateTime(timezone=True), nullable=True),
)

# Each change of a judgment, with what it replaced, so that the reviewer can undo the
# last one until the batch closes (`undone_at` marks it spent).
judgment_changes = Table(
    "judgment_changes",
    metadata,
    Column("change_id", Integer, primary_key=True),
    Column(
        "assignment_id",
        ForeignKey("assignments.assignment_id", ondelete="CASCADE"),
        nullable=False,
    ),
    Column("previous_choice", String(20), nullable=True),  # None: the sample was unjudged
    Column("previous_note", Text, nullable=False, default=""),
    # A rubric judgment's criterion scores before the change ({criterion_id: score});
    # None for a choice task or an unjudged sample.
    Column("previous_scores", JSON, nullable=True),
    Column("changed_at", DateTime(timezone=True), nullable=False),
    Column("undone_at", DateTime(timezone=True), nullable=True),
)

# A rubric judgment's scores, one row per criterion, written in the same transaction as
# its `judgments` row (whose choice is `reportgen.kinds.review_task.SCORED`, "scored").
# Reviewer-visible only through their own assignment, like the judgment.
criterion_scores = Table(
    "criterion_scores",
    metadata,
    Column(
        "assignment_id",
        ForeignKey("assignments.assignment_id", ondelete="CASCADE"),
        primary_key=True,
    ),
    Column("criterion_id", String(100), primary_key=True),
    Column("score", Integer, nullable=False),
    # The net under the page and `submit_scores`, which refuse first with a clear message.
    CheckConstraint("score >= 0 AND score <= 5", name="criterion_score_range"),
)

adjudications = Table(
    "adjudications",
    metadata,
    Column("sample_id", ForeignKey("samples.sample_id"), primary_key=True),
    Column("choice", String(20), nullable=False),
    Column("note", Text, nullable=False, default=""),
    Column("admin_id", ForeignKey("accounts.account_id"), nullable=False),
    Column("decided_at", DateTime(timezone=True), nullable=False),
)

contestations = Table(
    "contestations",
    metadata,
    Column("contest_id", String(40), primary_key=True),
    Column("round_id", ForeignKey("rounds.round_id"), nullable=False),
    Column("item_id", String(100), nullable=False),
    Column("account_id", ForeignKey("accounts.account_id"), nullable=False),
    Column("justification", Text, nullable=False),
    Column("submitted_at", DateTime(timezone=True), nullable=False),
    Column("status", String(20), nullable=False, default="pending"),
    Column("reply", Text, nullable=False, default=""),
    Column("decided_at", DateTime(timezone=True), nullable=True),
    Column("decided_by", ForeignKey("accounts.account_id"), nullable=True),
)

audit_log = Table(
    "audit_log",
    metadata,
    Column("entry_id", Integer, primary_key=True),
    Column("at", DateTime(timezone=True), nullable=False),
    Column("account_id", Integer, nullable=True),
    Column("action", String(60), nullable=False),
    Column("detail", Text, nullable=False),
    # The hash of the previous entry (`audit_entry_sha256`; "" for the first), so that
    # an altered or removed entry breaks the chain (`reportgen review verify-audit`).
    # Unique: two entries can never follow the same one.
    Column("prev_sha256", String(64), nullable=False, unique=True),
)

# The log's length and newest hash, rewritten at every append (`audit`): a log emptied
# or cut at its end no longer matches (`reportgen review verify-audit`; the reasons are
# in docs/review-database.md).
HEAD_ROW = 1

audit_head = Table(
    "audit_head",
    metadata,
    Column("head_id", Integer, primary_key=True),  # one row, HEAD_ROW
    Column("entries", Integer, nullable=False),
    Column("head_sha256", String(64), nullable=False),
)


def now_utc() -> datetime:
    return datetime.now(UTC)


def as_utc(moment: datetime) -> datetime:
    """SQLite returns naive datetimes; every stored moment is UTC."""
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def default_url() -> str:
    return f"sqlite:///{Path.cwd() / DEFAULT_DB_FILE}"


def make_engine(url: str) -> Engine:
    """An engine for `url`; SQLite gets WAL, a busy timeout and immediate transactions."""
    if url.startswith("sqlite"):
        engine = create_engine(
            url,
            connect_args={"timeout": 60, "check_same_thread": False},
            # Enough connections for a team on one file; writers queue on SQLite's lock.
            pool_size=20,
            max_overflow=20,
            pool_timeout=120,
        )
        event.listen(engine, "connect", _configure_sqlite)
        # Taking the write lock when a transaction starts avoids SQLite's deadlock
        # on read-then-write upgrades, which under load surfaces as "database is locked".
        event.listen(engine, "begin", _begin_immediate)
        return engine
    return create_engine(url, pool_pre_ping=True, pool_size=10, max_overflow=30)


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # SQLAlchemy's "begin" event issues BEGIN
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.execute("PRAGMA busy_timeout=60000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def _begin_immediate(connection: Connection) -> None:
    connection.exec_driver_sql("BEGIN IMMEDIATE")


def create_schema(engine: Engine) -> None:
    """Create every table (idempotent) and the audit table's append-only guard."""
    metadata.create_all(engine)
    statements = SQLITE_APPEND_ONLY if engine.dialect.name == "sqlite" else POSTGRES_APPEND_ONLY
    with engine.begin() as connection:
        # Only the owner may (re)create triggers: the app's role finds them in place.
        if engine.dialect.name != "sqlite" and connection.execute(text(POSTGRES_GUARDED)).scalar():
            return
        for statement in statements:
            connection.execute(text(statement))


def inserted_id(result: CursorResult[Any]) -> int:
    """The primary key of the row an INSERT just created."""
    key = result.inserted_primary_key
    if key is None:
        raise RuntimeError("the INSERT returned no primary key")
    return int(key[0])


def audit(
    connection: Connection, account_id: int | None, action: str, detail: Mapping[str, object]
) -> None:
    """Append one line to the audit log, inside the caller's transaction, chained to
    the entry before it.

    Callers audit last in their transaction: on PostgreSQL the chain's lock is held
    from here to the commit. (SQLite transactions already hold the write lock.)
    """
    if connection.dialect.name == "postgresql":
        connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": AUDIT_CHAIN_LOCK})
    last = connection.execute(
        audit_log.select().order_by(audit_log.c.entry_id.desc()).limit(1)
    ).first()
    result = connection.execute(
        audit_log.insert().values(
            at=now_utc(),
            account_id=account_id,
            action=action,
            detail=json.dumps(dict(detail), sort_keys=True, ensure_ascii=False, default=str),
            prev_sha256="" if last is None else audit_entry_sha256(last._mapping),
        )
    )
    record_head(connection, inserted_id(result))


def audit_entry_sha256(entry: Mapping[Any, Any]) -> str:
    """The hash of one stored audit entry (all its columns, its own link included)."""
    canonical = [
        int(entry["entry_id"]),
        as_utc(entry["at"]).astimezone(UTC).isoformat(),
        entry["account_id"],
        entry["action"],
        entry["detail"],
        entry["prev_sha256"],
    ]
    encoded = json.dumps(canonical, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    return hashlib.sha256(encoded).hexdigest()


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
