"""The review app under Streamlit's AppTest, logged in through its form as a person would."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from tests.review.helpers import PASSWORD

APP = str(Path(__file__).resolve().parents[2] / "review_app" / "app.py")


def logged_in(name: str, language: str, *, timeout: float = 60) -> AppTest:
    """The app after `name` (password PASSWORD) logged in, shown in `language`."""
    at = AppTest.from_file(APP, default_timeout=timeout)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input(name)
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    assert not at.exception, at.exception
    if at.session_state["language"] != language:
        # Logging in applies the account's preferred language; the picker still rules.
        at.sidebar.selectbox(key="language").set_value(language).run()
        assert not at.exception, at.exception
    return at
