"""Reviewing and administering a batch: judgments, revisions, blindness, calibration, export."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, func, select, text
from sqlalchemy.exc import DBAPIError

from review_app.core.db import NOTE_MAX_CHARS, audit_log, judgments
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.rounds import admin
from review_app.rounds.export import audit_results, write_export
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import memory_review_round
from tests.review.helpers import add_and_login, new_database, release_all


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Engine, dict[str, str]]:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bruno")}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=2,
        seed=5,
    )
    release_all(engine)
    return engine, tokens


@contextmanager
def recorded_sql(engine: Engine) -> Iterator[list[str]]:
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(str(args[2]).lower())

    event.listen(engine, "before_cursor_execute", record)
    try:
        yield statements
    finally:
        event.remove(engine, "before_cursor_execute", record)


def test_reviewer_functions_never_read_the_unblinding_tables(
    setup: tuple[Engine, dict[str, str]],
) -> None:
    engine, tokens = setup
    with recorded_sql(engine) as statements:
        queue = reviewing.my_queue(engine, tokens["ana"])
        reviewing.load_sample(engine, tokens["ana"], queue[0].code)
        reviewing.submit_judgment(engine, tokens["ana"], queue[0].code, "yes", "ok")
    assert statements
    for statement in statements:
        for forbidden in ("sample_keys", "automatic", "model_id", "adjudications"):
            assert forbidden not in statement, statement


def test_queues_are_private_and_overlapping(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    ana = {e.code for e in reviewing.my_queue(engine, tokens["ana"])}
    bruno = {e.code for e in reviewing.my_queue(engine, tokens["bruno"])}
    # Two reviewers with overlap 2: both judge every sample.
    assert ana == bruno
    assert ana
    code = next(iter(ana))
    reviewing.submit_judgment(engine, tokens["ana"], code, "no")
    # Bruno does not see Ana's judgment.
    assert reviewing.load_sample(engine, tokens["bruno"], code).choice is None
    with pytest.raises(AccessDenied):
        reviewing.my_queue(engine, tokens["admin"])
    with pytest.raises(AccessDenied):
        admin.judged_samples(engine, tokens["ana"])


def test_submit_twice_records_once_and_revisions(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    assert reviewing.submit_judgment(engine, tokens["ana"], code, "yes", "clear")
    assert not reviewing.submit_judgment(engine, tokens["ana"], code, "yes", "clear")
    assert reviewing.submit_judgment(engine, tokens["ana"], code, "cant_tell")
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(judgments)).scalar() == 1
        actions = connection.execute(select(audit_log.c.action)).scalars().all()
    assert actions.count("judge") == 1
    assert actions.count("revise_judgment") == 1
    assert reviewing.load_sample(engine, tokens["ana"], code).choice == "cant_tell"


@pytest.mark.parametrize(
    ("choice", "note", "message"),
    [
        ("maybe", None, "Unknown option"),
        ("yes", "   ", "only spaces"),
        ("yes", "x" * (NOTE_MAX_CHARS + 1), "maximum"),
        ("unclassifiable", None, "explain"),
    ],
)
def test_bad_judgments_change_nothing(
    setup: tuple[Engine, dict[str, str]], choice: str, note: str | None, message: str
) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    with pytest.raises(ReviewInputError, match=message):
        reviewing.submit_judgment(engine, tokens["ana"], code, choice, note)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(judgments)).scalar() == 0


def test_unknown_sample_and_stale_session(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    with pytest.raises(ReviewInputError, match="not in your queue"):
        reviewing.submit_judgment(engine, tokens["ana"], "SISTEMA-XXXXXX", "yes")
    with pytest.raises(AccessDenied, match="log in again"):
        reviewing.submit_judgment(engine, "stale", "SISTEMA-XXXXXX", "yes")


def test_closed_batch_freezes_judgments(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    batch = admin.list_batches(engine, tokens["admin"])[0]
    admin.close_batch(engine, tokens["admin"], batch.batch_id)
    assert admin.list_batches(engine, tokens["admin"])[0].closed
    with pytest.raises(ReviewInputError, match="closed"):
        reviewing.submit_judgment(engine, tokens["ana"], code, "no")
    assert reviewing.load_sample(engine, tokens["ana"], code).closed
    assert reviewing.next_code(reviewing.my_queue(engine, tokens["ana"])) is None


def _judge_all(engine: Engine, tokens: dict[str, str]) -> None:
    """Ana agrees with Bruno except on the first sample."""
    for position, entry in enumerate(reviewing.my_queue(engine, tokens["ana"])):
        reviewing.submit_judgment(engine, tokens["ana"], entry.code, "yes")
        reviewing.submit_judgment(
            engine, tokens["bruno"], entry.code, "no" if position == 0 else "yes"
        )


def test_calibration_disagreements_and_adjudication(
    setup: tuple[Engine, dict[str, str]],
) -> None:
    engine, tokens = setup
    _judge_all(engine, tokens)
    progress = admin.reviewer_progress(engine, tokens["admin"])
    assert [(p.name, p.judged == p.assigned) for p in progress] == [("ana", True), ("bruno", True)]
    judged = admin.judged_samples(engine, tokens["admin"])
    calibration = admin.calibrate(judged, judged[0].task)
    assert calibration.judged_samples == len(judged)
    assert sum(map(sum, calibration.confusion)) == 2 * len(judged)
    assert set(calibration.kappa_by_reviewer) == {"ana", "bruno"}
    assert calibration.alpha_reviewers < 1
    queue = admin.disagreement_queue(engine, tokens["admin"])
    split = [s for s in queue if s.disagreement == "reviewers"]
    assert len(split) == 1
    admin.adjudicate(engine, tokens["admin"], split[0].sample_id, "no", "reread")
    after = admin.disagreement_queue(engine, tokens["admin"])
    assert split[0].sample_id not in {s.sample_id for s in after}
    with pytest.raises(AccessDenied):
        admin.adjudicate(engine, tokens["ana"], split[0].sample_id, "no")


def test_export_is_anonymous_and_not_overwritten(
    setup: tuple[Engine, dict[str, str]], tmp_path: Path
) -> None:
    engine, tokens = setup
    _judge_all(engine, tokens)
    results = audit_results(engine, "r-demo")
    assert results.reviewers == 2
    assert set(results.kappa_by_reviewer) == {"R1", "R2"}
    target = tmp_path / "out" / "audit.json"
    write_export(results, target)
    assert json.loads(target.read_text(encoding="utf-8"))["round_id"] == "r-demo"
    assert "ana" not in target.read_text(encoding="utf-8")
    with pytest.raises(Exception, match="already exists"):
        write_export(results, target)
    with pytest.raises(ReviewInputError, match="not in the review database"):
        audit_results(engine, "r-missing")


def test_audit_log_is_append_only(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, _ = setup
    for statement in ("UPDATE audit_log SET action = 'x'", "DELETE FROM audit_log"):
        with pytest.raises(DBAPIError, match="append-only"), engine.begin() as connection:
            connection.execute(text(statement))
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(audit_log)).scalar()
