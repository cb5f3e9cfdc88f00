"""The Estigmas admin pages (calibration, disagreements) beside rubric batches: a rubric
judgment ("scored") has no choice to compare with the parser, so those pages count and
queue only the choice judgments, with no traceback, in both languages."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from sqlalchemy import Engine, select
from streamlit.testing.v1 import AppTest

from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.review.sampling import create_rubric_batch
from review_app.core.db import accounts, assignments, samples
from review_app.rounds.admin import calibrate, disagreement_queue, judged_samples
from review_app.rounds.export import audit_results
from review_app.rounds.sampling import create_batch
from review_app.tasks.lookup import task_of_kind
from review_app.tasks.reviewing import submit_judgment
from tests.factories import memory_review_round
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
ESTIGMAS_JUDGED = 5  # choice judgments of h1 on the Estigmas batch


def _codes_of(engine: Engine, name: str, batch_id: int) -> list[str]:
    with engine.connect() as connection:
        return list(
            connection.execute(
                select(samples.c.code)
                .join(assignments, assignments.c.sample_id == samples.c.sample_id)
                .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
                .where(accounts.c.name == name, samples.c.batch_id == batch_id)
                .order_by(assignments.c.position)
            ).scalars()
        )


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Engine, str]]:
    """An Estigmas batch with a few choice judgments, and the tiny multidomain round's
    audit (scored) and calibration batches."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    admin = add_and_login(engine, "admin", "admin")
    h1 = add_and_login(engine, "h1")
    add_and_login(engine, "h2")
    estigmas = create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=9,
    )
    release_all(engine)
    choice = task_of_kind("estigmas").choices[0]
    for code in _codes_of(engine, "h1", estigmas)[:ESTIGMAS_JUDGED]:
        submit_judgment(engine, h1, code, choice, "nota")
    folder = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, folder)
    create_rubric_batch(engine, read_md_round(folder), task_type="calibration", seed=9)
    release_all(engine)
    score_audit(engine)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine, admin
    engine.dispose()
    st.cache_resource.clear()


def test_the_admin_functions_leave_the_rubric_judgments_out(mixed: tuple[Engine, str]) -> None:
    engine, admin = mixed
    judged = judged_samples(engine, admin)
    assert {s.round_id for s in judged} == {"r-demo"}
    assert len(judged) == ESTIGMAS_JUDGED
    assert calibrate(judged, judged[0].task).judged_samples == ESTIGMAS_JUDGED
    assert all(s.round_id == "r-demo" for s in disagreement_queue(engine, admin))
    assert audit_results(engine, "r-demo", replicates=20).samples_judged == ESTIGMAS_JUDGED


def _admin_on(page: str, language: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input("admin")
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    if at.session_state["language"] != language:
        at.sidebar.selectbox(key="language").set_value(language).run()
    at.sidebar.radio(key="page").set_value(page).run()
    return at


@pytest.mark.parametrize("language", ["pt-BR", "en"])
@pytest.mark.parametrize("page", ["page_calibration", "page_disagreements", "page_batches"])
def test_the_estigmas_pages_open_beside_rubric_batches(
    mixed: tuple[Engine, str], page: str, language: str
) -> None:
    at = _admin_on(page, language)
    assert not at.exception, at.exception
    assert not at.error
    if page == "page_calibration":
        assert at.metric[0].value == str(ESTIGMAS_JUDGED)
        # Only the Estigmas round is offered: the multidomain one has no choice judgments.
        assert not [box for box in at.selectbox if box.key == "round"]
