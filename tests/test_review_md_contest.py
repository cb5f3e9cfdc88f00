"""Art. 43 contestations of a multidomain round (metrics §9), on SQLite and PostgreSQL.

The tiny round ended on 2026-11-30 with 90 embargo days: a test item may be contested
from E = 2027-02-28 00:00Z to E + 10 days inclusive; a calibration item from the
report's publication; replies are due `reply_days` after submission.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from pathlib import Path

import pytest
from sqlalchemy import Engine

from reportgen.kinds.multidomain.review.contest import contest_window
from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.stats.dates import round_dates
from review_app.core.errors import ReviewInputError
from review_app.rounds.contest import decide, list_contestations, publish_round, submit_contestation
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.multidomain import audit_batch, tiny_before_audit

ROUND_ID = "tiny-2026-11"
E = datetime(2027, 2, 28, tzinfo=UTC)
SECOND = timedelta(seconds=1)
JUSTIFICATION = "O enunciado admite duas leituras e a rubrica não decide entre elas."
REPLY = {"pt-BR": "Aceita: o item é ambíguo.", "en": "Accepted: the item is ambiguous."}


@dataclass
class Setup:
    engine: Engine
    admin: str
    lab: str
    round_dir: Path


@pytest.fixture(params=KINDS)
def setup(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Setup]:
    engine = fresh_database(request.param, tmp_path)
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "ana")
    lab = add_and_login(engine, "lab", "participant")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)  # the round enters the database
    yield Setup(engine, admin, lab, round_dir)
    engine.dispose()


def _submit(setup: Setup, item_id: str, moment: datetime) -> str:
    return submit_contestation(
        setup.engine, setup.lab, ROUND_ID, item_id, JUSTIFICATION, clock=lambda: moment
    )


def _refused(setup: Setup, item_id: str, moment: datetime, key: str) -> None:
    with pytest.raises(ReviewInputError) as caught:
        _submit(setup, item_id, moment)
    assert caught.value.key == key
    assert list_contestations(setup.engine, setup.admin) == []


def test_a_test_item_may_be_contested_from_the_embargo_s_end(setup: Setup) -> None:
    assert _submit(setup, "i3", E).startswith("C-20270228-")


def test_a_test_item_before_the_embargo_s_end_is_refused(setup: Setup) -> None:
    _refused(setup, "i3", E - SECOND, "md_error_window_not_open")


def test_the_window_s_last_instant_is_inside(setup: Setup) -> None:
    assert _submit(setup, "i3", E + timedelta(days=10))


def test_after_the_window_is_refused(setup: Setup) -> None:
    _refused(setup, "i3", E + timedelta(days=10) + SECOND, "error_window_closed")


def test_a_test_item_s_window_is_the_kind_s_contestation_dates(tmp_path: Path) -> None:
    """The app reads the window from the kind's dates (`round_dates`, what results.json
    and the site state), not from a rule of its own."""
    round_dir = tiny_before_audit(tmp_path / "rounds")
    dates = round_dates(read_md_round(round_dir, with_text=False).manifest)
    opens, closes = contest_window(round_dir, ROUND_ID, "i3", None)
    assert (opens, closes) == (
        datetime.combine(dates.contest_opens, time.min, UTC),
        datetime.combine(dates.contest_closes, time.min, UTC),
    )
    assert opens == E


def test_a_calibration_item_waits_for_the_report_s_publication(setup: Setup) -> None:
    _refused(setup, "cal-pt", E, "error_not_published")


def test_a_calibration_item_s_window_follows_the_publication(setup: Setup) -> None:
    published = datetime(2026, 12, 10, 15, 0, tzinfo=UTC)
    publish_round(setup.engine, ROUND_ID, published)
    assert _submit(setup, "cal-pt", published + timedelta(days=10))
    too_late = published + timedelta(days=10) + SECOND
    with pytest.raises(ReviewInputError) as caught:
        _submit(setup, "cal-pt", too_late)
    assert caught.value.key == "error_window_closed"


def test_the_reply_is_due_after_the_round_s_reply_days(setup: Setup) -> None:
    # The round's own reply_days (3 here, against the app's default of 10) decide.
    manifest = setup.round_dir / "round.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["multidomain"]["reply_days"] = 3
    manifest.write_text(json.dumps(data), encoding="utf-8")
    submitted = E + timedelta(hours=1)
    _submit(setup, "i3", submitted)
    due = submitted + timedelta(days=3)
    (on_time,) = list_contestations(setup.engine, setup.admin, clock=lambda: due)
    (late,) = list_contestations(setup.engine, setup.admin, clock=lambda: due + SECOND)
    assert (on_time.overdue, late.overdue) == (False, True)


def test_an_accepted_contestation_annuls_the_item_mid_audit(setup: Setup) -> None:
    # The archive awaits its audit (refusals 41/43 until the export): the ledger line
    # is appended all the same.
    contest_id = _submit(setup, "i3", E)
    decide(setup.engine, setup.admin, contest_id, accept=True, reply=REPLY, clock=lambda: E)
    (line,) = read_md_round(setup.round_dir, with_text=False).annulments
    assert (line.item_id, line.source, line.ref) == ("i3", "contestation", contest_id)
    assert list_contestations(setup.engine, setup.admin)[0].status == "accepted"
