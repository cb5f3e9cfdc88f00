"""The reviewer's annotation loop in the app (AppTest; issue 9, points 4, 5, 7 and 11):
answers bound to the sample on screen, an undo that shows the sample again, nothing typed
lost (note drafts, errors that clear nothing), outputs shown literally, and notes that
cannot pass for votes on the disagreement page. The data layer's undo and the notes'
quoting: tests/test_review_loop.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from sqlalchemy import Engine, select, update
from streamlit.testing.v1 import AppTest

from review_app.core.auth import login
from review_app.core.db import assignments, judgments, now_utc, samples
from review_app.rounds.contest import publish_round
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import memory_review_round
from tests.review.app_login import logged_in
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
# Bidirectional controls and other characters that change the layout without being seen.
INVISIBLE = "\u202e\u202d\u202a\u202b\u202c\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u2060\ufeff"
MARKDOWN_OUTPUT = "**Sim.** A resposta _tachada_ é\n# sim\n[veja](http://example.org) `código`"


@pytest.fixture
def app_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    for name in ("ana", "bruno"):
        add_and_login(engine, name)
    add_and_login(engine, "admin", "admin")
    add_and_login(engine, "lab", "participant")
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
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine
    engine.dispose()
    st.cache_resource.clear()


def _judged(engine: Engine) -> dict[str, str]:
    """Every recorded judgment of every reviewer: sample code -> choice (Ana's only here)."""
    with engine.connect() as connection:
        rows = connection.execute(
            select(samples.c.code, judgments.c.choice)
            .select_from(judgments)
            .join(assignments)
            .join(samples)
        ).all()
    return {row.code: row.choice for row in rows}


def _current(at: AppTest) -> str:
    return str(at.session_state["current_code"])


def test_choices_are_keyed_by_the_sample_and_a_late_press_is_dropped(
    app_database: Engine,
) -> None:
    at = logged_in("ana", "pt-BR")
    first = _current(at)
    at.button(key=f"choose_{first}_no").click().run()
    second = _current(at)
    assert second != first
    assert _judged(app_database) == {first: "no"}
    # A second press on the first sample's button, made while it was still on screen,
    # reaches the server after it moved on to the second sample: it names a button this
    # run does not draw, so it judges nothing (before, it judged the second sample unseen).
    at.session_state["current_code"] = first
    at.run()
    at.button(key=f"choose_{first}_yes").click()
    at.session_state["current_code"] = second
    at.run()
    assert not at.exception, at.exception
    assert _judged(app_database) == {first: "no"}
    assert _current(at) == second
    assert at.text_area(key=f"note_{second}")
    assert at.button(key=f"previous_{second}")
    assert at.button(key=f"next_{second}")


def test_undo_in_the_app_shows_the_sample_again_with_its_note(app_database: Engine) -> None:
    at = logged_in("ana", "pt-BR")
    first = _current(at)
    assert at.button(key="undo_none").disabled
    at.text_area(key=f"note_{first}").input("resposta cortada no meio")
    at.button(key=f"choose_{first}_unclassifiable").click().run()
    assert _judged(app_database) == {first: "unclassifiable"}
    assert _current(at) != first
    (undo,) = [b for b in at.button if b.key and b.key.startswith("undo_")]
    assert first in undo.label
    assert "Inclassificável" in undo.label
    undo.click().run()
    assert not at.exception, at.exception
    assert _judged(app_database) == {}
    assert _current(at) == first
    assert [i.value for i in at.info] == [f"Julgamento da amostra {first} desfeito."]
    assert at.text_area(key=f"note_{first}").value == "resposta cortada no meio"
    assert at.button(key="undo_none").disabled


def test_a_note_typed_before_next_is_kept_per_sample(app_database: Engine) -> None:
    at = logged_in("ana", "pt-BR")
    first = _current(at)
    at.text_area(key=f"note_{first}").input("rascunho da primeira")
    at.button(key=f"next_{first}").click().run()
    second = _current(at)
    assert second != first
    assert at.text_area(key=f"note_{second}").value == ""
    at.text_area(key=f"note_{second}").input("rascunho da segunda")
    at.button(key=f"previous_{second}").click().run()
    assert _current(at) == first
    assert at.text_area(key=f"note_{first}").value == "rascunho da primeira"
    at.button(key=f"next_{first}").click().run()
    assert at.text_area(key=f"note_{second}").value == "rascunho da segunda"
    assert _judged(app_database) == {}  # a draft is not a judgment
    # Judging records the draft as the note and ends the draft.
    at.button(key=f"choose_{second}_unclassifiable").click().run()
    assert _judged(app_database) == {second: "unclassifiable"}
    assert at.session_state["note_drafts"] == {first: "rascunho da primeira"}


def test_the_note_required_error_keeps_the_note_and_the_navigation(
    app_database: Engine,
) -> None:
    at = logged_in("ana", "pt-BR")
    first = _current(at)
    at.text_area(key=f"note_{first}").input("   ")
    at.button(key=f"choose_{first}_unclassifiable").click().run()
    assert [e.value for e in at.error] == [
        "A observação contém só espaços. Escreva o texto ou deixe-a vazia."
    ]
    at.text_area(key=f"note_{first}").input("")
    at.button(key=f"choose_{first}_unclassifiable").click().run()
    assert [e.value for e in at.error] == [
        "Explique numa observação por que a resposta é inclassificável."
    ]
    assert _judged(app_database) == {}
    # The navigation (and with it the arrow keys, its shortcuts) is still there and works.
    assert at.button(key=f"next_{first}").proto.shortcut == "right"
    at.button(key=f"next_{first}").click().run()
    assert _current(at) != first
    at.button(key=f"previous_{_current(at)}").click().run()
    assert _current(at) == first


def _box(at: AppTest, key: str) -> tuple[bool, list[str], list[str]]:
    """The bordered box keyed `key`: (has a border, its captions, its plain texts)."""
    for block in at.main.children.values():
        proto = getattr(block, "proto", None)
        if proto is not None and str(getattr(proto, "id", "")).endswith(f"-{key}"):
            children = list(block.children.values())
            return (
                bool(proto.flex_container.border),
                [c.value for c in children if c.type == "caption"],
                [c.value for c in children if c.type == "text"],
            )
    raise AssertionError(f"no box {key!r} on the page")


def test_outputs_are_literal_and_apart_from_the_question(app_database: Engine) -> None:
    at = logged_in("ana", "pt-BR")
    code = _current(at)
    with app_database.begin() as connection:
        connection.execute(
            update(samples).where(samples.c.code == code).values(output_text=MARKDOWN_OUTPUT)
        )
    at.run()
    prompt_text = reviewing.load_sample(app_database, _token(at), code).prompt_text
    assert _box(at, f"prompt_{code}") == (True, ["Pergunta"], [prompt_text])
    assert _box(at, f"output_{code}") == (True, ["Resposta do modelo"], [MARKDOWN_OUTPUT])
    for markdown in at.markdown:
        assert "tachada" not in markdown.value


def _token(at: AppTest) -> str:
    return str(at.session_state["token"])


def _submit_button(at: AppTest) -> Any:
    return next(button for button in at.button if button.label == "Enviar contestação")


def test_a_refused_contestation_keeps_everything_typed(app_database: Engine) -> None:
    at = logged_in("lab", "pt-BR")
    at.sidebar.radio(key="page").set_value("page_contest").run()
    justification = "O item pressupõe um fato que não consta do enunciado, " * 3
    at.text_input(key="contest_reference_0").input("nao-existe")
    at.text_area(key="contest_justification_0").input(justification)
    _submit_button(at).click().run()
    assert "não é código de uma amostra atribuída a você nem item" in at.error[0].value
    assert at.text_input(key="contest_reference_0").value == "nao-existe"
    assert at.text_area(key="contest_justification_0").value == justification
    # Corrected, it goes through, and the form starts empty again.
    at.text_input(key="contest_reference_0").input("ori-pt-BR-0")
    _submit_button(at).click().run()
    assert not at.error
    assert "recebida" in at.success[0].value
    assert at.text_area(key="contest_justification_1").value == ""


def test_notes_cannot_forge_votes_on_the_disagreement_page(app_database: Engine) -> None:
    tokens = {name: login(app_database, name, PASSWORD) for name in ("ana", "bruno")}
    shared = next(
        e.code
        for e in reviewing.my_queue(app_database, tokens["ana"])
        if e.code in {b.code for b in reviewing.my_queue(app_database, tokens["bruno"])}
    )
    forged = f"concordo\n\u202eana: Sim{INVISIBLE}\n**bruno: Sim**"
    reviewing.submit_judgment(app_database, tokens["ana"], shared, "no", forged)
    reviewing.submit_judgment(app_database, tokens["bruno"], shared, "refusal")
    at = logged_in("admin", "pt-BR")
    at.sidebar.radio(key="page").set_value("page_disagreements").run()
    assert not at.exception, at.exception
    texts = [t.value for t in at.text]
    (votes,) = [text for text in texts if "ana: Não" in text]
    assert set(votes.split("\n")[-2:]) == {"ana: Não", "bruno: Recusa"}
    assert "concordo" not in votes
    (note,) = [text for text in texts if "concordo" in text]
    assert note == "> concordo\n> ana: Sim\n> **bruno: Sim**"
    for text in texts:
        assert not set(text) & set(INVISIBLE), text
    assert "Observação de ana" in [c.value for c in at.caption]
