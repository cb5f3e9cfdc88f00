"""Accounts (issue 9, point 8): normalised names, the password policy, the administrator's
operations in the data layer (SQLite and PostgreSQL) and on the accounts page (AppTest)."""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from sqlalchemy import Engine, select
from streamlit.testing.v1 import AppTest

from review_app.core.accounts import (
    create_account,
    list_accounts,
    reset_password,
    revoke_sessions,
    set_disabled,
    set_language,
)
from review_app.core.auth import add_account, login, require
from review_app.core.credentials import MIN_PASSWORD_CHARS, check_password, common_passwords
from review_app.core.db import accounts, audit_log
from review_app.core.errors import AccessDenied, ReviewInputError, SessionExpired
from tests.review.app_login import logged_in
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import PASSWORD, add_and_login, new_database

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = fresh_database(str(request.param), tmp_path)
    yield engine
    engine.dispose()


# -- names ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("r1", "R1"),
        ("r1", "ｒ１"),  # fullwidth
        (unicodedata.normalize("NFC", "José"), unicodedata.normalize("NFD", "José")),
        ("Ana", " ana "),
    ],
)
def test_names_that_differ_only_by_case_or_encoding_are_one_account(
    engine: Engine, first: str, second: str
) -> None:
    add_account(engine, first, "reviewer", PASSWORD)
    with pytest.raises(ReviewInputError, match="already exists"):
        add_account(engine, second, "reviewer", PASSWORD)
    # Either spelling logs in to the one account.
    assert (
        require(engine, login(engine, second, PASSWORD)).name
        == unicodedata.normalize("NFKC", first).strip()
    )
    with engine.connect() as connection:
        assert len(connection.execute(select(accounts.c.name)).all()) == 1


@pytest.mark.parametrize("name", ["ana\x00", "ana\tb", "ana\u200bb", "\u202eana", "a" * 81, "   "])
def test_names_with_control_or_invisible_characters_are_refused(engine: Engine, name: str) -> None:
    with pytest.raises(ReviewInputError, match=r"control or invisible|1–80"):
        add_account(engine, name, "reviewer", PASSWORD)


# -- the password policy ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("password", "message"),
    [
        ("abcdefghij1", "at least 12"),
        ("short pass!", "at least 12"),
        ("zzzzzzzzzzzzzzzz", "one character repeated"),
        ("Carolina-Souza", "the account's name"),
        ("carolina-souza2026!", "the account's name"),
        ("qwertyuiop123", "common passwords"),
        ("Password123456", "common passwords"),
        ("Senha@2026!!!", "common passwords"),
        ("correcthorsebatterystaple", "common passwords"),
        ("a good pass\x00word", "control or invisible"),
    ],
)
def test_the_password_policy(password: str, message: str) -> None:
    with pytest.raises(ReviewInputError, match=message):
        check_password(password, "carolina-souza")


def test_good_passwords_pass_the_policy() -> None:
    for password in (PASSWORD, "a long password", "Ipê-amarelo floresce em agosto"):
        check_password(password, "carolina-souza")


def test_every_long_entry_of_the_shipped_list_is_refused() -> None:
    shipped = common_passwords()
    assert len(shipped) >= 200
    long_ones = [entry for entry in shipped if len(entry) >= MIN_PASSWORD_CHARS]
    assert len(long_ones) >= 100
    for entry in long_ones:
        with pytest.raises(ReviewInputError):
            check_password(entry.upper(), "someone")


def test_account_creation_applies_the_policy(engine: Engine) -> None:
    with pytest.raises(ReviewInputError, match="common passwords"):
        add_account(engine, "ana", "reviewer", "password1234")
    with pytest.raises(ReviewInputError, match="the account's name"):
        add_account(engine, "ana-beatriz-souza", "reviewer", "ANA-BEATRIZ-SOUZA")


# -- the administrator's operations ----------------------------------------------------


def test_admin_creates_an_account_whose_password_is_shown_once(engine: Engine) -> None:
    admin = add_and_login(engine, "admin", "admin")
    account_id, password = create_account(engine, admin, "Carla", "reviewer", "en")
    check_password(password, "Carla")
    me = require(engine, login(engine, "carla", password))
    assert (me.account_id, me.name, me.role, me.language) == (account_id, "Carla", "reviewer", "en")
    with engine.connect() as connection:
        stored = connection.execute(
            select(accounts.c.password_hash).where(accounts.c.account_id == account_id)
        ).scalar_one()
        logged = " ".join(connection.execute(select(audit_log.c.detail)).scalars())
    assert password not in stored
    assert password not in logged


def test_only_admins_manage_accounts(engine: Engine) -> None:
    reviewer = add_and_login(engine, "ana")
    with pytest.raises(AccessDenied):
        create_account(engine, reviewer, "carla", "reviewer", "pt-BR")
    with pytest.raises(AccessDenied):
        list_accounts(engine, reviewer)
    with pytest.raises(AccessDenied):
        reset_password(engine, reviewer, 1)


def test_disabling_ends_sessions_and_logins_until_enabled(engine: Engine) -> None:
    admin = add_and_login(engine, "admin", "admin")
    ana = add_and_login(engine, "ana")
    ana_id = require(engine, ana).account_id
    set_disabled(engine, admin, ana_id, True)
    with pytest.raises(SessionExpired):
        require(engine, ana)
    # The refusal reads like any wrong password: it does not say the account exists.
    with pytest.raises(AccessDenied, match=r"^Incorrect name or password\.$"):
        login(engine, "ana", PASSWORD)
    assert [(a.name, a.disabled) for a in list_accounts(engine, admin)] == [
        ("admin", False),
        ("ana", True),
    ]
    set_disabled(engine, admin, ana_id, False)
    assert require(engine, login(engine, "ana", PASSWORD)).name == "ana"


def test_reset_password_and_revoke_sessions(engine: Engine) -> None:
    admin = add_and_login(engine, "admin", "admin")
    ana = add_and_login(engine, "ana")
    ana_id = require(engine, ana).account_id
    new_password = reset_password(engine, admin, ana_id)
    with pytest.raises(SessionExpired):
        require(engine, ana)
    with pytest.raises(AccessDenied):
        login(engine, "ana", PASSWORD)
    fresh = login(engine, "ana", new_password)
    other = login(engine, "ana", new_password)
    assert {a.name: a.live_sessions for a in list_accounts(engine, admin)}["ana"] == 2
    assert revoke_sessions(engine, admin, ana_id) == 2
    for session in (fresh, other):
        with pytest.raises(SessionExpired):
            require(engine, session)
    with engine.connect() as connection:
        actions = list(connection.execute(select(audit_log.c.action)).scalars())
    assert {"reset_password", "revoke_sessions"} <= set(actions)


def test_set_language_and_refusals(engine: Engine) -> None:
    admin = add_and_login(engine, "admin", "admin")
    admin_id = require(engine, admin).account_id
    ana = add_and_login(engine, "ana")
    set_language(engine, admin, require(engine, ana).account_id, "en")
    assert require(engine, ana).language == "en"
    with pytest.raises(ReviewInputError, match="Unknown language: fr"):
        set_language(engine, admin, admin_id, "fr")
    with pytest.raises(ReviewInputError, match="your own account"):
        set_disabled(engine, admin, admin_id, True)
    with pytest.raises(ReviewInputError, match="no account 999"):
        revoke_sessions(engine, admin, 999)


# -- the accounts page -------------------------------------------------------------------


@pytest.fixture
def app_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_account(engine, "admin", "admin", PASSWORD)
    add_account(engine, "ana", "reviewer", PASSWORD)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str = "en") -> AppTest:
    return logged_in(name, language)


def test_accounts_page_creates_resets_and_disables(app_database: Engine) -> None:
    at = _logged_in("admin")
    at.sidebar.radio(key="page").set_value("page_accounts").run()
    assert not at.exception, at.exception
    assert at.title[0].value == "Accounts"
    at.text_input(key="new_account_name").input("Carla")
    at.selectbox(key="new_account_role").set_value("reviewer")
    at.selectbox(key="new_account_language").set_value("en")
    at.button(key="FormSubmitter:new_account-Create account").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value.startswith("Account Carla created.")
    password = at.code[0].value
    carla = require(app_database, login(app_database, "carla", password))
    # Shown once: the next run shows it nowhere, and the session state never held it.
    at.run()
    assert not at.code
    assert password not in repr(at.session_state.to_dict())
    at.button(key=f"reset_{carla.account_id}").click().run()
    new_password = at.code[0].value
    assert new_password != password
    assert login(app_database, "carla", new_password)
    at.button(key=f"toggle_{carla.account_id}").click().run()
    assert not at.exception, at.exception
    assert at.success[0].value == "Account Carla updated."
    with pytest.raises(AccessDenied):
        login(app_database, "carla", new_password)
    assert any("Carla · reviewer · disabled" in element.value for element in at.text)


def test_accounts_page_refuses_a_duplicate_name_clearly(app_database: Engine) -> None:
    at = _logged_in("admin", "pt-BR")
    at.sidebar.radio(key="page").set_value("page_accounts").run()
    at.text_input(key="new_account_name").input("ANA")
    at.button(key="FormSubmitter:new_account-Criar conta").click().run()
    assert not at.exception, at.exception
    assert [e.value for e in at.error] == ["Já existe uma conta chamada ana."]


def test_reviewers_have_no_accounts_page(app_database: Engine) -> None:
    at = _logged_in("ana")
    assert "Accounts" not in at.sidebar.radio(key="page").options
