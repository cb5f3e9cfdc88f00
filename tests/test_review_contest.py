"""Contestations: the window, written replies, overdue flags, and the annulment ledger."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select

from reportgen.errors import InputError
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.rounds import append_annulment
from review_app.core.db import contestations, now_utc
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.rounds.contest import (
    REPLY_DAYS,
    decide,
    list_contestations,
    publish_round,
    submit_contestation,
)
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import REVIEW_MODELS, make_round
from tests.review.helpers import add_and_login, new_database, release_all

JUSTIFICATION = "O enunciado admite duas leituras e nenhuma resposta é defensável."
REPLY = {"pt-BR": "Aceita: o item é ambíguo.", "en": "Accepted: the item is ambiguous."}


class Clock:
    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Engine, dict[str, str], Path, Clock]:
    round_dir = make_round(tmp_path, models=REVIEW_MODELS)
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bruno")}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    tokens["lab"] = add_and_login(engine, "lab", "participant")
    create_batch(engine, read_round(round_dir), fraction=0.05, min_per_stratum=1, overlap=2, seed=1)
    release_all(engine)
    published = now_utc() - timedelta(days=1)
    publish_round(engine, "tiny-round", published, window_days=10)
    return engine, tokens, round_dir, Clock(now_utc())


def test_reviewer_contests_by_code_and_admin_accepts(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, round_dir, clock = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    contest_id = submit_contestation(
        engine, tokens["ana"], "tiny-round", code.lower(), JUSTIFICATION, clock=clock
    )
    mine = list_contestations(engine, tokens["ana"])
    assert [(c.contest_id, c.status, c.item_id) for c in mine] == [(contest_id, "pending", "")]
    assert list_contestations(engine, tokens["bruno"]) == []
    decide(engine, tokens["admin"], contest_id, accept=True, reply=REPLY, clock=clock)
    annulments = read_round(round_dir).annulments
    assert [(a.source, a.ref, dict(a.reason)) for a in annulments] == [
        ("contestation", contest_id, REPLY)
    ]
    assert list_contestations(engine, tokens["ana"])[0].status == "accepted"
    with pytest.raises(ReviewInputError, match="already been decided"):
        decide(engine, tokens["admin"], contest_id, accept=False, reply=REPLY)


def test_participant_contests_by_item_and_admin_rejects(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, round_dir, _clock = setup
    contest_id = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)
    with pytest.raises(ReviewInputError, match="Write a reply"):
        decide(engine, tokens["admin"], contest_id, accept=False, reply={})
    decide(engine, tokens["admin"], contest_id, accept=False, reply={"en": "The item is clear."})
    assert read_round(round_dir).annulments == ()
    assert list_contestations(engine, tokens["lab"])[0].reply == "The item is clear."


def test_acceptance_needs_both_languages_and_admin_role(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, round_dir, _ = setup
    contest_id = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)
    with pytest.raises(ReviewInputError, match="Portuguese and in English"):
        decide(engine, tokens["admin"], contest_id, accept=True, reply={"en": "ok"})
    with pytest.raises(AccessDenied):
        decide(engine, tokens["ana"], contest_id, accept=True, reply=REPLY)
    assert not (round_dir / "annulments.jsonl").exists()


def test_a_failed_ledger_append_leaves_the_contestation_pending(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, _, _ = setup
    contest_id = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)

    def failing_append(*_args: object, **_kwargs: object) -> None:
        raise InputError("disk full")

    with pytest.raises(InputError):
        decide(
            engine, tokens["admin"], contest_id, accept=True, reply=REPLY,
            append_annulment=failing_append,
        )  # fmt: skip
    assert list_contestations(engine, tokens["admin"])[0].status == "pending"


def test_an_acceptance_whose_commit_failed_converges_when_retried(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, round_dir, _ = setup
    contest_id = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)

    def append_then_crash(*args: Any, **kwargs: Any) -> None:
        append_annulment(*args, **kwargs)
        raise RuntimeError("the database went away before the commit")

    with pytest.raises(RuntimeError):
        decide(
            engine, tokens["admin"], contest_id, accept=True, reply=REPLY,
            append_annulment=append_then_crash,
        )  # fmt: skip
    assert list_contestations(engine, tokens["admin"])[0].status == "pending"
    ledger = (round_dir / "annulments.jsonl").read_bytes()
    assert ledger.count(b"\n") == 1

    decide(engine, tokens["admin"], contest_id, accept=True, reply=REPLY)
    assert list_contestations(engine, tokens["admin"])[0].status == "accepted"
    assert (round_dir / "annulments.jsonl").read_bytes() == ledger
    # A different contestation of the annulled item cannot annul it twice.
    other = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)
    with pytest.raises(InputError, match="already annulled"):
        decide(engine, tokens["admin"], other, accept=True, reply=REPLY)
    assert list_contestations(engine, tokens["admin"])[-1].status == "pending"


def test_a_decided_contestation_cannot_be_decided_again(
    setup: tuple[Engine, dict[str, str], Path, Clock],
) -> None:
    engine, tokens, _, _ = setup
    contest_id = submit_contestation(engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION)
    decide(engine, tokens["admin"], contest_id, accept=False, reply={"pt-BR": "Não procede."})
    with pytest.raises(ReviewInputError):
        decide(engine, tokens["admin"], contest_id, accept=True, reply=REPLY)
    assert list_contestations(engine, tokens["admin"])[0].status == "rejected"


@pytest.mark.parametrize(
    ("reference", "justification", "message"),
    [
        ("i-003", "too short", "at least 30"),
        ("i-003", "x" * 5001, "at most 5000"),
        ("i-999", JUSTIFICATION, "neither the code of a sample assigned to you"),
    ],
)
def test_bad_contestations_change_nothing(
    setup: tuple[Engine, dict[str, str], Path, Clock],
    reference: str,
    justification: str,
    message: str,
) -> None:
    engine, tokens, _, _ = setup
    with pytest.raises(ReviewInputError, match=message):
        submit_contestation(engine, tokens["lab"], "tiny-round", reference, justification)
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(contestations)).scalar() == 0


def test_window_and_overdue(setup: tuple[Engine, dict[str, str], Path, Clock]) -> None:
    engine, tokens, _, clock = setup
    contest_id = submit_contestation(
        engine, tokens["lab"], "tiny-round", "i-003", JUSTIFICATION, clock=clock
    )
    clock.now += timedelta(days=10)
    with pytest.raises(ReviewInputError, match=r"window .* closed"):
        submit_contestation(
            engine, tokens["lab"], "tiny-round", "i-004", JUSTIFICATION, clock=clock
        )
    clock.now += timedelta(days=REPLY_DAYS)
    (entry,) = list_contestations(engine, tokens["admin"], clock=clock)
    assert (entry.contest_id, entry.overdue) == (contest_id, True)
    with pytest.raises(ReviewInputError, match="not in the review database"):
        submit_contestation(engine, tokens["lab"], "r-missing", "i-003", JUSTIFICATION)
    with pytest.raises(AccessDenied):
        submit_contestation(engine, tokens["admin"], "tiny-round", "i-003", JUSTIFICATION)


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_someone_else_s_code_is_refused_as_a_code_that_does_not_exist(
    setup: tuple[Engine, dict[str, str], Path, Clock], language: str
) -> None:
    """Only a sample assigned to the caller can be contested by its code; the refusal of
    another reviewer's code reads exactly as that of a made-up one (nothing to probe)."""
    engine, tokens, _, _ = setup
    real = reviewing.my_queue(engine, tokens["ana"])[0].code
    fake = "ZZZZ" + real[4:] if not real.startswith("ZZZZ") else "YYYY" + real[4:]
    carla = add_and_login(engine, "carla")  # a reviewer with no sample of this round
    messages: dict[str, list[str]] = {}
    for who in (carla, tokens["lab"]):
        for reference in (real, fake):
            with pytest.raises(ReviewInputError) as refused:
                submit_contestation(engine, who, "tiny-round", reference, JUSTIFICATION)
            shown = refused.value.message(language).replace(reference, "<code>")
            messages.setdefault(shown, []).append(reference)
    assert len(messages) == 1, messages
    assert refused.value.key == "error_unknown_reference"
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(contestations)).scalar() == 0


def test_an_own_code_names_an_item_of_the_chosen_round_only(
    setup: tuple[Engine, dict[str, str], Path, Clock], tmp_path: Path
) -> None:
    engine, tokens, _, _ = setup
    other = make_round(tmp_path, models=REVIEW_MODELS, round_id="other-round")
    create_batch(engine, read_round(other), fraction=0.05, min_per_stratum=1, overlap=2, seed=2)
    publish_round(engine, "other-round", now_utc() - timedelta(days=1))
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    with pytest.raises(ReviewInputError, match="assigned to you"):
        submit_contestation(engine, tokens["ana"], "other-round", code, JUSTIFICATION)
