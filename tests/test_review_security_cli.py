"""The review app's defences below the app (issue 9, points 16 and 17; issue 23, point 9):
every CLI error on one line, `review serve` starting the gated server, throttling per name
and the unlock on the command line, the SQLite file's mode and where the database URL
comes from. In the app (the session cookie,
control characters in its forms, the accounts page's unlock): tests/test_review_security.py.
Storage behaviour runs on SQLite and, when REVIEW_TEST_POSTGRES_URL is set, on PostgreSQL."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine, select
from sqlalchemy.engine import URL, make_url

from reportgen.cli import main
from review_app.core.auth import (
    FREE_FAILURES,
    MAX_LOCK_SECONDS,
    add_account,
    client_fingerprint,
    lock_seconds,
    login,
    require,
    unlock,
)
from review_app.core.db import audit_log, login_sessions, now_utc
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.core.session_tables import login_failures
from review_app.core.storage import open_database
from review_app.core.web_sessions import issue_ticket
from tests.review.databases import KINDS, empty_database_url, postgres_url
from tests.review.helpers import PASSWORD, new_database


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = open_database(empty_database_url(str(request.param), tmp_path))
    yield engine
    engine.dispose()


# -- point 16: every CLI error is one line -------------------------------------------------


def _cli(*args: str, stdin: str | None = None, env: dict[str, str] | None = None) -> Result:
    result = CliRunner().invoke(main, ["review", *args], input=stdin, env=env)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def _one_line_error(result: Result) -> str:
    assert result.exit_code == 1, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1, result.output
    assert lines[0].startswith("Error: "), result.output
    return lines[0]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["sample", "r", "--seed", "2147483648"],
            "2147483648 is not in the range 0<=x<=2147483647",
        ),
        (["sample", "r", "--seed", "99999999999999999999999"], "is not in the range"),
        (["sample", "r", "--seed", "-3"], "-3 is not in the range 0<=x<=2147483647"),
        (["serve", "--port", "0"], "0 is not in the range 1<=x<=65535"),
        (["serve", "--port", "65536"], "65536 is not in the range 1<=x<=65535"),
    ],
)
def test_a_bad_option_exits_2(args: list[str], message: str) -> None:
    result = _cli(*args)
    assert result.exit_code == 2, result.output
    assert message in result.output.strip().splitlines()[-1]


def test_a_missing_sqlite_folder(tmp_path: Path) -> None:
    line = _one_line_error(_cli("init", "--db", f"sqlite:///{tmp_path / 'nowhere' / 'r.db'}"))
    assert line == f"Error: The SQLite database's folder does not exist: {tmp_path / 'nowhere'}."


def test_an_unwritable_sqlite_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: make the check see what a user would
        monkeypatch.setattr(os, "access", lambda path, mode: Path(path) != folder)
    else:
        folder.chmod(0o500)
    line = _one_line_error(_cli("init", "--db", f"sqlite:///{folder / 'r.db'}"))
    assert line == f"Error: No write permission on the SQLite database: {folder}."


def test_a_file_that_is_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "r.db").write_bytes(b"not a database at all, just some bytes" * 100)
    line = _one_line_error(_cli("init", "--db", f"sqlite:///{tmp_path / 'r.db'}"))
    assert line.startswith(f"Error: Cannot open the database sqlite:///{tmp_path / 'r.db'}: ")


def test_an_unreachable_postgresql_hides_the_password() -> None:
    line = _one_line_error(
        _cli("init", "--db", "postgresql+psycopg://someone:s3cret-pw@127.0.0.1:1/review")
    )
    assert line.startswith("Error: Cannot open the database postgresql+psycopg://someone:***@")
    assert "s3cret-pw" not in line


@pytest.mark.parametrize(
    ("db", "message"),
    [
        ("mysql://u:pw@localhost/review", "Unsupported database driver: mysql. Use one of: "),
        ("postgresql+psycopg2://u@h/r", "Unsupported database driver: postgresql+psycopg2."),
        ("oracle+cx_oracle://u@h/r", "Unsupported database driver: oracle+cx_oracle."),
        ("not a url", "Unreadable database URL: <unreadable URL>."),
    ],
)
def test_an_unsupported_driver(db: str, message: str) -> None:
    assert message in _one_line_error(_cli("init", "--db", db))


def test_control_characters_on_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    assert _cli("init", "--db", db).exit_code == 0
    line = _one_line_error(_cli("add-reviewer", "ana\x00", "--db", db))
    assert "control or invisible character" in line
    line = _one_line_error(
        _cli("add-reviewer", "ana", "--password-stdin", "--db", db, stdin="a long\x07password\n")
    )
    assert "control or invisible character" in line


# -- `review serve`: the gated server and the proxies it believes ------------------------


def test_serve_starts_the_gated_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[tuple[list[str], dict[str, str]]] = []
    monkeypatch.setattr(os, "execve", lambda _path, argv, env: started.append((argv, env)))
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "*")  # whatever was set, uvicorn trusts no one
    db = f"sqlite:///{tmp_path / 'r.db'}"
    assert _cli("init", "--db", db).exit_code == 0  # only init creates a database
    result = _cli("serve", "--db", db, "--trusted-proxy", "10.0.0.5", "--trusted-proxy", "fd00::/8")
    assert result.exit_code == 0, result.output
    [(argv, environment)] = started
    assert argv[1:3] == ["-m", "review_app.server"]
    assert environment["REVIEW_DB_URL"] == db
    assert environment["REVIEW_TRUSTED_PROXIES"] == "10.0.0.5,fd00::/8"
    assert environment["FORWARDED_ALLOW_IPS"] == ""
    started.clear()
    assert _cli("serve", "--db", db).exit_code == 0
    assert started[0][1]["REVIEW_TRUSTED_PROXIES"] == ""  # default: no proxy is believed


def test_serve_refuses_a_proxy_that_is_not_an_address(tmp_path: Path) -> None:
    result = _cli("serve", "--db", f"sqlite:///{tmp_path / 'r.db'}", "--trusted-proxy", "proxy")
    assert result.exit_code == 2, result.output
    assert "Not an IP address or network: proxy." in result.output


# -- issue 23 point 9: throttling per name, unlock -------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = now_utc()

    def __call__(self) -> Any:
        return self.now


def _wait_of(refusal: AccessDenied) -> int:
    return int(str(refusal).split("Try again in ")[1].split()[0])


def test_unknown_names_are_throttled_like_known_ones(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    messages: dict[str, list[str]] = {}
    for name in ("ana", "nobody"):
        messages[name] = []
        for _ in range(4):
            with pytest.raises(AccessDenied) as refused:
                login(engine, name, "not the password", clock=clock)
            messages[name].append(str(refused.value))
    assert messages["ana"] == messages["nobody"]
    assert messages["ana"][:3] == ["Incorrect name or password."] * 3
    assert messages["ana"][3].startswith("Too many failed attempts")
    # Nothing stored names what was typed (people type passwords into the name field).
    with engine.connect() as connection:
        stored = " ".join(str(row) for row in connection.execute(select(login_failures)))
    assert "nobody" not in stored
    assert "ana" not in stored


def test_forged_client_addresses_buy_a_guesser_nothing(engine: Engine) -> None:
    """Each guess from another (forged) address and browser: the name is throttled all the
    same, because the count is per name."""
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    refusals = []
    for number in range(FREE_FAILURES + 1):
        forged = client_fingerprint(f"Guesser/{number}", f"198.51.100.{number}")
        with pytest.raises(AccessDenied) as refused:
            issue_ticket(engine, "ana", "guess", fingerprint=forged, clock=clock)
        refusals.append(str(refused.value))
    assert refusals[-1].startswith("Too many failed attempts")
    # Even the right password waits: the lock is checked before the password.
    with pytest.raises(AccessDenied, match="Try again in"):
        issue_ticket(
            engine, "ana", PASSWORD, fingerprint=client_fingerprint("x", "203.0.113.1"), clock=clock
        )


def test_the_wait_doubles_with_each_failure_up_to_the_cap(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    for _ in range(FREE_FAILURES - 1):  # free: no wait yet
        with pytest.raises(AccessDenied, match="Incorrect name or password"):
            login(engine, "ana", "guess", clock=clock)
    waits: list[int] = []
    for _ in range(12):
        with pytest.raises(AccessDenied, match="Incorrect name or password"):
            login(engine, "ana", "guess", clock=clock)  # counted
        with pytest.raises(AccessDenied, match="Try again in") as held:
            login(engine, "ana", PASSWORD, clock=clock)  # refused unheard, not counted
        waits.append(_wait_of(held.value) - 1)  # the message rounds up
        clock.now += timedelta(seconds=MAX_LOCK_SECONDS + 1)
    assert waits == [1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]
    assert waits[-1] == MAX_LOCK_SECONDS
    assert [lock_seconds(n) for n in range(FREE_FAILURES + 1)] == [0, 0, 0, 1]


def test_a_stranger_holds_the_owner_back_only_until_the_cap(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    for _ in range(30):
        with pytest.raises(AccessDenied):
            login(engine, "ana", "guess guess guess", clock=clock)
        clock.now += timedelta(seconds=MAX_LOCK_SECONDS + 1)  # each guess when allowed
    with pytest.raises(AccessDenied):
        login(engine, "ana", "guess guess guess", clock=clock)
    # Right after a stranger's guess the owner waits, never longer than the cap ...
    with pytest.raises(AccessDenied, match="Try again in") as held:
        login(engine, "ana", PASSWORD, clock=clock)
    assert 0 < _wait_of(held.value) <= MAX_LOCK_SECONDS + 1
    clock.now += timedelta(seconds=MAX_LOCK_SECONDS + 1)
    assert require(engine, login(engine, "ana", PASSWORD, clock=clock))  # ... then gets in


def _guessed_an_hour_ahead(engine: Engine, guesses: int) -> None:
    """Failed logins dated an hour ahead: the lock they set outlasts the test however slow
    the machine (a lock of a few seconds on the clock ran out on a loaded one)."""
    ahead = Clock()
    ahead.now += timedelta(hours=1)
    for _ in range(guesses):
        with pytest.raises(AccessDenied):
            login(engine, "ana", "guess", clock=ahead)


def test_an_admin_unlock_lets_the_owner_in_at_once(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    _guessed_an_hour_ahead(engine, FREE_FAILURES + 5)
    with pytest.raises(AccessDenied, match="Try again in"):
        login(engine, "ana", PASSWORD)
    assert unlock(engine, "ANA") is True  # the name as typed: case does not matter
    assert require(engine, login(engine, "ana", PASSWORD))
    with engine.connect() as connection:
        actions = connection.execute(select(audit_log.c.action)).scalars().all()
    assert "unlock_account" in actions
    with pytest.raises(ReviewInputError, match=r"There is no account named nobody\."):
        unlock(engine, "nobody")


def test_review_unlock_on_the_command_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    engine = new_database(db)
    add_account(engine, "ana", "reviewer", PASSWORD)
    _guessed_an_hour_ahead(engine, FREE_FAILURES + 2)
    result = _cli("unlock", "ana", "--db", db)
    assert result.exit_code == 0, result.output
    assert result.output == (
        "Account ana unlocked (was waiting after failed logins); its owner may log in now.\n"
    )
    assert require(engine, login(engine, "ana", PASSWORD))
    assert _one_line_error(_cli("unlock", "nobody", "--db", db)) == (
        "Error: There is no account named nobody."
    )
    engine.dispose()


# -- point 17: storage -------------------------------------------------------------------


def test_the_sqlite_file_is_private(tmp_path: Path) -> None:
    db = tmp_path / "review.db"
    assert _cli("init", "--db", f"sqlite:///{db}").exit_code == 0
    result = _cli("add-reviewer", "ana", "--db", f"sqlite:///{db}")
    assert result.exit_code == 0, result.output
    for path in tmp_path.iterdir():  # the database and its -wal and -shm files
        assert stat.S_IMODE(path.stat().st_mode) == 0o600, path


def test_the_url_may_come_from_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "from-env.db"
    env = {"REPORTGEN_REVIEW_DB": f"sqlite:///{target}"}
    assert _cli("init", env=env).exit_code == 0
    assert _cli("add-reviewer", "ana", env=env).exit_code == 0
    assert target.exists()
    assert not (tmp_path / "review.db").exists()
    engine = new_database(f"sqlite:///{target}")
    with engine.connect() as connection:
        assert connection.execute(select(login_sessions)).all() == []
    engine.dispose()


@pytest.mark.postgres
def test_the_postgresql_password_may_come_from_pgpass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    full = make_url(postgres_url())
    pgpass = tmp_path / "pgpass"
    pgpass.write_text(
        f"{full.host}:{full.port or 5432}:{full.database}:{full.username}:{full.password}\n",
        encoding="utf-8",
    )
    pgpass.chmod(0o600)
    monkeypatch.setenv("PGPASSFILE", str(pgpass))
    monkeypatch.delenv("PGPASSWORD", raising=False)
    without_password = URL.create(
        full.drivername, full.username, None, full.host, full.port, full.database
    ).render_as_string(hide_password=False)
    assert make_url(without_password).password is None
    result = _cli("init", env={"REPORTGEN_REVIEW_DB": without_password})
    assert result.exit_code == 0, result.output
    pgpass.write_text("", encoding="utf-8")  # and without it, a clear refusal
    assert "Cannot open the database" in _one_line_error(
        _cli("init", env={"REPORTGEN_REVIEW_DB": without_password})
    )
