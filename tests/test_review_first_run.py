"""`reportgen review serve` on a database with no account: the page says how to create
the first administrator, in both languages, and shows no login form that could never
succeed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from review_app.core.auth import add_account
from review_app.i18n import LANGUAGES, translate
from tests.review.helpers import PASSWORD, new_database

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


@pytest.fixture
def database_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    path = tmp_path / "review.db"
    monkeypatch.setenv("REVIEW_DB_URL", f"sqlite:///{path}")
    yield path
    st.cache_resource.clear()


def _page(language: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("created", [False, True], ids=["no-database", "no-account"])
def test_an_app_without_accounts_says_what_to_run(
    database_file: Path, language: str, created: bool
) -> None:
    if created:
        new_database(f"sqlite:///{database_file}").dispose()
    at = _page(language)
    assert not at.text_input  # no login form
    assert not at.button
    (info,) = at.info
    assert info.value == translate(language, "setup_no_accounts")
    (commands,) = at.code
    assert commands.value.splitlines() == [
        f"reportgen review init --db sqlite:///{database_file}",
        f"reportgen review add-reviewer NAME --role admin --db sqlite:///{database_file}",
    ]
    assert translate(language, "setup_then_reload") in [c.value for c in at.caption]


def test_once_an_account_exists_the_login_form_is_back(database_file: Path) -> None:
    engine = new_database(f"sqlite:///{database_file}")
    add_account(engine, "chefe", "admin", PASSWORD)
    engine.dispose()
    at = _page("en")
    assert not at.info
    assert at.text_input(key="login_name")
    at.text_input(key="login_name").input("chefe")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    assert "token" in at.session_state
