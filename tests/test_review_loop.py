"""The reviewer's annotation loop below the app (issue 9, points 4, 5, 7 and 11): an undo
of the last judgment until the batch closes (on SQLite and, with REVIEW_TEST_POSTGRES_URL,
on PostgreSQL), and notes shown as quoted text, so that they cannot pass for votes. The
loop in the app itself (AppTest): tests/test_review_loop_app.py; the real keypress race
runs in a browser: tests/test_review_loop_browser.py.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event, select

from review_app.core.db import audit_log
from review_app.core.errors import ReviewInputError
from review_app.rounds import admin
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from review_app.tasks.notes import QUOTE, quoted_text, visible_text
from tests.factories import memory_review_round
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, release_all

# Bidirectional controls and other characters that change the layout without being seen.
INVISIBLE = "\u202e\u202d\u202a\u202b\u202c\u2066\u2067\u2068\u2069\u200e\u200f\u200b\u2060\ufeff"


@pytest.fixture(params=KINDS)
def setup(
    request: pytest.FixtureRequest, tmp_path: Path
) -> Iterator[tuple[Engine, dict[str, str]]]:
    engine = fresh_database(str(request.param), tmp_path)
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
    yield engine, tokens
    engine.dispose()


def _judgment(engine: Engine, token: str, code: str) -> tuple[str | None, str]:
    sample = reviewing.load_sample(engine, token, code)
    return sample.choice, sample.note


def _undo_audit(engine: Engine) -> list[str]:
    with engine.connect() as connection:
        return list(
            connection.execute(
                select(audit_log.c.detail)
                .where(audit_log.c.action == "undo_judgment")
                .order_by(audit_log.c.entry_id)
            ).scalars()
        )


# --- undo, data layer -------------------------------------------------------------------


def test_undo_takes_back_a_first_judgment_once(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    assert reviewing.last_judgment(engine, tokens["ana"]) is None
    assert reviewing.undo_last_judgment(engine, tokens["ana"]) is None
    reviewing.submit_judgment(engine, tokens["ana"], code, "unclassifiable", "texto cortado")
    last = reviewing.last_judgment(engine, tokens["ana"])
    assert last is not None
    assert (last.code, last.choice) == (code, "unclassifiable")
    undone = reviewing.undo_last_judgment(engine, tokens["ana"], last.change_id)
    assert undone == reviewing.UndoneJudgment(code, "unclassifiable", "texto cortado", None)
    assert _judgment(engine, tokens["ana"], code) == (None, "")
    assert reviewing.my_queue(engine, tokens["ana"])[0].choice is None
    # Once: the last judgment is undone, nothing older comes back.
    assert reviewing.last_judgment(engine, tokens["ana"]) is None
    assert reviewing.undo_last_judgment(engine, tokens["ana"]) is None
    (detail,) = _undo_audit(engine)
    assert code in detail
    assert "unclassifiable" in detail
    # The sample can be judged again, and that judgment undone in turn.
    reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    assert reviewing.undo_last_judgment(engine, tokens["ana"]) is not None
    assert _judgment(engine, tokens["ana"], code) == (None, "")


def test_undo_restores_the_judgment_a_revision_replaced(
    setup: tuple[Engine, dict[str, str]],
) -> None:
    engine, tokens = setup
    first, second = [e.code for e in reviewing.my_queue(engine, tokens["ana"])[:2]]
    reviewing.submit_judgment(engine, tokens["ana"], first, "yes", "primeira nota")
    reviewing.submit_judgment(engine, tokens["ana"], second, "no")
    reviewing.submit_judgment(engine, tokens["ana"], first, "refusal", "revista")
    # Repeating the same judgment records nothing, so it is not "the last judgment".
    reviewing.submit_judgment(engine, tokens["ana"], first, "refusal", "revista")
    undone = reviewing.undo_last_judgment(engine, tokens["ana"])
    assert undone == reviewing.UndoneJudgment(first, "refusal", "revista", "yes")
    assert _judgment(engine, tokens["ana"], first) == ("yes", "primeira nota")
    assert _judgment(engine, tokens["ana"], second) == ("no", "")


def test_undo_touches_only_the_callers_judgments(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    shared = next(
        e.code
        for e in reviewing.my_queue(engine, tokens["ana"])
        if e.code in {b.code for b in reviewing.my_queue(engine, tokens["bruno"])}
    )
    reviewing.submit_judgment(engine, tokens["ana"], shared, "yes")
    reviewing.submit_judgment(engine, tokens["bruno"], shared, "no")
    assert reviewing.undo_last_judgment(engine, tokens["ana"]) is not None
    assert _judgment(engine, tokens["bruno"], shared) == ("no", "")
    assert _judgment(engine, tokens["ana"], shared) == (None, "")


def test_an_undo_offered_before_a_newer_judgment_does_nothing(
    setup: tuple[Engine, dict[str, str]],
) -> None:
    engine, tokens = setup
    first, second = [e.code for e in reviewing.my_queue(engine, tokens["ana"])[:2]]
    reviewing.submit_judgment(engine, tokens["ana"], first, "yes")
    offered = reviewing.last_judgment(engine, tokens["ana"])
    assert offered is not None
    reviewing.submit_judgment(engine, tokens["ana"], second, "no")
    assert reviewing.undo_last_judgment(engine, tokens["ana"], offered.change_id) is None
    assert _judgment(engine, tokens["ana"], first) == ("yes", "")
    assert _judgment(engine, tokens["ana"], second) == ("no", "")
    assert _undo_audit(engine) == []


def test_no_undo_once_the_batch_is_closed(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    admin.close_batch(
        engine, tokens["admin"], admin.list_batches(engine, tokens["admin"])[0].batch_id
    )
    assert reviewing.last_judgment(engine, tokens["ana"]) is None
    with pytest.raises(ReviewInputError, match="closed"):
        reviewing.undo_last_judgment(engine, tokens["ana"])
    assert _judgment(engine, tokens["ana"], code) == ("yes", "")


def test_undo_reads_no_unblinding_table(setup: tuple[Engine, dict[str, str]]) -> None:
    engine, tokens = setup
    code = reviewing.my_queue(engine, tokens["ana"])[0].code
    reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    statements: list[str] = []

    def record(*args: Any) -> None:
        statements.append(str(args[2]).lower())

    event.listen(engine, "before_cursor_execute", record)
    try:
        reviewing.last_judgment(engine, tokens["ana"])
        reviewing.undo_last_judgment(engine, tokens["ana"])
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert any("judgment_changes" in statement for statement in statements)
    for statement in statements:
        for forbidden in ("sample_keys", "automatic", "model_id", "adjudications"):
            assert forbidden not in statement, statement


# --- notes shown as quoted text ---------------------------------------------------------


def test_visible_text_removes_invisible_format_characters() -> None:
    forged = f"ok{INVISIBLE}\u00ad\r\nbruno:\u2028 yes\u0000\u3164"
    assert visible_text(forged) == "ok\nbruno:\n yes"
    assert visible_text("José — «não sei» 😀\ttab") == "José — «não sei» 😀 tab"


def test_every_line_of_a_note_is_quoted() -> None:
    quoted = quoted_text("concordo\n\u202ebruno: yes\r\n\u2029ana: no")
    assert quoted.split("\n") == ["> concordo", "> bruno: yes", "> ", "> ana: no"]
    assert all(line.startswith(QUOTE) for line in quoted.split("\n"))
