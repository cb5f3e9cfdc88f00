"""Accounts, passwords (argon2id), login throttling and server-side sessions.

A login returns an opaque token; only its SHA-256 is stored. Every action of the
app resolves the token again (`require`), so a role is checked on the server for
each request and an expired or revoked session, or a disabled account, stops working at
once. A session is bound to the browser that opened it (`client_fingerprint`). Failed
logins are throttled per typed name (`login_failures`), whether the name exists or not and
wherever the attempts come from, with a wait that doubles after each failure up to
MAX_LOCK_SECONDS: a guesser gains nothing from forged addresses, a stranger's guesses hold
the owner back for a few minutes at most, and an administrator can `unlock` the name.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, Engine, delete, select, update
from sqlalchemy.dialects import postgresql, sqlite

from review_app.core.credentials import (
    account_name,
    check_password,
    name_key,
    refuse_control_characters,
)
from review_app.core.db import (
    ROLES,
    accounts,
    as_utc,
    audit,
    inserted_id,
    login_sessions,
    now_utc,
)
from review_app.core.errors import AccessDenied, ReviewInputError, SessionExpired
from review_app.core.session_tables import login_failures, session_bindings
from review_app.i18n import LANGUAGES

SESSION_LIFETIME = timedelta(hours=12)
FREE_FAILURES = 3  # failures allowed before each further attempt must wait
MAX_LOCK_SECONDS = 300  # the cap: an owner locked out by a stranger's guesses waits no longer
THROTTLE_MEMORY = timedelta(days=1)  # failures older than this are forgotten

_hasher = PasswordHasher()
# Verified when the name is unknown, so that a wrong name costs as much as a wrong password.
_DUMMY_HASH = _hasher.hash(secrets.token_urlsafe(16))


def client_fingerprint(user_agent: str, address: str) -> str:
    """What binds a session to one browser: its User-Agent and its client address (the
    socket's peer, or what a configured proxy says; "" for this machine)."""
    return hashlib.sha256(f"{user_agent}\n{address}".encode()).hexdigest()


LOCAL_FINGERPRINT = client_fingerprint("", "")  # no User-Agent, this machine: AppTest, tools


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
    fingerprint: str = LOCAL_FINGERPRINT,
    clock: Callable[[], datetime] = now_utc,
) -> str:
    """Check the credentials and open a session bound to `fingerprint`; returns its token.

    The app itself goes through a login ticket (review_app.core.web_sessions), so that the
    server, not the page, sets the cookie; this one-step form serves the tests and tools.
    """
    token = secrets.token_urlsafe(32)

    def open_one(connection: Connection, account_id: int, now: datetime) -> None:
        open_session(connection, account_id, token, fingerprint, now)

    attempt_login(engine, name, password, open_one, clock=clock)
    return token


def attempt_login(
    engine: Engine,
    name: str,
    password: str,
    on_success: Callable[[Connection, int, datetime], None],
    *,
    clock: Callable[[], datetime] = now_utc,
) -> None:
    """Check the credentials, throttled per typed name; on success call `on_success`
    (connection, account id, now) in the same transaction, else raise AccessDenied.

    The wait is checked before the password, so a locked name answers nothing about it;
    unknown names are counted like known ones.
    """
    refuse_control_characters(name)
    refuse_control_characters(password)
    now = clock()
    key = _digest(name_key(name))
    # Raised after the transaction commits: a failed attempt must still be counted.
    refusal: AccessDenied | None = None
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
            connection.execute(delete(login_failures).where(login_failures.c.name_digest == key))
            on_success(connection, row.account_id, now)
    if refusal is not None:
        raise refusal


def unlock(engine: Engine, name: str, *, by_account: int | None = None) -> bool:
    """Forget the failed logins of account `name` (an administrator's decision, logged):
    its owner may log in at once. Returns whether the name was locked."""
    refuse_control_characters(name)
    with engine.begin() as connection:
        account_id = connection.execute(
            select(accounts.c.account_id).where(accounts.c.name_key == name_key(name))
        ).scalar()
        if account_id is None:
            raise ReviewInputError("error_unknown_account_name", name=name)
        locked = lock_state(connection, [name], clock=now_utc).get(name, False)
        connection.execute(
            delete(login_failures).where(login_failures.c.name_digest == _digest(name_key(name)))
        )
        audit(connection, by_account, "unlock_account", {"account_id": account_id})
    return locked


def lock_state(
    connection: Connection, names: list[str], *, clock: Callable[[], datetime] = now_utc
) -> dict[str, bool]:
    """Which of these account names must wait before their next login attempt."""
    digests = {_digest(name_key(name)): name for name in names}
    rows = connection.execute(
        select(login_failures.c.name_digest, login_failures.c.locked_until).where(
            login_failures.c.name_digest.in_(list(digests))
        )
    ).all()
    now = clock()
    locked = {
        digests[row.name_digest]
        for row in rows
        if row.locked_until is not None and as_utc(row.locked_until) > now
    }
    return {name: name in locked for name in names}


def _throttled_for(connection: Connection, key: str, now: datetime) -> int:
    """Seconds this name must still wait (0: may try now)."""
    locked_until = connection.execute(
        select(login_failures.c.locked_until).where(login_failures.c.name_digest == key)
    ).scalar()
    if locked_until is None or as_utc(locked_until) <= now:
        return 0
    return int((as_utc(locked_until) - now).total_seconds()) + 1


def _count_failure(connection: Connection, key: str, now: datetime) -> int:
    """Count one failure of this name, in one statement (an upsert: two concurrent first
    failures must not collide); returns the failures so far."""
    connection.execute(
        delete(login_failures).where(login_failures.c.last_failure < now - THROTTLE_MEMORY)
    )
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    statement = dialect.insert(login_failures).values(name_digest=key, failures=1, last_failure=now)
    connection.execute(
        statement.on_conflict_do_update(
            index_elements=[login_failures.c.name_digest],
            set_={"failures": login_failures.c.failures + 1, "last_failure": now},
        )
    )
    failures = int(
        connection.execute(
            select(login_failures.c.failures).where(login_failures.c.name_digest == key)
        ).scalar_one()
    )
    wait_seconds = lock_seconds(failures)
    connection.execute(
        update(login_failures)
        .where(login_failures.c.name_digest == key)
        .values(locked_until=now + timedelta(seconds=wait_seconds) if wait_seconds else None)
    )
    return failures


def open_session(
    connection: Connection, account_id: int, token: str, fingerprint: str, now: datetime
) -> None:
    """Store a new session (its token's SHA-256 only), bound to the browser's fingerprint."""
    connection.execute(
        login_sessions.insert().values(
            token_sha256=_token_digest(token),
            account_id=account_id,
            created_at=now,
            expires_at=now + SESSION_LIFETIME,
            revoked=False,
        )
    )
    connection.execute(
        session_bindings.insert().values(token_sha256=_token_digest(token), fingerprint=fingerprint)
    )
    audit(connection, account_id, "login", {})


def revoke_session(connection: Connection, token: str) -> bool:
    """Revoke one session; returns whether it was open."""
    result = connection.execute(
        update(login_sessions)
        .where(
            login_sessions.c.token_sha256 == _token_digest(token),
            login_sessions.c.revoked.is_(False),
        )
        .values(revoked=True)
    )
    return bool(result.rowcount)


def logout(engine: Engine, token: str) -> None:
    with engine.begin() as connection:
        if revoke_session(connection, token):
            audit(connection, None, "logout", {})


def require(
    engine: Engine,
    token: str | None,
    *roles: str,
    fingerprint: str | None = None,
    clock: Callable[[], datetime] = now_utc,
) -> Identity:
    """The identity behind `token`, if the session is live and has one of `roles`.

    The app's pages pass the browser's `fingerprint` once per run: a token replayed from
    another browser opens nothing. The data layer, called with the token the page has
    just checked, leaves it out.
    """
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
                session_bindings.c.fingerprint,
            )
            .join(accounts, accounts.c.account_id == login_sessions.c.account_id)
            .outerjoin(
                session_bindings,
                session_bindings.c.token_sha256 == login_sessions.c.token_sha256,
            )
            .where(login_sessions.c.token_sha256 == _token_digest(token))
        ).first()
    if row is None or row.revoked or row.disabled or as_utc(row.expires_at) <= clock():
        raise SessionExpired("error_session")
    if fingerprint is not None and not _same(row.fingerprint, fingerprint):
        raise SessionExpired("error_session")
    if roles and row.role not in roles:
        raise AccessDenied("error_forbidden")
    return Identity(row.account_id, row.name, row.role, row.language)


def _same(stored: str | None, presented: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, presented)


def _verify(password_hash: str, password: str) -> bool:
    try:
        return _hasher.verify(password_hash, password)
    except (VerificationError, InvalidHashError):
        return False


def _token_digest(token: str) -> str:
    return _digest(token)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
