"""Two tabs of the same reviewer on the same sample (two AppTest sessions): the tab that
saves second, still showing what it loaded, is refused instead of overwriting."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from sqlalchemy import Engine
from streamlit.testing.v1 import AppTest

from review_app.i18n import LANGUAGES, translate
from review_app.rounds.sampling import create_batch
from review_app.tasks.reviewing import load_sample
from tests.factories import memory_review_round
from tests.review.helpers import PASSWORD, add_and_login, new_database, released

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


@pytest.fixture
def app_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Engine, str]]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    token = add_and_login(engine, "ana")
    round_ = memory_review_round(tmp_path / "r-demo")
    released(
        engine, create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=1, seed=4)
    )
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine, token
    engine.dispose()
    st.cache_resource.clear()


def _tab(language: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input("ana")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click().run()
    assert not at.exception, at.exception
    if at.session_state["language"] != language:
        at.sidebar.selectbox(key="language").set_value(language).run()
    return at


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_second_tab_cannot_overwrite_the_first_tab_s_judgment(
    app_database: tuple[Engine, str], language: str
) -> None:
    engine, token = app_database
    first, second = _tab(language), _tab(language)
    code = str(first.session_state["current_code"])
    assert second.session_state["current_code"] == code  # both show the same sample
    second.button(key=f"choose_{code}_refusal").click().run()
    assert not second.error
    assert load_sample(engine, token, code).choice == "refusal"
    # The first tab still shows the sample unjudged; its click must not overwrite.
    first.button(key=f"choose_{code}_yes").click().run()
    assert not first.exception, first.exception
    (error,) = first.error
    assert error.value.startswith(
        translate(language, "error_judgment_changed", code=code, time="00:00")[:30]
    )
    assert load_sample(engine, token, code).choice == "refusal"
    # Now the first tab shows that judgment: a second click is a knowing change.
    first.button(key=f"choose_{code}_yes").click().run()
    assert not first.error
    assert load_sample(engine, token, code).choice == "yes"
