"""The Art. 22 calibration view and the Art. 33–34 contamination queue, on SQLite and
PostgreSQL, over the tiny round (its 8-gram finding: i3 P2, 10/13)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from reportgen.archive import LEDGER_FILE
from reportgen.kinds.multidomain.results._sections import calibration_section
from reportgen.kinds.multidomain.review.calibration import calibration_view
from reportgen.kinds.multidomain.review.contamination import contamination_queue, record_outcome
from reportgen.kinds.multidomain.review.format import decimal_text, rate_text
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.multidomain.review.sampling import create_rubric_batch
from reportgen.kinds.multidomain.review.tables import contamination_reviews
from review_app.core.db import audit_log
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.core.ledger_provenance import record_append
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.multidomain import score_audit, tiny_before_audit

ROUND_ID = "tiny-2026-11"


@dataclass
class Setup:
    engine: Engine
    admin: str
    round_dir: Path


@pytest.fixture(params=KINDS)
def setup(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Setup]:
    engine = fresh_database(request.param, tmp_path)
    admin = add_and_login(engine, "admin", "admin")
    for name in ("ana", "bruno"):
        add_and_login(engine, name)
    round_dir = tiny_before_audit(tmp_path / "rounds")
    create_rubric_batch(engine, read_md_round(round_dir), task_type="calibration", seed=1)
    yield Setup(engine, admin, round_dir)
    engine.dispose()


def _clock() -> datetime:
    return datetime(2026, 12, 5, 9, 0, tzinfo=UTC)


def test_numbers_are_formatted_as_the_report_formats_them() -> None:
    from fractions import Fraction

    assert decimal_text(Fraction(-3, 2), 2, "pt-BR") == "\u22121,50"
    assert decimal_text(Fraction(1, 6), 2, "en") == "0.17"
    assert rate_text(Fraction(5, 6), "pt-BR") == "83,3%"
    assert rate_text(None, "en") == "\u2013"  # the site's dash (reportgen.i18n.MISSING)


def test_calibration_with_the_app_scores_equals_the_archive_s_own(setup: Setup) -> None:
    # The tiny round's human raters h1 and h2 scored (4, 4) and (5, 4) on every response;
    # the app's two reviewers do the same, so every figure matches the archive's.
    names = ["ana", "bruno"]
    score_audit(
        setup.engine,
        {(item, ""): (4, 4) for item in ("cal-en", "cal-pt", "cal-zh")},
        reviewer=names[0],
    )
    score_audit(
        setup.engine,
        {(item, ""): (5, 4) for item in ("cal-en", "cal-pt", "cal-zh")},
        reviewer=names[1],
    )
    shown = calibration_view(setup.engine, setup.admin, ROUND_ID)
    expected = calibration_section(read_md_round(setup.round_dir, with_text=False))
    assert shown == expected
    assert shown.alpha is not None
    # Art. 16: the hit rate is the adjudicator's (a1 scores 5 and 4: 9/10), not the jurors'.
    assert [entry.hit_rate.exact for entry in shown.languages] == ["9/10", "9/10", "9/10"]
    assert shown.parity_gap is not None
    assert shown.parity_gap.exact == "0"


def test_calibration_without_human_scores_has_no_human_difference(setup: Setup) -> None:
    shown = calibration_view(setup.engine, setup.admin, ROUND_ID)
    assert shown.mean_abs_jury_human is None
    assert [entry.flagged for entry in shown.items] == [False, False, False]


def test_a_reviewer_cannot_see_the_calibration_view(setup: Setup, tmp_path: Path) -> None:
    reviewer = add_and_login(setup.engine, "carla")
    with pytest.raises(AccessDenied):
        calibration_view(setup.engine, reviewer, ROUND_ID)


def test_the_queue_holds_the_tiny_round_s_8_gram_finding(setup: Setup) -> None:
    queue = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    assert [(f.finding, f.item_id, f.model_id, f.run) for f in queue] == [("ngram", "i3", "p2", 1)]
    assert str(queue[0].containment) == "10/13"
    assert queue[0].outcome is None


def test_a_confirmed_contamination_appends_its_ledger_line(setup: Setup) -> None:
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    ref = record_outcome(
        setup.engine,
        setup.admin,
        ROUND_ID,
        finding.finding_id,
        "confirmed",
        "The answer copies the statement.",
        clock=_clock,
    )
    assert ref == finding.finding_id
    (line,) = read_md_round(setup.round_dir, with_text=False).annulments
    assert (line.item_id, line.source, line.ref) == ("i3", "contamination", ref)
    (decided,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    assert (decided.outcome, decided.note, decided.ledger_ref) == (
        "confirmed",
        "The answer copies the statement.",
        ref,
    )


def test_a_dismissed_finding_writes_no_ledger_line(setup: Setup) -> None:
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    ref = record_outcome(
        setup.engine, setup.admin, ROUND_ID, finding.finding_id, "dismissed", "A quotation."
    )
    assert ref == ""
    assert not (setup.round_dir / LEDGER_FILE).exists()
    assert contamination_queue(setup.engine, setup.admin, ROUND_ID)[0].outcome == "dismissed"


def test_confirming_an_item_already_annulled_records_the_outcome_alone(setup: Setup) -> None:
    with setup.engine.begin() as connection:  # as an accepted contestation records it
        record_append(
            connection, None, ROUND_ID, item_id="i3", source="contestation",
            ref="C-20261205-ABCDEF",
        )  # fmt: skip
    append_ledger_line(
        setup.round_dir,
        item_id="i3",
        decided_on=_clock().date(),
        source="contestation",
        ref="C-20261205-ABCDEF",
        reason={"pt-BR": "Contestação aceita.", "en": "Contestation accepted."},
    )
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    ref = record_outcome(
        setup.engine, setup.admin, ROUND_ID, finding.finding_id, "confirmed", "Copied."
    )
    assert ref == ""
    assert len(read_md_round(setup.round_dir, with_text=False).annulments) == 1


def _count(engine: Engine, table: object) -> int:
    with engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(table)).scalar() or 0)  # type: ignore[arg-type]


def _refused(setup: Setup, finding_id: str, outcome: str, note: str, key: str) -> None:
    entries = _count(setup.engine, audit_log)
    with pytest.raises(ReviewInputError) as caught:
        record_outcome(setup.engine, setup.admin, ROUND_ID, finding_id, outcome, note)
    assert caught.value.key == key
    assert _count(setup.engine, audit_log) == entries
    assert not (setup.round_dir / LEDGER_FILE).exists()


def test_an_unknown_outcome_is_refused(setup: Setup) -> None:
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    _refused(setup, finding.finding_id, "maybe", "A note.", "md_error_outcome")


def test_an_outcome_without_a_note_is_refused(setup: Setup) -> None:
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    _refused(setup, finding.finding_id, "confirmed", "   ", "md_error_outcome_note")


def test_an_unknown_finding_is_refused(setup: Setup) -> None:
    _refused(setup, "CT-0000000000", "confirmed", "A note.", "md_error_unknown_finding")


def test_a_second_outcome_is_refused(setup: Setup) -> None:
    (finding,) = contamination_queue(setup.engine, setup.admin, ROUND_ID)
    record_outcome(setup.engine, setup.admin, ROUND_ID, finding.finding_id, "dismissed", "Ok.")
    _refused(setup, finding.finding_id, "confirmed", "Changed my mind.", "md_error_finding_decided")
    assert _count(setup.engine, contamination_reviews) == 1
