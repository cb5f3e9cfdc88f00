"""The administrator's account management: create, disable, reset, revoke, unlock, set a
language.

Every function takes the acting session's token and checks the admin role on the server.
A password an administrator creates or resets is generated here and returned once: it is
stored only as an argon2id hash, and whoever hands it over sees it only then. Disabling an
account or resetting its password ends its open sessions.
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Connection, Engine, func, select, update

from review_app.core.auth import (
    add_account,
    check_language,
    generate_password,
    hash_password,
    lock_state,
    require,
    unlock,
)
from review_app.core.db import accounts, audit, login_sessions, now_utc
from review_app.core.errors import ReviewInputError


@dataclass(frozen=True)
class AccountRow:
    """One account as the accounts page lists it: never its password hash."""

    account_id: int
    name: str
    role: str
    language: str
    disabled: bool
    live_sessions: int
    locked: bool  # failed logins make its next attempt wait (auth.lock_seconds)


def list_accounts(engine: Engine, token: str | None) -> list[AccountRow]:
    require(engine, token, "admin")
    now = now_utc()
    live = (
        select(login_sessions.c.account_id, func.count().label("live"))
        .where(login_sessions.c.revoked.is_(False), login_sessions.c.expires_at > now)
        .group_by(login_sessions.c.account_id)
        .subquery()
    )
    with engine.connect() as connection:
        rows = connection.execute(
            select(accounts, func.coalesce(live.c.live, 0).label("live"))
            .outerjoin(live, live.c.account_id == accounts.c.account_id)
            .order_by(accounts.c.name_key)
        ).all()
        locked = lock_state(connection, [row.name for row in rows])
    return [
        AccountRow(
            row.account_id,
            row.name,
            row.role,
            row.language,
            bool(row.disabled),
            int(row.live),
            locked[row.name],
        )
        for row in rows
    ]


def create_account(
    engine: Engine, token: str | None, name: str, role: str, language: str
) -> tuple[int, str]:
    """Create an account with a generated password; returns its id and that password."""
    me = require(engine, token, "admin")
    password = generate_password(name)
    account_id = add_account(
        engine, name, role, password, language=language, by_account=me.account_id
    )
    return account_id, password


def set_disabled(engine: Engine, token: str | None, account_id: int, disabled: bool) -> None:
    """Disable an account (its sessions end) or enable it again."""
    me = require(engine, token, "admin")
    if disabled and account_id == me.account_id:
        raise ReviewInputError("error_disable_self")
    with engine.begin() as connection:
        _existing(connection, account_id)
        connection.execute(
            update(accounts).where(accounts.c.account_id == account_id).values(disabled=disabled)
        )
        if disabled:
            _revoke(connection, account_id)
        action = "disable_account" if disabled else "enable_account"
        audit(connection, me.account_id, action, {"account_id": account_id})


def reset_password(engine: Engine, token: str | None, account_id: int) -> str:
    """Give the account a new generated password, shown once; its sessions end."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        name = _existing(connection, account_id)
        password = generate_password(name)
        connection.execute(
            update(accounts)
            .where(accounts.c.account_id == account_id)
            .values(password_hash=hash_password(password))
        )
        _revoke(connection, account_id)
        audit(connection, me.account_id, "reset_password", {"account_id": account_id})
    return password


def revoke_sessions(engine: Engine, token: str | None, account_id: int) -> int:
    """End every open session of the account; returns how many were open."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        _existing(connection, account_id)
        count = _revoke(connection, account_id)
        audit(connection, me.account_id, "revoke_sessions", {"account_id": account_id})
    return count


def unlock_logins(engine: Engine, token: str | None, account_id: int) -> None:
    """Let the account's owner log in at once, whatever guesses locked the name (logged)."""
    me = require(engine, token, "admin")
    with engine.connect() as connection:
        name = _existing(connection, account_id)
    unlock(engine, name, by_account=me.account_id)


def set_language(engine: Engine, token: str | None, account_id: int, language: str) -> None:
    me = require(engine, token, "admin")
    check_language(language)
    with engine.begin() as connection:
        _existing(connection, account_id)
        connection.execute(
            update(accounts).where(accounts.c.account_id == account_id).values(language=language)
        )
        audit(
            connection,
            me.account_id,
            "set_language",
            {"account_id": account_id, "language": language},
        )


def _existing(connection: Connection, account_id: int) -> str:
    name = connection.execute(
        select(accounts.c.name).where(accounts.c.account_id == account_id)
    ).scalar()
    if name is None:
        raise ReviewInputError("error_unknown_account", account_id=account_id)
    return str(name)


def _revoke(connection: Connection, account_id: int) -> int:
    result = connection.execute(
        update(login_sessions)
        .where(login_sessions.c.account_id == account_id, login_sessions.c.revoked.is_(False))
        .values(revoked=True)
    )
    return int(result.rowcount)
