"""The Streamlit app, page by page and role by role, with AppTest.

The blindness tests render every page a reviewer or participant can reach and search
everything AppTest exposes (every element's protobuf, i.e. all text, labels and
values, plus the whole session state) for the round's model and provider names.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from review_app.core.auth import add_account
from review_app.core.db import now_utc
from review_app.rounds.contest import publish_round
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from review_app.tasks.reviewing import my_queue
from tests.factories import memory_review_round, review_model_names
from tests.review.app_login import logged_in
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
REVIEWER_PAGES = ["page_review", "page_contest", "page_guidelines"]
ADMIN_PAGES = ["page_calibration", "page_disagreements", "page_contestations", "page_batches"]


@pytest.fixture
def database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, str]]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bruno")}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    tokens["lab"] = add_and_login(engine, "lab", "participant")
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=2,
        seed=4,
    )
    release_all(engine)
    publish_round(engine, "r-demo", now_utc() - timedelta(days=1))
    # Bruno has judged everything; Ana sees none of it.
    for entry in my_queue(engine, tokens["bruno"]):
        reviewing.submit_judgment(engine, tokens["bruno"], entry.code, "refusal", "bruno's note")
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield tokens
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str = "pt-BR") -> AppTest:
    return logged_in(name, language)


def _everything(at: AppTest) -> str:
    """All text AppTest can see: element protos and the session state's values."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        parts.append(str(getattr(node, "proto", "")))
        children = getattr(node, "children", {})
        for child in children.values():
            walk(child)

    walk(at._tree)
    parts.append(repr(at.session_state.to_dict()))
    return "\n".join(parts)


def _assert_blind(at: AppTest) -> None:
    seen = _everything(at).lower()
    for name in review_model_names():
        assert name.lower() not in seen, f"{name!r} is visible to a blind account"
    for hidden in ("bruno's note", "parser", "inconclusive"):
        assert hidden not in seen, hidden


def test_login_page_and_bad_password(database: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert at.title[0].value == "Estigmas · revisão cega"
    at.text_input(key="login_name").input("ana")
    at.text_input(key="login_password").input("wrong password")
    at.button[0].click()
    at.run()
    assert [e.value for e in at.error] == ["Nome ou senha incorretos."]
    assert "token" not in at.session_state
    assert "login_password" not in at.session_state


def test_english_login_page(database: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = "en"
    at.run()
    assert at.title[0].value == "Estigmas · blind review"


def test_login_applies_the_accounts_preferred_language(
    database: dict[str, str], tmp_path: Path
) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    add_account(engine, "emma", "reviewer", PASSWORD, language="en")
    engine.dispose()
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    assert at.title[0].value == "Estigmas · revisão cega"
    at.text_input(key="login_name").input("emma")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["language"] == "en"
    assert at.sidebar.radio(key="page").options[0] == "Review"
    # The picker still switches the language after login, and it stays switched.
    at.sidebar.selectbox(key="language").set_value("pt-BR").run()
    at.run()
    assert at.session_state["language"] == "pt-BR"


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_reviewer_pages_are_blind(database: dict[str, str], language: str) -> None:
    at = _logged_in("ana", language)
    for page in REVIEWER_PAGES:
        at.sidebar.radio(key="page").set_value(page).run()
        assert not at.exception, (page, at.exception)
        _assert_blind(at)


def test_participant_pages_are_blind(database: dict[str, str]) -> None:
    at = _logged_in("lab")
    assert list(at.sidebar.radio(key="page").options) == ["Contestar", "Diretrizes"]
    for page in ["page_contest", "page_guidelines"]:
        at.sidebar.radio(key="page").set_value(page).run()
        assert not at.exception
        _assert_blind(at)


def test_judging_moves_the_progress_and_shows_plain_text(database: dict[str, str]) -> None:
    at = _logged_in("ana")
    # 24 strata (3 models x 4 styles x 2 languages), one sample each, all in Ana's queue.
    assert at.get("progress")[0].proto.text == "0 de 24 julgadas"
    # The prompt and the output, each as one plain-text element.
    assert len(at.text) == 2
    first_code = at.session_state["current_code"]
    at.button(key=f"choose_{first_code}_no").click().run()
    assert at.get("progress")[0].proto.text == "1 de 24 julgadas"
    second_code = at.session_state["current_code"]
    assert second_code != first_code
    at.button(key=f"choose_{second_code}_unclassifiable").click().run()
    # No note: a clear message, nothing recorded.
    assert at.error[0].value == "Explique numa observação por que a resposta é inclassificável."
    assert at.get("progress")[0].proto.text == "1 de 24 julgadas"
    _assert_blind(at)


def test_outputs_are_never_rendered_as_markdown(database: dict[str, str]) -> None:
    at = _logged_in("ana")
    for _ in range(24):
        texts = " ".join(t.value for t in at.text)
        markdown = " ".join(m.value for m in at.markdown)
        if "<b>" in texts:
            assert "<b>" not in markdown
            return
        at.button(key=f"choose_{at.session_state['current_code']}_yes").click().run()
    pytest.fail("no sample with markup in the queue; the fixture should provide one")


def test_stale_session_returns_to_login(database: dict[str, str]) -> None:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["token"] = "expired-or-forged"
    at.run()
    assert "Sua sessão expirou" in at.error[0].value
    assert "token" not in at.session_state
    assert at.text_input(key="login_name")


@pytest.mark.parametrize("page", ADMIN_PAGES)
def test_admin_pages(database: dict[str, str], page: str) -> None:
    at = _logged_in("admin")
    at.sidebar.radio(key="page").set_value(page).run()
    assert not at.exception, at.exception
    seen = _everything(at)
    if page == "page_disagreements":
        # Only Bruno judged: the "refusal" consensus differs from the parser on some samples,
        # and the administrator sees the unblinded model.
        assert "Sabiá-3" in seen or "gpt-4o" in seen or "zeltron-2" in seen
    if page == "page_calibration":
        assert "bruno: 24/24" in seen


def test_admin_closes_a_batch(database: dict[str, str]) -> None:
    at = _logged_in("admin")
    at.sidebar.radio(key="page").set_value("page_batches").run()
    at.button(key="close_1").click().run()
    assert "fechado" not in " ".join(t.value for t in at.text)  # closing asks first
    at.button(key="confirm_close_1").click().run()
    assert "fechado" in " ".join(t.value for t in at.text)


def test_logout(database: dict[str, str]) -> None:
    at = _logged_in("ana")
    at.sidebar.button(key="logout").click().run()
    assert "token" not in at.session_state
    assert at.text_input(key="login_name")
