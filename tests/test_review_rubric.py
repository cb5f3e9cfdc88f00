"""The rubric review task (issue 13): the multidomain tasks and their units, scoring each
criterion (stored with the judgment in one transaction, refused whole when a score is
missing or off the scale), undo, and the admin's read of the scores. SQLite and, with
REVIEW_TEST_POSTGRES_URL, PostgreSQL.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from reportgen.kinds.estigmas.review import REVIEW_TASK as ESTIGMAS_TASK
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review import AUDIT_TASK, CALIBRATION_TASK
from reportgen.kinds.review_task import SCORED, ReviewUnit
from review_app.core.db import (
    audit_log,
    criterion_scores,
    judgment_changes,
    judgments,
)
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import sample_keys
from review_app.tasks import reviewing
from review_app.tasks.lookup import task_of_kind
from review_app.tasks.rubric import submit_scores
from review_app.tasks.rubric_scores import rubric_scores
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.rubric import rubric_batch, tiny_round


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny"))


@pytest.fixture(params=KINDS)
def audit_db(
    request: pytest.FixtureRequest, tmp_path: Path, tiny: Round
) -> Iterator[tuple[Engine, str]]:
    engine = fresh_database(str(request.param), tmp_path)
    token = add_and_login(engine, "h1")
    rubric_batch(engine, tiny, "audit", ["h1"])
    yield engine, token
    engine.dispose()


def test_the_multidomain_kind_declares_audit_and_calibration_tasks() -> None:
    assert task_of_kind("multidomain") is AUDIT_TASK
    assert task_of_kind("multidomain", "calibration") is CALIBRATION_TASK
    assert task_of_kind("multidomain", "audit") is AUDIT_TASK
    assert AUDIT_TASK.is_rubric
    assert AUDIT_TASK.scale == (0, 5)
    with pytest.raises(ReviewInputError, match="no review task bogus"):
        task_of_kind("multidomain", "bogus")


def test_estigmas_keeps_its_choice_task() -> None:
    assert task_of_kind("estigmas") is ESTIGMAS_TASK
    assert not ESTIGMAS_TASK.is_rubric
    assert ESTIGMAS_TASK.choices == ("yes", "no", "cant_tell", "refusal", "unclassifiable")
    unit = ReviewUnit(0, "i1", "m1", "p", "o", "yes", ("original", "pt-BR"))
    assert (unit.run, unit.criteria, unit.unit_key) == (1, (), "i1|m1|1")


def test_audit_units_are_the_ok_responses_of_open_test_items(tiny: Round) -> None:
    units = list(AUDIT_TASK.units(tiny))
    open_ok = {
        (r.item_id, r.model_id, r.run)
        for rows in tiny.responses.values()
        for r in rows
        if r.status == "ok" and next(i for i in tiny.items if i.item_id == r.item_id).type == "open"
    }
    assert {(u.item_id, u.model_id, u.run) for u in units} == open_ok
    first = units[0]
    assert [c.criterion_id for c in first.criteria] == ["correcao", "clareza"]
    assert first.criteria[0].name("en") == "Correctness"
    assert first.language == next(i.language for i in tiny.items if i.item_id == first.item_id)
    assert first.unit_key == f"{first.item_id}|{first.model_id}|{first.run}"
    assert first.automatic == ""  # no jury score travels with a unit


def test_calibration_units_are_keyed_by_response_and_have_no_participant(tiny: Round) -> None:
    units = list(CALIBRATION_TASK.units(tiny))
    assert sorted(u.unit_key for u in units) == sorted({r.response_id for r in tiny.calibration})
    assert {u.model_id for u in units} == {""}
    assert {u.run for u in units} == {1}
    assert "zh" in {u.language for u in units}


def _counts(engine: Engine) -> tuple[int, ...]:
    with engine.connect() as connection:
        return tuple(
            connection.execute(select(func.count()).select_from(table)).scalar_one()
            for table in (judgments, criterion_scores, judgment_changes, audit_log)
        )


def test_scores_are_stored_revised_and_undone(audit_db: tuple[Engine, str]) -> None:
    engine, token = audit_db
    code = reviewing.my_queue(engine, token)[0].code
    assert submit_scores(engine, token, code, {"correcao": 4, "clareza": 5})
    assert not submit_scores(engine, token, code, {"correcao": 4, "clareza": 5})  # once
    sample = reviewing.load_sample(engine, token, code)
    assert (sample.choice, dict(sample.scores)) == (SCORED, {"correcao": 4, "clareza": 5})
    assert submit_scores(engine, token, code, {"correcao": 0, "clareza": 3}, "revised")
    undone = reviewing.undo_last_judgment(engine, token)
    assert undone is not None
    assert undone.restored == SCORED
    assert dict(reviewing.load_sample(engine, token, code).scores) == {"correcao": 4, "clareza": 5}
    assert reviewing.undo_last_judgment(engine, token) is None  # the last change only, once
    with engine.connect() as connection:
        (judged,) = rubric_scores(connection, "tiny-2026-11")
    assert judged.code == code
    assert dict(judged.scores) == {"correcao": 4, "clareza": 5}
    assert (judged.reviewer_name, judged.reviewer_pseudonym, judged.blind) == ("h1", "R1", True)


def test_undoing_a_first_score_leaves_the_sample_unjudged(audit_db: tuple[Engine, str]) -> None:
    engine, token = audit_db
    code = reviewing.my_queue(engine, token)[0].code
    before = _counts(engine)[:2]
    submit_scores(engine, token, code, {"correcao": 2, "clareza": 2})
    reviewing.undo_last_judgment(engine, token)
    assert _counts(engine)[:2] == before
    assert reviewing.load_sample(engine, token, code).choice is None


@pytest.mark.parametrize(
    ("scores", "message"),
    [
        ({"correcao": 6, "clareza": 3}, "from 0 to 5, not 6"),
        ({"correcao": -1, "clareza": 3}, "from 0 to 5, not -1"),
        ({"correcao": 2.5, "clareza": 3}, "whole number, not 2.5"),
        ({"correcao": True, "clareza": 3}, "whole number, not True"),
        ({"correcao": "3", "clareza": 3}, "whole number, not 3"),
        ({"clareza": 3}, "“Correctness” a score"),
        ({"correcao": 3, "clareza": 3, "estilo": 1}, "Unknown criterion: estilo"),
    ],
)
def test_bad_scores_are_refused_and_change_nothing(
    audit_db: tuple[Engine, str], scores: dict[str, object], message: str
) -> None:
    engine, token = audit_db
    first, second = (entry.code for entry in reviewing.my_queue(engine, token)[:2])
    submit_scores(engine, token, second, {"correcao": 1, "clareza": 1})
    before = _counts(engine)
    with pytest.raises(ReviewInputError, match=message) as refused:
        submit_scores(engine, token, first, scores)
    assert "Nada foi salvo" in refused.value.message("pt-BR")
    assert _counts(engine) == before
    assert reviewing.load_sample(engine, token, first).choice is None
    # A revision refused keeps the scores already recorded.
    with pytest.raises(ReviewInputError):
        submit_scores(engine, token, second, scores)
    assert dict(reviewing.load_sample(engine, token, second).scores) == {
        "correcao": 1,
        "clareza": 1,
    }


def test_a_rubric_sample_takes_no_single_choice(audit_db: tuple[Engine, str]) -> None:
    engine, token = audit_db
    code = reviewing.my_queue(engine, token)[0].code
    with pytest.raises(ReviewInputError, match="criterion by criterion"):
        reviewing.submit_judgment(engine, token, code, SCORED)
    assert _counts(engine)[0] == 0


def test_another_reviewer_cannot_score_a_sample_not_theirs(audit_db: tuple[Engine, str]) -> None:
    engine, token = audit_db
    code = reviewing.my_queue(engine, token)[0].code
    stranger = add_and_login(engine, "h2")
    with pytest.raises(ReviewInputError, match="is not in your queue"):
        submit_scores(engine, stranger, code, {"correcao": 1, "clareza": 1})
    assert _counts(engine)[0] == 0


def test_the_reviewer_sample_holds_no_identity(audit_db: tuple[Engine, str], tiny: Round) -> None:
    engine, token = audit_db
    code = reviewing.my_queue(engine, token)[0].code
    sample = reviewing.load_sample(engine, token, code)
    shown = repr(
        (sample.code, sample.prompt_text, sample.output_text, sample.criteria, sample.language)
    )
    with engine.connect() as connection:
        model_id = connection.execute(select(sample_keys.c.model_id)).scalars().first()
    assert model_id

    def named(name: str) -> bool:
        # As a word: the tiny round's ids are two characters ("p1"), which a random
        # sample code may hold by chance (this test once failed that way).
        return re.search(rf"(?<![0-9A-Za-z]){re.escape(name)}(?![0-9A-Za-z])", shown) is not None

    assert not named(model_id)
    for participant in tiny.models:
        for name in (participant.display_name, participant.organization):
            assert not named(name)
    assert not hasattr(sample, "run")
    assert not hasattr(sample, "model_id")
