"""Login tickets: how a login in the page becomes a cookie that only the server sets.

The login form checks the password and issues a ticket; the page then posts the ticket
to the server's `/_review/session` route (review_app.core.web), which redeems it for a new
session token and sets that token as an HttpOnly, SameSite=Strict cookie. JavaScript never
sees the session token, so a page on another port of the same host, which shares the
host's cookies, cannot read it.

A ticket is good once, for TICKET_LIFETIME, and only from the browser that asked for it
(the same fingerprint). Only its SHA-256 is stored.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta

from sqlalchemy import Connection, Engine, delete, select

from review_app.core.auth import attempt_login, open_session, revoke_session
from review_app.core.db import accounts, as_utc, now_utc
from review_app.core.errors import SessionExpired
from review_app.core.session_tables import login_tickets

TICKET_LIFETIME = timedelta(seconds=60)


def issue_ticket(
    engine: Engine,
    name: str,
    password: str,
    *,
    fingerprint: str,
    clock: Callable[[], datetime] = now_utc,
) -> str:
    """Check the credentials (throttled as any login) and return a one-time ticket."""
    ticket = secrets.token_urlsafe(32)

    def store(connection: Connection, account_id: int, now: datetime) -> None:
        connection.execute(delete(login_tickets).where(login_tickets.c.expires_at < now))
        connection.execute(
            login_tickets.insert().values(
                ticket_sha256=_digest(ticket),
                account_id=account_id,
                fingerprint=fingerprint,
                expires_at=now + TICKET_LIFETIME,
            )
        )

    attempt_login(engine, name, password, store, clock=clock)
    return ticket


def redeem_ticket(
    engine: Engine,
    ticket: str,
    *,
    fingerprint: str,
    replaces: str | None = None,
    clock: Callable[[], datetime] = now_utc,
) -> str:
    """Exchange a ticket for a new session token, once; `replaces` (the session this
    browser held before, if any) is revoked: each login rotates the token.

    Raises SessionExpired for an unknown, used or expired ticket, or one presented by
    another browser (it is spent all the same).
    """
    token = secrets.token_urlsafe(32)
    now = clock()
    with engine.begin() as connection:
        row = connection.execute(
            select(login_tickets, accounts.c.disabled)
            .join(accounts, accounts.c.account_id == login_tickets.c.account_id)
            .where(login_tickets.c.ticket_sha256 == _digest(ticket))
        ).first()
        # Deleting is what spends it: of two concurrent redemptions only one deletes a row.
        spent = connection.execute(
            delete(login_tickets).where(login_tickets.c.ticket_sha256 == _digest(ticket))
        ).rowcount
        usable = (
            row is not None
            and spent == 1
            and not row.disabled
            and as_utc(row.expires_at) > now
            and hmac.compare_digest(row.fingerprint, fingerprint)
        )
        if usable and row is not None:
            if replaces:
                revoke_session(connection, replaces)
            open_session(connection, row.account_id, token, fingerprint, now)
    if not usable:
        raise SessionExpired("error_session")
    return token


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
