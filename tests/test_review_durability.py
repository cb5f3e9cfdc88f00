"""Durability of contestation decisions (issue 9, points 14 and 18).

A crash between the ledger append and the database commit is repaired by the next
decision; the round's folder is stored absolute and resolved, and a folder that holds
another archive never receives a ledger line. On SQLite and on PostgreSQL.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select

from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.rounds import append_annulment
from review_app.core.db import audit_log, now_utc, rounds
from review_app.core.errors import ReviewInputError
from review_app.rounds.contest import decide, list_contestations, publish_round, submit_contestation
from review_app.rounds.sampling import create_batch
from tests.factories import REVIEW_MODELS, make_round
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login

JUSTIFICATION = "O enunciado admite duas leituras e nenhuma resposta é defensável."
REPLY = {"pt-BR": "Aceita: o item é ambíguo.", "en": "Accepted: the item is ambiguous."}
REJECTION = {"pt-BR": "Não procede.", "en": "Not upheld."}


@dataclass
class Review:
    engine: Engine
    admin: str
    lab: str
    round_dir: Path

    def contest(self, item_id: str = "i-003") -> str:
        return submit_contestation(self.engine, self.lab, "tiny-round", item_id, JUSTIFICATION)

    def status(self, contest_id: str) -> str:
        found = list_contestations(self.engine, self.admin)
        return next(c.status for c in found if c.contest_id == contest_id)

    def actions(self) -> list[str]:
        with self.engine.connect() as connection:
            query = select(audit_log.c.action).order_by(audit_log.c.entry_id)
            return list(connection.execute(query).scalars())


def _review(engine: Engine, round_dir: Path) -> Review:
    """Accounts, a batch of the round at `round_dir` and its publication."""
    add_and_login(engine, "ana")
    add_and_login(engine, "bruno")
    admin = add_and_login(engine, "admin", "admin")
    review = Review(engine, admin, add_and_login(engine, "lab", "participant"), round_dir)
    create_batch(engine, read_round(round_dir), fraction=0.05, min_per_stratum=1, overlap=2, seed=1)
    publish_round(engine, "tiny-round", now_utc() - timedelta(days=1), window_days=10)
    return review


def _round_in(folder: Path, **options: Any) -> Path:
    """The tiny round (REVIEW_MODELS unless told) written into a new `folder`."""
    folder.mkdir()
    return make_round(folder, **{"models": REVIEW_MODELS, **options})


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = fresh_database(str(request.param), tmp_path)
    yield engine
    engine.dispose()


@pytest.fixture
def review(engine: Engine, tmp_path: Path) -> Review:
    return _review(engine, _round_in(tmp_path / "archive"))


def _crash_after_the_append(review: Review, contest_id: str) -> bytes:
    """Accept `contest_id`: the ledger line is written, the database commit is lost."""

    def append_then_crash(*args: Any, **kwargs: Any) -> None:
        append_annulment(*args, **kwargs)
        raise RuntimeError("the database went away before the commit")

    with pytest.raises(RuntimeError):
        decide(
            review.engine, review.admin, contest_id, accept=True, reply=REPLY,
            append_annulment=append_then_crash,
        )  # fmt: skip
    assert review.status(contest_id) == "pending"
    return (review.round_dir / "annulments.jsonl").read_bytes()


# Point 14: a crash between the ledger and the database.


def test_rejecting_an_acceptance_the_ledger_holds_is_refused_and_it_becomes_accepted(
    review: Review,
) -> None:
    contest_id = review.contest()
    ledger = _crash_after_the_append(review, contest_id)

    with pytest.raises(ReviewInputError, match="voided items already records the acceptance"):
        decide(review.engine, review.admin, contest_id, accept=False, reply=REJECTION)

    assert review.status(contest_id) == "accepted"
    accepted = next(c for c in list_contestations(review.engine, review.lab))
    assert accepted.reply == f"{REPLY['pt-BR']}\n\n{REPLY['en']}"  # the ledger's reason
    assert review.actions()[-1] == "reconcile_contest"
    assert (review.round_dir / "annulments.jsonl").read_bytes() == ledger
    with pytest.raises(ReviewInputError, match="already been decided"):
        decide(review.engine, review.admin, contest_id, accept=False, reply=REJECTION)


def test_a_decision_on_another_contestation_reconciles_the_interrupted_one(
    review: Review,
) -> None:
    interrupted = review.contest("i-003")
    other = review.contest("i-001")
    _crash_after_the_append(review, interrupted)

    decide(review.engine, review.admin, other, accept=False, reply=REJECTION)

    assert (review.status(interrupted), review.status(other)) == ("accepted", "rejected")
    assert review.actions()[-2:] == ["reconcile_contest", "reject_contest"]


def test_retrying_the_interrupted_acceptance_completes_it_once(review: Review) -> None:
    contest_id = review.contest()
    ledger = _crash_after_the_append(review, contest_id)

    decide(review.engine, review.admin, contest_id, accept=True, reply=REPLY)

    assert review.status(contest_id) == "accepted"
    assert (review.round_dir / "annulments.jsonl").read_bytes() == ledger
    assert review.actions().count("reconcile_contest") == 1


# Point 18: the round's folder and its identity.


def test_the_round_folder_is_stored_absolute_and_resolved(
    engine: Engine, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = _round_in(tmp_path / "archive")
    (tmp_path / "link").symlink_to(tmp_path / "archive")
    monkeypatch.chdir(tmp_path)
    review = _review(engine, Path("link/tiny-round"))  # relative, through a symbolic link

    with engine.connect() as connection:
        stored = connection.execute(select(rounds.c.round_dir)).scalar_one()
    assert stored == str(real.resolve())
    assert Path(stored).is_absolute()

    # The app started elsewhere, where another copy sits at the same relative path.
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(real, elsewhere / "link" / "tiny-round")
    monkeypatch.chdir(elsewhere)
    contest_id = review.contest()
    decide(engine, review.admin, contest_id, accept=True, reply=REPLY)

    assert [a.ref for a in read_round(real).annulments] == [contest_id]
    assert not (elsewhere / "link" / "tiny-round" / "annulments.jsonl").exists()


def _replace_with_another_archive(round_dir: Path, tmp_path: Path) -> None:
    """The same round_id and items, another archive: a model fewer, so another SHA256SUMS."""
    other = _round_in(tmp_path / "other", models=REVIEW_MODELS[:2])
    shutil.rmtree(round_dir)
    shutil.copytree(other, round_dir)


def test_a_folder_holding_another_archive_receives_no_ledger_line(
    review: Review, tmp_path: Path
) -> None:
    contest_id = review.contest()
    _replace_with_another_archive(review.round_dir, tmp_path)

    with pytest.raises(ReviewInputError, match="holds another round archive") as refused:
        decide(review.engine, review.admin, contest_id, accept=True, reply=REPLY)

    assert str(review.round_dir) in str(refused.value)
    assert not (review.round_dir / "annulments.jsonl").exists()
    assert review.status(contest_id) == "pending"


def test_a_folder_holding_another_round_receives_no_ledger_line(
    review: Review, tmp_path: Path
) -> None:
    contest_id = review.contest()
    shutil.rmtree(review.round_dir)
    shutil.copytree(
        _round_in(tmp_path / "other", round_id="another-round"),
        review.round_dir,
    )

    with pytest.raises(ReviewInputError, match="round another-round"):
        decide(review.engine, review.admin, contest_id, accept=True, reply=REPLY)
    assert not (review.round_dir / "annulments.jsonl").exists()


def test_an_emptied_folder_is_refused_cleanly(review: Review) -> None:
    contest_id = review.contest()
    shutil.rmtree(review.round_dir)
    review.round_dir.mkdir()

    with pytest.raises(ReviewInputError, match="No round found at"):
        decide(review.engine, review.admin, contest_id, accept=False, reply=REJECTION)
    assert review.status(contest_id) == "pending"


def test_a_second_batch_from_another_archive_of_the_round_is_refused(
    review: Review, tmp_path: Path
) -> None:
    other = _round_in(tmp_path / "other", models=REVIEW_MODELS[:2])
    with pytest.raises(ReviewInputError, match="holds another round archive"):
        create_batch(
            review.engine, read_round(other), fraction=0.05, min_per_stratum=1, overlap=2, seed=2
        )
    # The same archive again is fine, from any path that leads to it.
    create_batch(
        review.engine, read_round(review.round_dir), fraction=0.05, min_per_stratum=1, overlap=2,
        seed=3,
    )  # fmt: skip
