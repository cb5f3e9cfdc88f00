"""The mask audit's decision (issue 21, point 2): the administrator decides each flagged
masked input of a counterfactual calibration (mask held / mask leaked), in the data layer
and on the administrator's page (AppTest, both languages). A decision is one row per
sample and one line of the hash-chained audit log; a leaked mask lists the judge score
it voids; a second identical decision writes nothing; only administrators decide.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from sqlalchemy import Engine, select

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.review import parse_unit_key
from reportgen.kinds.counterfactual.review.admin import mask_flag_list
from reportgen.kinds.counterfactual.review.mask_audit import (
    HELD,
    LEAKED,
    decide_mask,
    mask_decision_map,
    voided_scores,
)
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.review.tables import mask_decisions
from review_app.core.audit_chain import verify_audit_chain
from review_app.core.db import audit_log, samples
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.tasks.reviewing import my_queue
from tests.review.app_login import logged_in
from tests.review.cf import DEMO, score_queue
from tests.review.helpers import add_and_login, new_database, release_all

Setup = tuple[Engine, str, str]  # the engine, the reviewer's token, the admin's

BUTTONS = {"pt-BR": ("Máscara funcionou", "Máscara vazou"), "en": ("Mask held", "Mask leaked")}
VOIDED = {
    "pt-BR": "1 nota(s) do juiz registrada(s) como anulada(s)",
    "en": "1 judge score(s) recorded as void",
}


@pytest.fixture(scope="module")
def demo() -> Round:
    return read_cf_round(DEMO)


@pytest.fixture
def setup(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, demo: Round) -> Iterator[Setup]:
    """The database with the demonstration's calibration batch, reviewer h1's token
    and the admin chefe's."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    reviewer = add_and_login(engine, "h1")
    admin = add_and_login(engine, "chefe", "admin")
    create_scale_batch(engine, demo, seed=3)
    release_all(engine)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine, reviewer, admin
    engine.dispose()
    st.cache_resource.clear()


def _flag_two(engine: Engine, reviewer: str) -> list[str]:
    """The reviewer scores the whole queue, flagging its first two samples."""
    first = [entry.code for entry in my_queue(engine, reviewer)][:2]
    score_queue(engine, reviewer, flagged=first)
    return first


def _key(engine: Engine, code: str) -> tuple[str, str, str, int]:
    with engine.connect() as connection:
        unit_key = connection.execute(
            select(sample_keys.c.unit_key)
            .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
            .where(samples.c.code == code)
        ).scalar_one()
    key = parse_unit_key(str(unit_key))
    assert key is not None
    return key


def _decision_lines(engine: Engine) -> list[dict[str, object]]:
    with engine.connect() as connection:
        details = connection.execute(
            select(audit_log.c.detail).where(audit_log.c.action == "mask_decision")
        ).scalars()
        return [json.loads(detail) for detail in details]


def test_the_administrator_decides_each_flagged_sample(setup: Setup, demo: Round) -> None:
    database, reviewer, admin = setup
    held, leaked = _flag_two(database, reviewer)
    assert decide_mask(database, admin, demo.round_id, held, HELD)
    assert decide_mask(database, admin, demo.round_id, leaked, LEAKED)
    assert not decide_mask(database, admin, demo.round_id, leaked, LEAKED)  # written once
    assert mask_decision_map(database, admin, demo.round_id) == {held: HELD, leaked: LEAKED}
    assert voided_scores(database, admin, demo.round_id) == [_key(database, leaked)]
    lines = _decision_lines(database)
    assert [(line["code"], line["decision"]) for line in lines] == [(held, HELD), (leaked, LEAKED)]
    variable_id, model_id, item_id, run = _key(database, leaked)
    assert lines[1] | {"round_id": demo.round_id} == {
        "round_id": demo.round_id,
        "code": leaked,
        "variable_id": variable_id,
        "model_id": model_id,
        "item_id": item_id,
        "run": run,
        "decision": LEAKED,
        "replaces": None,
    }
    assert verify_audit_chain(database).entries >= 2  # raises when a link is broken
    assert decide_mask(database, admin, demo.round_id, leaked, HELD)  # changed: voids nothing
    assert voided_scores(database, admin, demo.round_id) == []
    assert _decision_lines(database)[-1]["replaces"] == LEAKED


def test_a_decision_needs_a_flagged_sample_a_known_choice_and_an_admin(
    setup: Setup, demo: Round
) -> None:
    database, reviewer, admin = setup
    flagged, _ = _flag_two(database, reviewer)
    codes = {f.code for f in mask_flag_list(database, admin, demo.round_id)}
    with database.connect() as connection:
        every = connection.execute(select(samples.c.code)).scalars().all()
    unflagged = next(code for code in every if code not in codes)
    with pytest.raises(ReviewInputError, match="no reviewer flagged this masked input"):
        decide_mask(database, admin, demo.round_id, unflagged, LEAKED)
    with pytest.raises(ReviewInputError, match="expected held"):
        decide_mask(database, admin, demo.round_id, flagged, "maybe")
    with pytest.raises(AccessDenied):
        decide_mask(database, reviewer, demo.round_id, flagged, LEAKED)
    with database.connect() as connection:
        assert connection.execute(select(mask_decisions)).all() == []


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_page_records_the_decision(setup: Setup, language: str) -> None:
    database, reviewer, _ = setup
    _, leaked = _flag_two(database, reviewer)
    at = logged_in("chefe", language)
    at.sidebar.radio(key="page").set_value("cf_page_calibration").run()
    assert not at.exception, at.exception
    held_label, leaked_label = BUTTONS[language]
    button = at.button(key=f"cf_mask_leaked_{leaked}_h1")
    assert button.label == leaked_label
    assert at.button(key=f"cf_mask_held_{leaked}_h1").label == held_label
    button.click().run()
    assert not at.exception, at.exception
    with database.connect() as connection:
        assert connection.execute(select(mask_decisions.c.decision)).scalars().all() == [LEAKED]
    assert at.button(key=f"cf_mask_leaked_{leaked}_h1").disabled  # the decision shown
    assert any(VOIDED[language] in text.value for text in at.text)
