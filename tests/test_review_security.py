"""The review app's defences in the app (issue 9, points 6 and 16; issue 23, points 8 and
9): the session cookie as the page reads it, control characters, a server started without
error details, and the admin's unlock on the accounts page. On the command line and in
storage (one-line errors, throttling per name, the database's file and URL):
tests/test_review_security_cli.py. The server's routes, headers and proxies:
tests/test_review_web.py. Storage behaviour runs on SQLite and, when
REVIEW_TEST_POSTGRES_URL is set, on PostgreSQL."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from sqlalchemy import Engine, insert, select, update
from streamlit.testing.v1 import AppTest

import review_app.pages.common
from review_app.core.auth import (
    FREE_FAILURES,
    add_account,
    client_fingerprint,
    login,
    require,
)
from review_app.core.db import (
    batches,
    login_sessions,
    now_utc,
    rounds,
    samples,
)
from review_app.core.errors import AccessDenied, ReviewInputError, SessionExpired
from review_app.core.storage import open_database
from review_app.core.web import SESSION_COOKIE, SESSION_ROUTE, TOKEN_SHAPE
from review_app.core.web_sessions import redeem_ticket
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from review_app.tasks.reviewing import my_queue
from tests.factories import memory_review_round
from tests.review.databases import KINDS, empty_database_url
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


@pytest.fixture(params=KINDS)
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    return empty_database_url(str(request.param), tmp_path)


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
    review_app.pages.common._engine_for(url).dispose()  # the app's cached engine
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


def _posts(at: AppTest) -> list[dict[str, Any]]:
    """What the page asked the browser to post to the server on the last run."""
    found: list[dict[str, Any]] = []

    def walk(node: Any) -> None:
        proto: Any = getattr(node, "proto", None)
        if getattr(proto, "component_name", "") == "reportgen_review_post":
            found.append(json.loads(proto.json))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    return found


@pytest.fixture
def in_a_browser(monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """Runs as a served page sees them: the cookie path, not AppTest's session state.
    Fill the returned mapping with the cookies the browser sends."""
    cookies: dict[str, str] = {}
    monkeypatch.setattr(review_app.pages.common, "without_browser", lambda: False)
    monkeypatch.setattr(review_app.pages.common, "browser_cookies", lambda: cookies)
    return cookies


def _open_tab() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = "en"
    at.run()
    assert not at.exception, at.exception
    return at


# -- issue 9 point 6, issue 23 point 8: the session cookie ---------------------------------


def test_no_script_writes_a_cookie() -> None:
    """The token is never handed to JavaScript: only the server sets the cookie."""
    for source in Path(APP).parent.glob("*.py"):
        assert "document.cookie" not in source.read_text(encoding="utf-8"), source


def test_the_login_form_hands_the_browser_a_ticket_not_a_token(
    app_url: str, in_a_browser: dict[str, str]
) -> None:
    at = _open_tab()
    at.text_input(key="login_name").input("ana")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    [post] = _posts(at)
    assert post["action"] == SESSION_ROUTE
    ticket = post["fields"]["ticket"]
    assert TOKEN_SHAPE.fullmatch(ticket)
    assert "token" not in at.session_state
    engine = new_database(app_url)
    with engine.connect() as connection:
        assert connection.execute(select(login_sessions)).all() == []  # not logged in yet
    # The server redeems it once, for the browser that asked (AppTest: no User-Agent).
    token = redeem_ticket(engine, ticket, fingerprint=client_fingerprint("", ""))
    with pytest.raises(SessionExpired):
        redeem_ticket(engine, ticket, fingerprint=client_fingerprint("", ""))
    # A tab whose connection brings that cookie is logged in as Ana.
    in_a_browser[SESSION_COOKIE] = token
    tab = _open_tab()
    assert len(tab.sidebar.radio) == 1
    assert "ana" in tab.sidebar.caption[0].value
    engine.dispose()


def test_a_token_from_another_browser_opens_nothing(
    app_url: str, in_a_browser: dict[str, str]
) -> None:
    engine = new_database(app_url)
    elsewhere = login(engine, "ana", PASSWORD, fingerprint=client_fingerprint("Other/1.0", ""))
    engine.dispose()
    in_a_browser[SESSION_COOKIE] = elsewhere
    tab = _open_tab()
    assert len(tab.sidebar.radio) == 0
    assert tab.text_input(key="login_name")
    assert [e.value for e in tab.error] == [
        "Your session has expired or is invalid. Please log in again."
    ]


def test_logout_revokes_the_session_and_asks_the_server_to_delete_the_cookie(
    app_url: str, in_a_browser: dict[str, str]
) -> None:
    engine = new_database(app_url)
    in_a_browser[SESSION_COOKIE] = login(engine, "ana", PASSWORD)
    at = _open_tab()
    at.sidebar.button(key="logout").click().run()
    assert not at.exception, at.exception
    assert _posts(at) == [{"action": "/_review/logout", "fields": {}}]
    # Revoked on the server already: the old cookie, sent by another tab, opens nothing.
    tab = _open_tab()
    assert len(tab.sidebar.radio) == 0
    assert tab.text_input(key="login_name")
    engine.dispose()


def test_an_expired_or_forged_cookie_opens_nothing(
    app_url: str, in_a_browser: dict[str, str]
) -> None:
    engine = new_database(app_url)
    token = login(engine, "ana", PASSWORD)
    with engine.begin() as connection:
        connection.execute(
            update(login_sessions).values(expires_at=now_utc() - timedelta(seconds=1))
        )
    engine.dispose()
    for cookie in (token, "x" * 43, "'; DROP TABLE accounts; --", "a\x00b"):
        in_a_browser[SESSION_COOKIE] = cookie
        tab = _open_tab()
        assert len(tab.sidebar.radio) == 0, cookie
        assert tab.text_input(key="login_name")


def test_each_judgment_gets_a_saved_confirmation(app_url: str, tmp_path: Path) -> None:
    engine = new_database(app_url)
    add_account(engine, "bruno", "reviewer", PASSWORD)
    create_batch(
        engine, memory_review_round(tmp_path / "r-demo"), fraction=0.2, min_per_stratum=1,
        overlap=2, seed=4,
    )  # fmt: skip
    release_all(engine)
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


def test_the_server_runs_without_error_details_or_the_test_login(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from review_app import server

    ran: list[dict[str, object]] = []
    monkeypatch.setattr(st.App, "run", lambda _app, *, config: ran.append(dict(config)))
    monkeypatch.setenv("FORWARDED_ALLOW_IPS", "127.0.0.1")
    server.main(["--port", "8600", "--address", "0.0.0.0"])
    [config] = ran
    assert config["client.showErrorDetails"] == "none"
    assert config["global.appTest"] is False
    assert (config["server.port"], config["server.address"]) == (8600, "0.0.0.0")
    assert os.environ["FORWARDED_ALLOW_IPS"] == ""


def test_the_accounts_page_unlocks_a_locked_name(app_url: str) -> None:
    engine = new_database(app_url)
    # The failures are dated an hour ahead, so the lock they set outlasts the test however
    # slow the machine (on the clock a lock of a few seconds ran out on a loaded one
    # before the admin's page showed it).
    ahead = now_utc() + timedelta(hours=1)
    for _ in range(FREE_FAILURES + 2):
        with pytest.raises(AccessDenied):
            login(engine, "ana", "guess", clock=lambda: ahead)
    at = _log_in("admin")
    at.sidebar.radio(key="page").set_value("page_accounts").run()
    assert "Failed logins hold this name back for a while." in [c.value for c in at.caption]
    [button] = [b for b in at.button if str(b.key).startswith("unlock_")]
    button.click().run()
    assert not at.exception, at.exception
    assert [s.value for s in at.success] == ["Account ana updated."]
    assert not [b for b in at.button if str(b.key).startswith("unlock_")]
    assert require(engine, login(engine, "ana", PASSWORD))
    engine.dispose()
