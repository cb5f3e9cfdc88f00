"""The login tables besides accounts and sessions (review_app.core.db): which browser a session
belongs to, one-time login tickets and failed logins per name. They join db.metadata when
this module is imported (review_app.core.storage and review_app.core.auth import it)."""

from __future__ import annotations

from sqlalchemy import Column, DateTime, ForeignKey, Integer, String, Table

from review_app.core.db import metadata

# The browser a session belongs to (auth.client_fingerprint); a table of its own, so an
# older database opens (a session without a binding is refused: its owner logs in again).
session_bindings = Table(
    "session_bindings",
    metadata,
    Column("token_sha256", ForeignKey("login_sessions.token_sha256"), primary_key=True),
    Column("fingerprint", String(64), nullable=False),
)

# One-time login tickets (review_app.core.web_sessions); only their SHA-256 is stored.
login_tickets = Table(
    "login_tickets",
    metadata,
    Column("ticket_sha256", String(64), primary_key=True),
    Column("account_id", ForeignKey("accounts.account_id"), nullable=False),
    Column("fingerprint", String(64), nullable=False),
    Column("expires_at", DateTime(timezone=True), nullable=False),
)

# Failed logins per typed name (a SHA-256: people type passwords there), known or not,
# wherever they come from: forged addresses buy a guesser nothing.
login_failures = Table(
    "login_failures",
    metadata,
    Column("name_digest", String(64), primary_key=True),
    Column("failures", Integer, nullable=False, default=0),
    Column("locked_until", DateTime(timezone=True), nullable=True),
    Column("last_failure", DateTime(timezone=True), nullable=False),
)
