"""The Art. 26 audit for the administrator: h − F per audited response, and the
invalidation of an item (its `audit` ledger line), on SQLite and PostgreSQL.

The tiny round (reportgen.demo.multidomain.tiny) without its ledger: the audit draws i3
and i7; the reviewer scores i7 P1 (2, 3), h = 5/2 against F = 4, a divergence of 3/2.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path

import pytest
from sqlalchemy import Engine, func, select

from reportgen.archive import LEDGER_FILE
from reportgen.kinds.multidomain.review.audit import audit_view, invalidate_item, two_decimals
from reportgen.kinds.multidomain.review.round import append_ledger_line, read_md_round
from reportgen.kinds.multidomain.terms import scored_items
from review_app.core.db import audit_log
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.core.ledger_provenance import record_append
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit


@dataclass
class Audit:
    engine: Engine
    admin: str
    reviewer: str
    round_dir: Path


@pytest.fixture(params=KINDS)
def audited(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Audit]:
    engine = fresh_database(request.param, tmp_path)
    admin = add_and_login(engine, "admin", "admin")
    reviewer = add_and_login(engine, "ana")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)
    score_audit(engine)
    yield Audit(engine, admin, reviewer, round_dir)
    engine.dispose()


def _clock() -> datetime:
    return datetime(2026, 12, 4, 9, 0, tzinfo=UTC)


def _log_entries(engine: Engine) -> int:
    with engine.connect() as connection:
        return int(connection.execute(select(func.count()).select_from(audit_log)).scalar() or 0)


def test_two_decimals_rounds_half_away_from_zero() -> None:
    cases = {
        Fraction(3, 2): "1.50",
        Fraction(-3, 2): "-1.50",
        Fraction(1, 6): "0.17",
        Fraction(-1, 6): "-0.17",
        Fraction(1, 200): "0.01",
        Fraction(-1, 1000): "0.00",
        Fraction(0): "0.00",
        Fraction(29, 9): "3.22",
    }
    assert {value: two_decimals(value) for value in cases} == cases


def test_the_view_shows_h_minus_f_per_audited_response(audited: Audit) -> None:
    view = audit_view(audited.engine, audited.admin, "tiny-2026-11")
    rows = {(r.item_id, r.model_id): (r.human, r.final, r.difference) for r in view.responses}
    assert rows == {
        ("i3", "p1"): (Fraction(9, 2), Fraction(13, 3), Fraction(1, 6)),
        ("i3", "p2"): (Fraction(7, 2), Fraction(10, 3), Fraction(1, 6)),
        ("i3", "p3"): (Fraction(9, 2), Fraction(14, 3), Fraction(-1, 6)),
        ("i7", "p1"): (Fraction(5, 2), Fraction(4), Fraction(-3, 2)),
        ("i7", "p2"): (Fraction(4), Fraction(4), Fraction(0)),
        ("i7", "p3"): (Fraction(5, 2), Fraction(7, 3), Fraction(1, 6)),
    }
    assert view.items_above == ("i7",)
    assert view.threshold == 1
    assert sorted(view.drawn) == ["i3", "i7"]


def test_a_reviewer_cannot_see_the_audit_view(audited: Audit) -> None:
    with pytest.raises(AccessDenied):
        audit_view(audited.engine, audited.reviewer, "tiny-2026-11")


def test_invalidating_i7_appends_its_audit_line(audited: Audit) -> None:
    view = audit_view(audited.engine, audited.admin, "tiny-2026-11")
    trigger = view.trigger("i7")
    assert trigger is not None
    assert trigger.model_id == "p1"
    audit_id = invalidate_item(audited.engine, audited.admin, "tiny-2026-11", "i7", clock=_clock)
    assert audit_id == trigger.audit_id
    # The archive's audit.parquet is the demonstration's until `review export` replaces
    # it with rows whose audit_id is the sample code: read it as the app does meanwhile.
    round_ = read_md_round(audited.round_dir, with_text=False)
    (line,) = round_.annulments
    assert (line.item_id, line.source, line.ref) == ("i7", "audit", audit_id)
    assert line.decided_on.isoformat() == "2026-12-04"
    assert "divergence 1.50 above 1.00" in line.reason["en"]  # decimals, as the site shows it
    assert "divergência 1,50 acima de 1,00" in line.reason["pt-BR"]
    # The next build scores no participant on i7.
    assert "i7" not in {item.item_id for item in scored_items(round_)}
    assert "i7" in audit_view(audited.engine, audited.admin, "tiny-2026-11").annulled


def _refused(audited: Audit, item_id: str, key: str, round_id: str = "tiny-2026-11") -> None:
    ledger = audited.round_dir / LEDGER_FILE
    before = ledger.read_bytes() if ledger.exists() else None
    entries = _log_entries(audited.engine)
    with pytest.raises(ReviewInputError) as caught:
        invalidate_item(audited.engine, audited.admin, round_id, item_id, clock=_clock)
    assert caught.value.key == key
    assert (ledger.read_bytes() if ledger.exists() else None) == before
    assert _log_entries(audited.engine) == entries


def test_an_item_outside_the_audit_sample_is_refused(audited: Audit) -> None:
    _refused(audited, "i4", "md_error_not_drawn")  # an mcq item


def test_an_unknown_item_is_refused(audited: Audit) -> None:
    _refused(audited, "i99", "md_error_not_drawn")


def test_an_item_whose_divergence_is_not_above_1_is_refused(audited: Audit) -> None:
    _refused(audited, "i3", "md_error_not_above")


def test_a_divergence_of_exactly_1_is_refused(tmp_path: Path) -> None:
    engine = fresh_database("sqlite", tmp_path)
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "ana")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)
    # i7 P1: h = 3 against F = 4, exactly 1: not strictly above.
    score_audit(engine, {("i7", "p1"): (3, 3)})
    with pytest.raises(ReviewInputError) as caught:
        invalidate_item(engine, admin, "tiny-2026-11", "i7", clock=_clock)
    assert caught.value.key == "md_error_not_above"
    assert "1.00" in caught.value.message("en")
    assert not (round_dir / LEDGER_FILE).exists()
    engine.dispose()


def test_an_item_already_invalidated_is_refused(audited: Audit) -> None:
    invalidate_item(audited.engine, audited.admin, "tiny-2026-11", "i7", clock=_clock)
    _refused(audited, "i7", "md_error_already_annulled")


def test_an_item_annulled_by_a_contestation_is_refused(audited: Audit) -> None:
    with audited.engine.begin() as connection:  # as an accepted contestation records it
        record_append(
            connection, None, "tiny-2026-11", item_id="i7", source="contestation",
            ref="C-20261204-ABCDEF",
        )  # fmt: skip
    append_ledger_line(
        audited.round_dir,
        item_id="i7",
        decided_on=_clock().date(),
        source="contestation",
        ref="C-20261204-ABCDEF",
        reason={"pt-BR": "Contestação aceita.", "en": "Contestation accepted."},
    )
    _refused(audited, "i7", "md_error_already_annulled")


def test_an_unknown_round_is_refused(audited: Audit) -> None:
    _refused(audited, "i7", "error_unknown_round", round_id="no-such-round")


def test_a_reviewer_cannot_invalidate(audited: Audit) -> None:
    with pytest.raises(AccessDenied):
        invalidate_item(audited.engine, audited.reviewer, "tiny-2026-11", "i7", clock=_clock)
    assert not (audited.round_dir / LEDGER_FILE).exists()
