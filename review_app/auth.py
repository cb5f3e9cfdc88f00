"""Accounts, passwords (argon2id), login throttling and server-side sessions.

A login returns an opaque token; only its SHA-256 is stored. Every action of the
app resolves the token again (`require`), so a role is checked on the server for
each request and an expired or revoked session, or a disabled account, stops working at
once. Failed logins are throttled per typed name and client (`login_throttle`), whether
the name exists or not, so the refusal says nothing about which names exist and a stranger
elsewhere cannot lock the owner out.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from review_app.credentials import (
    account_name,
    check_password,
    name_key,
    refuse_control_characters,
)
from review_app.db import (
    ROLES,
    accounts,
    as_utc,
    audit,
    inserted_id,
    login_sessions,
    login_throttle,
    now_utc,
)
from review_app.errors import AccessDenied, ReviewInputError, SessionExpired
from review_app.i18n import LANGUAGES

SESSION_LIFETIME = timedelta(hours=12)
FREE_FAILURES = 3  # failures allowed before each further attempt must wait
MAX_LOCK_SECONDS = 300  # the cap: an owner locked out by a stranger's guesses waits no longer
THROTTLE_MEMORY = timedelta(days=1)  # failures older than this are forgotten

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


def generate_password(name: str = "") -> str:
    """A random password that passes the policy, shown once to whoever hands it over."""
    while True:
        password = secrets.token_urlsafe(15)
        try:
            check_password(password, name)
        except ReviewInputError:
            continue
        return password


def hash_password(password: str) -> str:
    return _hasher.hash(password)


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
    name, key = account_name(name)
    if role not in ROLES:
        raise ReviewInputError("error_role", role=role, roles=", ".join(ROLES))
    check_language(language)
    check_password(password, name)
    with engine.begin() as connection:
        taken = connection.execute(
            select(accounts.c.name).where(accounts.c.name_key == key)
        ).first()
        if taken is not None:
            raise ReviewInputError("error_account_exists", name=taken.name)
        account_id = inserted_id(
            connection.execute(
                accounts.insert().values(
                    name=name,
                    name_key=key,
                    role=role,
                    password_hash=hash_password(password),
                    language=language,
                    disabled=False,
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


def check_language(language: str) -> str:
    if language not in LANGUAGES:
        raise ReviewInputError("error_language", code=language)
    return language


def login(
    engine: Engine,
    name: str,
    password: str,
    *,
    client: str = "",
    clock: Callable[[], datetime] = now_utc,
) -> str:
    """Check the credentials and open a session; returns the session token.

    `client` names where the attempt comes from (the browser's address): failures are
    counted per typed name and client, for unknown names as for known ones.
    """
    refuse_control_characters(name)
    refuse_control_characters(password)
    now = clock()
    key = (_digest(name_key(name)), _digest(client))
    # Raised after the transaction commits: a failed attempt must still be counted.
    refusal: AccessDenied | None = None
    token = secrets.token_urlsafe(32)
    with engine.begin() as connection:
        wait = _throttled_for(connection, key, now)
        row = connection.execute(
            select(accounts).where(accounts.c.name_key == name_key(name))
        ).first()
        if wait:
            refusal = AccessDenied("error_login_throttled", seconds=wait)
        elif row is None or row.disabled:
            _verify(_DUMMY_HASH, password)  # a wrong name costs as much as a wrong password
            _count_failure(connection, key, now)
            # The typed name is not logged: people sometimes type a password there.
            audit(connection, None, "login_unknown_name", {})
            refusal = AccessDenied("error_login")
        elif not _verify(row.password_hash, password):
            failures = _count_failure(connection, key, now)
            audit(connection, row.account_id, "login_failed", {"failures": failures})
            refusal = AccessDenied("error_login")
        else:
            connection.execute(
                delete(login_throttle).where(
                    login_throttle.c.name_digest == key[0],
                    login_throttle.c.client_digest == key[1],
                )
            )
            _open_session(connection, row.account_id, token, now)
    if refusal is not None:
        raise refusal
    return token


def _throttled_for(connection: Connection, key: tuple[str, str], now: datetime) -> int:
    """Seconds this name and client must still wait (0: may try now)."""
    locked_until = connection.execute(
        select(login_throttle.c.locked_until).where(
            login_throttle.c.name_digest == key[0], login_throttle.c.client_digest == key[1]
        )
    ).scalar()
    if locked_until is None or as_utc(locked_until) <= now:
        return 0
    return int((as_utc(locked_until) - now).total_seconds()) + 1


def _count_failure(connection: Connection, key: tuple[str, str], now: datetime) -> int:
    """Count one failure of this name and client, in one statement (an upsert: two
    concurrent first failures must not collide); returns the failures so far."""
    connection.execute(
        delete(login_throttle).where(login_throttle.c.last_failure < now - THROTTLE_MEMORY)
    )
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(login_throttle).values(
        name_digest=key[0], client_digest=key[1], failures=1, last_failure=now
    )
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[login_throttle.c.name_digest, login_throttle.c.client_digest],
            set_={"failures": login_throttle.c.failures + 1, "last_failure": now},
        )
    )
    failures = int(
        connection.execute(
            select(login_throttle.c.failures).where(
                login_throttle.c.name_digest == key[0], login_throttle.c.client_digest == key[1]
            )
        ).scalar_one()
    )
    wait_seconds = lock_seconds(failures)
    connection.execute(
        update(login_throttle)
        .where(login_throttle.c.name_digest == key[0], login_throttle.c.client_digest == key[1])
        .values(locked_until=now + timedelta(seconds=wait_seconds) if wait_seconds else None)
    )
    return failures


def _open_session(connection: Connection, account_id: int, token: str, now: datetime) -> None:
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
                accounts.c.disabled,
                login_sessions.c.expires_at,
                login_sessions.c.revoked,
            )
            .join(accounts, accounts.c.account_id == login_sessions.c.account_id)
            .where(login_sessions.c.token_sha256 == _token_digest(token))
        ).first()
    if row is None or row.revoked or row.disabled or as_utc(row.expires_at) <= clock():
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
    return _digest(token)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
