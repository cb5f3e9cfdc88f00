"""Accounts and sessions: argon2 hashes, throttled logins, stale sessions, roles."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine, select

from review_app.core.auth import (
    SESSION_LIFETIME,
    add_account,
    lock_seconds,
    login,
    logout,
    require,
)
from review_app.core.db import accounts, audit_log, now_utc
from review_app.core.errors import AccessDenied, ReviewInputError, SessionExpired
from tests.review.helpers import PASSWORD, new_database


@pytest.fixture
def engine(tmp_path: Path) -> Engine:
    return new_database(f"sqlite:///{tmp_path / 'review.db'}")


class Clock:
    def __init__(self) -> None:
        self.now = now_utc()

    def __call__(self) -> datetime:
        return self.now


def test_password_is_stored_only_as_argon2(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    with engine.connect() as connection:
        stored = connection.execute(select(accounts.c.password_hash)).scalar_one()
        logged = " ".join(connection.execute(select(audit_log.c.detail)).scalars())
    assert stored.startswith("$argon2id$")
    assert PASSWORD not in stored
    assert PASSWORD not in logged


def test_login_and_roles(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    token = login(engine, "ana", PASSWORD)
    me = require(engine, token, "reviewer")
    assert (me.name, me.role) == ("ana", "reviewer")
    with pytest.raises(AccessDenied, match="not allowed"):
        require(engine, token, "admin")


def test_wrong_password_and_unknown_name_read_the_same(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    with pytest.raises(AccessDenied) as wrong:
        login(engine, "ana", "not the password")
    with pytest.raises(AccessDenied) as unknown:
        login(engine, "nobody", PASSWORD)
    assert str(wrong.value) == str(unknown.value) == "Incorrect name or password."


def test_repeated_failures_are_slowed_down(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    for _ in range(3):
        with pytest.raises(AccessDenied, match="Incorrect"):
            login(engine, "ana", "bad password!", clock=clock)
    # The third failure imposes a wait: even the right password is refused meanwhile.
    with pytest.raises(AccessDenied, match="Try again in"):
        login(engine, "ana", PASSWORD, clock=clock)
    clock.now += timedelta(seconds=lock_seconds(3) + 1)
    assert login(engine, "ana", PASSWORD, clock=clock)


def test_lock_grows_and_is_capped() -> None:
    waits = [lock_seconds(n) for n in range(0, 20)]
    assert waits[:3] == [0, 0, 0]
    assert waits == sorted(waits)
    assert max(waits) == 300


def test_stale_and_revoked_sessions(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    token = login(engine, "ana", PASSWORD)
    later = now_utc() + SESSION_LIFETIME + timedelta(seconds=1)
    with pytest.raises(SessionExpired, match="log in again"):
        require(engine, token, clock=lambda: later)
    logout(engine, token)
    with pytest.raises(SessionExpired):
        require(engine, token)
    with pytest.raises(SessionExpired):
        require(engine, None)
    with pytest.raises(SessionExpired):
        require(engine, "forged-token")


@pytest.mark.parametrize(
    ("name", "role", "password", "message"),
    [
        ("", "reviewer", PASSWORD, "1–80"),
        ("ana", "owner", PASSWORD, "Unknown role"),
        ("ana", "reviewer", "short", "at least 12"),
    ],
)
def test_bad_accounts_are_refused(
    engine: Engine, name: str, role: str, password: str, message: str
) -> None:
    with pytest.raises(ReviewInputError, match=message):
        add_account(engine, name, role, password)


def test_duplicate_account(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    with pytest.raises(ReviewInputError, match="already exists"):
        add_account(engine, "ana", "admin", PASSWORD)
