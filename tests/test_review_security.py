"""The review app's defences (issue 9, points 6, 16 and 17): the session cookie, control
characters, one-line CLI errors, throttling per name and client, the SQLite file's mode and
where the database URL comes from. Storage behaviour runs on SQLite and, when
REVIEW_TEST_POSTGRES_URL is set, on PostgreSQL."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from click.testing import CliRunner, Result
from sqlalchemy import Engine, insert, select, update
from sqlalchemy.engine import URL, make_url
from streamlit.testing.v1 import AppTest

import review_app.ui_common
from reportgen.cli import main
from review_app import reviewing
from review_app.auth import MAX_LOCK_SECONDS, add_account, login, require
from review_app.db import (
    batches,
    login_sessions,
    login_throttle,
    metadata,
    now_utc,
    rounds,
    samples,
)
from review_app.errors import AccessDenied, ReviewInputError
from review_app.reviewing import my_queue
from review_app.sampling import create_batch
from review_app.storage import open_database
from review_app.ui_common import SESSION_COOKIE
from tests.factories import memory_review_round
from tests.review.helpers import PASSWORD, add_and_login, new_database

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
POSTGRES_URL = os.environ.get("REVIEW_TEST_POSTGRES_URL")


def _url(kind: str, tmp_path: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'review.db'}"
    if not POSTGRES_URL:
        pytest.skip("REVIEW_TEST_POSTGRES_URL is not set (CI sets it via ci_postgres.sh)")
    engine = new_database(POSTGRES_URL)
    metadata.drop_all(engine)  # a clean slate: earlier runs share this database
    engine.dispose()
    return POSTGRES_URL


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return _url(str(request.param), tmp_path)


@pytest.fixture
def engine(url: str) -> Iterator[Engine]:
    engine = open_database(url)
    yield engine
    engine.dispose()


@pytest.fixture
def app_url(url: str, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """The app's database, with Ana (reviewer) and an admin."""
    engine = new_database(url)
    add_account(engine, "ana", "reviewer", PASSWORD, language="en")
    add_account(engine, "admin", "admin", PASSWORD, language="en")
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield url
    engine.dispose()
    review_app.ui_common._engine_for(url).dispose()  # the app's cached engine
    st.cache_resource.clear()


def _log_in(name: str, password: str = PASSWORD) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = "en"
    at.run()
    at.text_input(key="login_name").input(name)
    at.text_input(key="login_password").input(password)
    at.button[0].click()
    at.run()
    return at


def _everything(at: AppTest) -> str:
    parts: list[str] = []

    def walk(node: Any) -> None:
        parts.append(str(getattr(node, "proto", "")))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return "\n".join(parts)


def _cookie_writes(at: AppTest) -> list[dict[str, Any]]:
    """What the session-cookie component was asked to write on the last run."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        proto: Any = getattr(node, "proto", None)
        if getattr(proto, "component_name", "") == "reportgen_review_session_cookie":
            found.append(json.loads(proto.json))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


def _reopen(monkeypatch: pytest.MonkeyPatch, cookies: dict[str, str]) -> AppTest:
    """A reload or a new tab: a fresh session whose browser sends `cookies`."""
    monkeypatch.setattr(review_app.ui_common, "browser_cookies", lambda: cookies)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = "en"
    at.run()
    assert not at.exception, at.exception
    return at


# -- point 6: staying logged in ------------------------------------------------------


def test_a_reload_keeps_the_person_logged_in(app_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    at = _log_in("ana")
    assert not at.exception, at.exception
    token = at.session_state["token"]
    # The login writes the cookie: the token itself, whose SHA-256 the server stores.
    [written] = _cookie_writes(at)
    assert written["name"] == SESSION_COOKIE
    assert written["value"] == token
    assert written["max_age"] == 12 * 3600
    engine = new_database(app_url)
    with engine.connect() as connection:
        stored = connection.execute(select(login_sessions.c.token_sha256)).scalars().all()
    assert token not in stored
    # A new tab with that cookie is logged in, as Ana, without the login form.
    tab = _reopen(monkeypatch, {SESSION_COOKIE: token})
    assert len(tab.sidebar.radio) == 1
    assert "ana" in tab.sidebar.caption[0].value
    assert tab.session_state["token"] == token
    engine.dispose()


def test_logout_revokes_the_cookie_and_deletes_it(
    app_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    at = _log_in("ana")
    token = at.session_state["token"]
    at.sidebar.button(key="logout").click().run()
    assert not at.exception, at.exception
    assert _cookie_writes(at) == [{"name": SESSION_COOKIE, "value": "", "max_age": 0}]
    assert at.text_input(key="login_name")
    # The browser may still send the old cookie (another tab, a slow deletion): the server
    # has revoked it, so it opens nothing.
    tab = _reopen(monkeypatch, {SESSION_COOKIE: token})
    assert len(tab.sidebar.radio) == 0
    assert tab.text_input(key="login_name")
    assert _cookie_writes(tab) == [{"name": SESSION_COOKIE, "value": "", "max_age": 0}]


def test_an_expired_or_forged_cookie_opens_nothing(
    app_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = new_database(app_url)
    token = login(engine, "ana", PASSWORD)
    with engine.begin() as connection:
        connection.execute(
            update(login_sessions).values(expires_at=now_utc() - timedelta(seconds=1))
        )
    engine.dispose()
    for cookie in (token, "x" * 43, "'; DROP TABLE accounts; --", "a\x00b"):
        tab = _reopen(monkeypatch, {SESSION_COOKIE: cookie})
        assert len(tab.sidebar.radio) == 0, cookie
        assert tab.text_input(key="login_name")


def test_each_judgment_gets_a_saved_confirmation(app_url: str, tmp_path: Path) -> None:
    engine = new_database(app_url)
    add_account(engine, "bruno", "reviewer", PASSWORD)
    create_batch(
        engine, memory_review_round(tmp_path / "r-demo"), fraction=0.2, min_per_stratum=1,
        overlap=2, seed=4,
    )  # fmt: skip
    at = _log_in("ana")
    code = at.session_state["current_code"]
    choose = [button for button in at.button if str(button.key).startswith("choose_")]
    choose[0].click().run()
    assert not at.exception, at.exception
    assert [toast.value for toast in at.toast] == [f"Judgment saved: {code}."]
    assert my_queue(engine, at.session_state["token"])[0].choice is not None
    at.run()
    assert not at.toast  # once, not on every later run
    engine.dispose()


# -- point 16: no traceback, control characters refused ----------------------------------


@pytest.mark.parametrize("name", ["ana\x00", "\x00", "ana\x1b[31m"])
def test_a_control_character_in_the_login_name_is_refused_cleanly(app_url: str, name: str) -> None:
    """On PostgreSQL a NUL used to surface the SQL and the accounts table's columns."""
    at = _log_in(name)
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == [
        "The text contains a control or invisible character (such as NUL). Delete it and try again."
    ]
    shown = _everything(at)
    for leak in ("SELECT", "accounts", "password_hash", "psycopg", "Traceback"):
        assert leak not in shown


def test_the_database_refuses_control_characters_from_any_path(engine: Engine) -> None:
    """The net under the pages' checks: a note with NUL or an escape sequence is a clear
    error on both databases, not a driver exception."""
    token = add_and_login(engine, "ana")
    add_and_login(engine, "bruno")
    with engine.begin() as connection:
        connection.execute(insert(rounds).values(round_id="r", round_dir="/r", kind="estigmas"))
        connection.execute(
            insert(batches).values(batch_id=1, round_id="r", seed=1, settings={},
                                   created_at=now_utc())
        )  # fmt: skip
        # An archive's texts are data, not typed input: only NUL is refused there.
        connection.execute(
            insert(samples).values(batch_id=1, code="S1", prompt_text="p", output_text="a\x0cb")
        )
        with pytest.raises(ReviewInputError, match="control or invisible"):
            connection.execute(
                insert(samples).values(batch_id=1, code="S2", prompt_text="p", output_text="\x00")
            )
    for text in ("a\x00b", "red \x1b[31m", "bell\x07"):
        with pytest.raises(ReviewInputError, match="control or invisible"):
            reviewing.load_sample(engine, token, text)
    with engine.connect() as connection:
        assert connection.execute(select(samples.c.output_text)).scalar_one() == "a\x0cb"


def test_app_turns_error_details_off(app_url: str) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert st.get_option("client.showErrorDetails") == "none"


def test_serve_starts_streamlit_without_error_details(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started: list[list[str]] = []

    def fake_execve(_path: str, argv: list[str], environment: dict[str, str]) -> None:
        started.append(argv)
        assert environment["REVIEW_DB_URL"] == f"sqlite:///{tmp_path / 'r.db'}"

    monkeypatch.setattr(os, "execve", fake_execve)
    assert _cli("init", "--db", f"sqlite:///{tmp_path / 'r.db'}").exit_code == 0
    result = _cli("serve", "--db", f"sqlite:///{tmp_path / 'r.db'}")
    assert result.exit_code == 0, result.output
    [argv] = started
    assert argv[argv.index("--client.showErrorDetails") + 1] == "none"


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


# -- point 17: throttling ----------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = now_utc()

    def __call__(self) -> Any:
        return self.now


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
        stored = " ".join(str(row) for row in connection.execute(select(login_throttle)))
    assert "nobody" not in stored
    assert "ana" not in stored


def test_a_stranger_cannot_lock_the_owner_out(engine: Engine) -> None:
    add_account(engine, "ana", "reviewer", PASSWORD)
    clock = Clock()
    for _ in range(30):
        with pytest.raises(AccessDenied):
            login(engine, "ana", "guess guess guess", client="203.0.113.9", clock=clock)
    # Ana, from her own machine, is not held back by the stranger's failures.
    assert require(engine, login(engine, "ana", PASSWORD, client="198.51.100.7", clock=clock))
    # The stranger waits, and never longer than the cap.
    with pytest.raises(AccessDenied, match="Try again in") as held:
        login(engine, "ana", PASSWORD, client="203.0.113.9", clock=clock)
    seconds = int(str(held.value).split("Try again in ")[1].split()[0])
    assert 0 < seconds <= MAX_LOCK_SECONDS + 1
    clock.now += timedelta(seconds=MAX_LOCK_SECONDS + 1)
    assert login(engine, "ana", PASSWORD, client="203.0.113.9", clock=clock)


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


def test_the_postgresql_password_may_come_from_pgpass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if not POSTGRES_URL:
        pytest.skip("REVIEW_TEST_POSTGRES_URL is not set (CI sets it via ci_postgres.sh)")
    full = make_url(POSTGRES_URL)
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
