"""Accounts, passwords (argon2id), login throttling and server-side sessions.

A login returns an opaque token; only its SHA-256 is stored. Every action of the
app resolves the token again (`require`), so a role is checked on the server for
each request and an expired or revoked session stops working at once.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, select, update

from review_app.db import ROLES, accounts, as_utc, audit, inserted_id, login_sessions, now_utc
from review_app.errors import AccessDenied, ReviewInputError, SessionExpired

SESSION_LIFETIME = timedelta(hours=12)
FREE_FAILURES = 3  # failures allowed before each further attempt must wait
MAX_LOCK_SECONDS = 300
MIN_PASSWORD_CHARS = 10

_hasher = PasswordHasher()
# Verified when the name is unknown, so that a wrong name costs as much as a wrong password.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


@dataclass(frozen=True)
class Identity:
    """Who is acting: resolved from a session token on every request."""

    account_id: int
    name: str
    role: str
    language: str


def generate_password() -> str:
    return secrets.token_urlsafe(15)


def add_account(
    engine: Engine,
    name: str,
    role: str,
    password: str,
    *,
    language: str = "pt-BR",
    by_account: int | None = None,
) -> int:
    """Create an account; the password is stored only as an argon2id hash."""
    name = name.strip()
    if not name or len(name) > 80:
        raise ReviewInputError("error_account_name")
    if role not in ROLES:
        raise ReviewInputError("error_role", role=role, roles=", ".join(ROLES))
    if len(password) < MIN_PASSWORD_CHARS:
        raise ReviewInputError("error_password_short", minimum=MIN_PASSWORD_CHARS)
    with engine.begin() as connection:
        taken = connection.execute(
            select(accounts.c.account_id).where(accounts.c.name == name)
        ).first()
        if taken is not None:
            raise ReviewInputError("error_account_exists", name=name)
        account_id = inserted_id(
            connection.execute(
                accounts.insert().values(
                    name=name,
                    role=role,
                    password_hash=_hasher.hash(password),
                    language=language,
                    failed_logins=0,
                    created_at=now_utc(),
                )
            )
        )
        audit(connection, by_account, "add_account", {"name": name, "role": role})
    return int(account_id)


def lock_seconds(failures: int) -> int:
    """Wait imposed after `failures` consecutive failed logins: doubling, capped."""
    if failures < FREE_FAILURES:
        return 0
    return int(min(2 ** (failures - FREE_FAILURES), MAX_LOCK_SECONDS))


def login(
    engine: Engine, name: str, password: str, *, clock: Callable[[], datetime] = now_utc
) -> str:
    """Check the credentials and open a session; returns the session token."""
    now = clock()
    # Raised after the transaction commits: a failed attempt must still be counted.
    refusal: AccessDenied | None = None
    token = secrets.token_urlsafe(32)
    with engine.begin() as connection:
        row = connection.execute(select(accounts).where(accounts.c.name == name.strip())).first()
        if row is None:
            _verify(_DUMMY_HASH, password)
            # The typed name is not logged: people sometimes type a password there.
            audit(connection, None, "login_unknown_name", {})
            refusal = AccessDenied("error_login")
        elif row.locked_until is not None and as_utc(row.locked_until) > now:
            wait = int((as_utc(row.locked_until) - now).total_seconds()) + 1
            refusal = AccessDenied("error_login_throttled", seconds=wait)
        elif not _verify(row.password_hash, password):
            failures = row.failed_logins + 1
            wait_seconds = lock_seconds(failures)
            connection.execute(
                update(accounts)
                .where(accounts.c.account_id == row.account_id)
                .values(
                    failed_logins=failures,
                    locked_until=now + timedelta(seconds=wait_seconds) if wait_seconds else None,
                )
            )
            audit(connection, row.account_id, "login_failed", {"failures": failures})
            refusal = AccessDenied("error_login")
        else:
            _open_session(connection, row.account_id, token, now)
    if refusal is not None:
        raise refusal
    return token


def _open_session(connection: Connection, account_id: int, token: str, now: datetime) -> None:
    connection.execute(
        update(accounts)
        .where(accounts.c.account_id == account_id)
        .values(failed_logins=0, locked_until=None)
    )
    connection.execute(
        login_sessions.insert().values(
            token_sha256=_token_digest(token),
            account_id=account_id,
            created_at=now,
            expires_at=now + SESSION_LIFETIME,
            revoked=False,
        )
    )
    audit(connection, account_id, "login", {})


def logout(engine: Engine, token: str) -> None:
    with engine.begin() as connection:
        result = connection.execute(
            update(login_sessions)
            .where(login_sessions.c.token_sha256 == _token_digest(token))
            .values(revoked=True)
        )
        if result.rowcount:
            audit(connection, None, "logout", {})


def require(
    engine: Engine,
    token: str | None,
    *roles: str,
    clock: Callable[[], datetime] = now_utc,
) -> Identity:
    """The identity behind `token`, if the session is live and has one of `roles`."""
    if not token:
        raise SessionExpired("error_session")
    with engine.connect() as connection:
        row = connection.execute(
            select(
                accounts.c.account_id,
                accounts.c.name,
                accounts.c.role,
                accounts.c.language,
                login_sessions.c.expires_at,
                login_sessions.c.revoked,
            )
            .join(accounts, accounts.c.account_id == login_sessions.c.account_id)
            .where(login_sessions.c.token_sha256 == _token_digest(token))
        ).first()
    if row is None or row.revoked or as_utc(row.expires_at) <= clock():
        raise SessionExpired("error_session")
    if roles and row.role not in roles:
        raise AccessDenied("error_forbidden")
    return Identity(row.account_id, row.name, row.role, row.language)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()
