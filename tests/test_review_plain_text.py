"""Text the app did not write (typed codes, names, file names in messages) shows as typed in
the elements that render Markdown: no image is fetched, no link made, no HTML run.

The elements' bodies are rendered here with markdown-it (CommonMark, as Streamlit's
renderer parses it) to see what a browser would be given.
"""

from __future__ import annotations

import html
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
import streamlit as st
from hypothesis import given
from hypothesis import strategies as some
from markdown_it import MarkdownIt
from sqlalchemy import Engine
from streamlit.testing.v1 import AppTest

from review_app.core.auth import add_account
from review_app.core.db import now_utc
from review_app.i18n import LANGUAGES, translate
from review_app.pages.text import escape_markdown
from review_app.rounds.contest import publish_round
from review_app.rounds.sampling import create_batch
from tests.factories import memory_review_round
from tests.review.app_login import logged_in
from tests.review.helpers import PASSWORD, new_database

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
IMAGE = "![x](http://127.0.0.1:9/x.png)"
HOSTILE = f"{IMAGE} <img src=http://127.0.0.1:9/y.png> [link](javascript:alert(1)) **b**"
HOSTILE_NAME = f"{IMAGE}<img src=z>"  # account names hold at most 80 characters
MARKDOWN = MarkdownIt("commonmark").enable(["strikethrough", "table"])


def _rendered(body: str) -> str:
    return str(MARKDOWN.render(body))


def _inert(body: str) -> bool:
    """Rendered, `body` is one paragraph of text: no image, link, emphasis or HTML."""
    out = _rendered(body)
    return out.startswith("<p>") and "<" not in out.removeprefix("<p>").removesuffix("</p>\n")


# Markdown's and HTML's marks, line breaks, and letters around them.
_TEXTS = some.text(alphabet=some.sampled_from("!#*_`[]()<>&~$|\\:/.-+=1a x\n\t@w"), max_size=40)


@given(_TEXTS)
def test_any_text_escaped_renders_as_itself(text: str) -> None:
    escaped = escape_markdown(text)
    flat = " ".join(text.splitlines()).strip()
    if not flat:
        assert escaped == ""
        return
    assert _inert(escaped), (text, escaped, _rendered(escaped))
    shown = html.unescape(_rendered(escaped).removeprefix("<p>").removesuffix("</p>\n"))
    assert shown.split() == flat.split()  # as typed (Markdown joins runs of spaces)


def test_ordinary_text_is_left_readable() -> None:
    for ordinary in ("tiny-2026-11 (0.17) i7, ana.", "1.50", "-0.25", "C-20260101-A1B2C3"):
        assert escape_markdown(ordinary) == ordinary
    assert escape_markdown(IMAGE) == "!\\[x\\](http\\://127.0.0.1:9/x.png)"


@pytest.fixture
def app_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_account(engine, "admin", "admin", PASSWORD)
    add_account(engine, "lab", "participant", PASSWORD)
    add_account(engine, "ana", "reviewer", PASSWORD)
    round_ = memory_review_round(tmp_path / "r-demo")
    create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=1, seed=4)
    publish_round(engine, "r-demo", now_utc() - timedelta(days=1))
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str) -> AppTest:
    return logged_in(name, language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_typed_code_with_markup_shows_in_the_error_as_typed(
    app_database: Engine, language: str
) -> None:
    at = _logged_in("lab", language)
    at.sidebar.radio(key="page").set_value("page_contest").run()
    at.text_input(key="contest_reference_0").input(HOSTILE)
    at.text_area(key="contest_justification_0").input("Uma justificativa longa o bastante. " * 2)
    (submit,) = [button for button in at.button if "FormSubmitter" in button.id]
    submit.click().run()
    assert not at.exception, at.exception
    (error,) = at.error
    expected = translate(language, "error_unknown_reference", reference=escape_markdown(HOSTILE))
    assert error.value == expected
    assert _inert(error.value), _rendered(error.value)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_name_with_markup_shows_as_typed(app_database: Engine, language: str) -> None:
    at = _logged_in("admin", language)
    at.sidebar.radio(key="page").set_value("page_accounts").run()
    at.text_input(key="new_account_name").input(HOSTILE_NAME)
    at.selectbox(key="new_account_role").set_value("reviewer")
    (submit,) = [button for button in at.button if "FormSubmitter" in button.id]
    submit.click().run()
    assert not at.exception, at.exception
    (created,) = at.success
    assert escape_markdown(HOSTILE_NAME) in created.value
    assert _inert(created.value), _rendered(created.value)
    password = at.code[0].value
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input(HOSTILE_NAME)
    at.text_input(key="login_password").input(password)
    at.button[0].click().run()
    assert not at.exception, at.exception
    (signed_in,) = at.sidebar.caption
    assert escape_markdown(HOSTILE_NAME) in signed_in.value
    assert _inert(signed_in.value), _rendered(signed_in.value)


def _archive_error_page() -> None:
    from reportgen.errors import InputError
    from review_app.pages.common import show_error

    show_error(InputError("/data/![x](http://127.0.0.1:9/x.png)/round.json: <img src=x>"))


def test_an_archive_error_shows_as_typed() -> None:
    at = AppTest.from_function(_archive_error_page, default_timeout=60).run()
    assert not at.exception, at.exception
    (error,) = at.error
    assert error.value == escape_markdown(
        "/data/![x](http://127.0.0.1:9/x.png)/round.json: <img src=x>"
    )
    assert _inert(error.value), _rendered(error.value)
