"""The reviewer's rubric page (issue 13) with AppTest, in both languages: the statement,
the criteria with their anchors, the answer (its language in `lang`), one 0-5 group per
criterion, a refused submission that stores nothing, and no identity anywhere a reviewer
can reach (elements and session state).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from sqlalchemy import Engine, func, select
from streamlit.testing.v1 import AppTest

from reportgen.kinds.multidomain.model import Round
from review_app.core.db import criterion_scores, judgments, samples
from review_app.core.unblinding import sample_keys
from review_app.tasks import reviewing
from tests.review.helpers import PASSWORD, add_and_login, new_database
from tests.review.rubric import rubric_batch, tiny_round

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
LABELS = {
    "pt-BR": ("Enunciado", "Resposta (anonimizada)", "Correção", "Salvar as notas"),
    "en": ("Statement", "Answer (anonymized)", "Correctness", "Save the scores"),
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny"))


@pytest.fixture
def database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny: Round
) -> Iterator[tuple[Engine, str]]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    token = add_and_login(engine, "h1")
    rubric_batch(engine, tiny, "calibration", ["h1"], seed=1)
    rubric_batch(engine, tiny, "audit", ["h1"], seed=2)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine, token
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(language: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input("h1")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    assert not at.exception, at.exception
    if at.session_state["language"] != language:
        # Logging in applies the account's preferred language; the picker still rules.
        at.sidebar.selectbox(key="language").set_value(language).run()
    return at


def _everything(at: AppTest) -> str:
    """All text AppTest can see: element protos and the session state's values."""
    parts: list[str] = []

    def walk(node: Any) -> None:
        parts.append(str(getattr(node, "proto", "")))
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at._tree)
    parts.append(repr(at.session_state.to_dict()))
    return "\n".join(parts)


def _stored(engine: Engine) -> tuple[int, int]:
    with engine.connect() as connection:
        return (
            connection.execute(select(func.count()).select_from(judgments)).scalar_one(),
            connection.execute(select(func.count()).select_from(criterion_scores)).scalar_one(),
        )


def _submit(at: AppTest, language: str) -> None:
    next(b for b in at.button if b.label == LABELS[language][3]).click().run()


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_rubric_page_scores_every_criterion(
    database: tuple[Engine, str], language: str
) -> None:
    engine, _ = database
    at = _logged_in(language)
    code = at.session_state["current_code"]
    seen = _everything(at).replace("\\", "")  # captions escape their Markdown
    for label in LABELS[language]:
        assert label in seen, label
    assert "Afirma algo errado sobre o ponto central." in seen  # the anchor at 0
    radio = at.radio(key=f"score_{code}_correcao")
    assert list(radio.options) == ["0", "1", "2", "3", "4", "5"]
    assert radio.value is None  # nothing chosen for the reviewer
    radio.set_value(4)
    at.radio(key=f"score_{code}_clareza").set_value(0)
    _submit(at, language)
    assert not at.exception, at.exception
    assert _stored(engine) == (1, 2)
    assert at.session_state["current_code"] != code  # on to the next sample


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_a_missing_criterion_is_refused_and_nothing_is_stored(
    database: tuple[Engine, str], language: str
) -> None:
    engine, _ = database
    at = _logged_in(language)
    code = at.session_state["current_code"]
    at.radio(key=f"score_{code}_correcao").set_value(3)
    _submit(at, language)
    expected = {"pt-BR": "Dê uma nota ao critério “Clareza”", "en": "Give the criterion “Clarity”"}
    assert len(at.error) == 1
    assert at.error[0].value.startswith(expected[language])
    assert _stored(engine) == (0, 0)
    assert at.session_state["current_code"] == code  # the reviewer stays on the sample


def test_the_statement_and_answer_keep_their_language(database: tuple[Engine, str]) -> None:
    engine, token = database
    with engine.connect() as connection:
        zh_code = connection.execute(
            select(samples.c.code).where(samples.c.language == "zh").limit(1)
        ).scalar_one()
    at = _logged_in("en")
    at.session_state["current_code"] = zh_code
    at.run()
    seen = _everything(at)
    assert seen.count('lang=\\"zh\\"') + seen.count('lang="zh"') >= 2  # statement and answer
    statement = reviewing.load_sample(engine, token, zh_code).prompt_text
    assert statement[:10] in seen


def test_markup_in_an_answer_is_shown_as_typed(database: tuple[Engine, str]) -> None:
    engine, _ = database
    with engine.begin() as connection:
        connection.execute(samples.update().values(output_text="<b>bold</b> & <script>x</script>"))
    at = _logged_in("pt-BR")
    seen = _everything(at)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; &lt;script&gt;" in seen
    assert "<script>x</script>" not in seen


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_rubric_page_is_blind(database: tuple[Engine, str], language: str, tiny: Round) -> None:
    engine, _ = database
    at = _logged_in(language)
    for _ in range(6):  # a few samples of each batch, walked through by scoring them
        seen = _everything(at).lower()
        for participant in tiny.models:
            for name in (
                participant.provider,
                participant.api_identifier,
                participant.organization,
                participant.economic_group,
                participant.snapshot,
            ):
                assert name.lower() not in seen, name
        for judge in tiny.judges:
            assert judge.display_name.lower() not in seen, judge.display_name
        code = at.session_state["current_code"]
        with engine.connect() as connection:
            key = connection.execute(
                select(sample_keys.c.model_id, sample_keys.c.run, sample_keys.c.unit_key)
                .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
                .where(samples.c.code == code)
            ).one()
        assert key.unit_key.lower() not in seen
        state = repr(at.session_state.to_dict()).lower()
        # As a word: a random sample code ("sistema-p2gu6q") may hold a short id ("p2").
        as_word = rf"(?<![a-z0-9]){re.escape(key.model_id.lower())}(?![a-z0-9])"
        assert not key.model_id or re.search(as_word, state) is None
        at.radio(key=f"score_{code}_correcao").set_value(2)
        at.radio(key=f"score_{code}_clareza").set_value(2)
        _submit(at, language)
        assert not at.exception, at.exception
