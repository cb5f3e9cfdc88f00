"""A ledger line the review app did not write (issue 23, point 11): appended to the
round's annulments.jsonl with its hash chain recomputed, so that `reportgen verify` alone
accepts it, it is refused by `review freeze-export` and by the app's ledger actions, with
one line naming it and nothing changed; the app's own lines still go through."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, select

from reportgen.archive import LEDGER_FILE
from reportgen.cli import main
from reportgen.kinds.multidomain.review.audit import invalidate_item
from reportgen.kinds.multidomain.review.contamination import contamination_queue, record_outcome
from reportgen.kinds.multidomain.review.round import audit_pending
from reportgen.kinds.rounds import read_round, verify_round
from review_app.core.db import rounds
from review_app.core.errors import ReviewInputError
from tests.review.helpers import add_and_login, new_database
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit

ROUND_ID = "tiny-2026-11"
DECIDED = datetime(2026, 12, 4, tzinfo=UTC)
REASON = {"pt-BR": "Anulado por engano.", "en": "Annulled by mistake."}


@dataclass(frozen=True)
class Audited:
    engine: Engine
    url: str
    admin: str
    round_dir: Path
    export: Path


@pytest.fixture
def audited(tmp_path: Path) -> Iterator[Audited]:
    """The tiny round audited, i7 invalidated by the app, and its export written."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "h1")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)
    score_audit(engine)
    invalidate_item(engine, admin, ROUND_ID, "i7", clock=lambda: DECIDED)
    export = tmp_path / "export"
    result = CliRunner().invoke(
        main, ["review", "export", str(round_dir), "--output", str(export), "--db", url]
    )
    assert result.exit_code == 0, result.output
    yield Audited(engine, url, admin, round_dir, export)
    engine.dispose()


def _freeze(audited: Audited) -> tuple[int, str]:
    args = ["review", "freeze-export", str(audited.export), str(audited.round_dir)]
    result = CliRunner().invoke(main, [*args, "--db", audited.url])
    return result.exit_code, result.output


def _forge(round_dir: Path, item_id: str, source: str, ref: str) -> bytes:
    """Append a line as someone with the folder but not the database would: the chain
    recomputed, so the ledger's own check passes (the ledger is not in SHA256SUMS)."""
    ledger = round_dir / LEDGER_FILE
    data = ledger.read_bytes()
    record = {
        "item_id": item_id,
        "decided_on": "2026-12-05",
        "source": source,
        "ref": ref,
        "reason": REASON,
        "prev_sha256": hashlib.sha256(data).hexdigest(),
    }
    line = (json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8")
    ledger.write_bytes(data + line)
    return line


def _snapshot(round_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(round_dir.iterdir()) if p.is_file()}


def _recorded(engine: Engine) -> str:
    with engine.connect() as connection:
        query = select(rounds.c.sums_sha256).where(rounds.c.round_id == ROUND_ID)
        return str(connection.execute(query).scalar_one())


def test_a_forged_line_is_not_frozen(audited: Audited) -> None:
    line = _forge(audited.round_dir, "i3", "contamination", "F-forged")
    # The archive's own checks accept the forged line: only the review app can tell.
    assert not [p for p in verify_round(audited.round_dir) if not audit_pending(p)]
    before, recorded = _snapshot(audited.round_dir), _recorded(audited.engine)
    code, output = _freeze(audited)
    assert code == 1
    assert len(output.strip().splitlines()) == 1, output
    assert output.startswith("Error: ")
    assert "line 2 (source contamination, ref F-forged, item i3" in output
    assert hashlib.sha256(line).hexdigest()[:12] in output
    assert "not written by the review app" in output
    assert _snapshot(audited.round_dir) == before
    assert _recorded(audited.engine) == recorded


def test_the_apps_own_lines_are_frozen(audited: Audited) -> None:
    code, output = _freeze(audited)
    assert code == 0, output
    assert [a.source for a in read_round(audited.round_dir, with_text=False).annulments] == [
        "audit"
    ]


def test_a_ledger_action_refuses_a_forged_line(audited: Audited) -> None:
    _forge(audited.round_dir, "i3", "audit", "h1-forged")
    queue = contamination_queue(audited.engine, audited.admin, ROUND_ID)
    finding = next(f for f in queue if f.item_id == "i3")
    before = _snapshot(audited.round_dir)
    with pytest.raises(ReviewInputError, match=r"line 2 .*not written by the review app"):
        record_outcome(
            audited.engine, audited.admin, ROUND_ID, finding.finding_id, "confirmed",
            "Copies the statement.", clock=lambda: DECIDED,
        )  # fmt: skip
    assert _snapshot(audited.round_dir) == before


def test_a_forged_line_after_a_freeze_is_refused_too(audited: Audited) -> None:
    assert _freeze(audited)[0] == 0
    _forge(audited.round_dir, "i3", "contestation", "C-20261205-000000")
    code, output = _freeze(audited)
    assert code == 1
    assert "line 2 (source contestation" in output


def test_a_line_swapped_for_a_forged_one_is_refused(audited: Audited) -> None:
    (audited.round_dir / LEDGER_FILE).write_bytes(b"")  # the app's line taken out
    _forge(audited.round_dir, "i3", "contamination", "F-forged")
    before = _snapshot(audited.round_dir)
    code, output = _freeze(audited)
    assert code == 1
    assert "line 1 (source contamination" in output
    assert _snapshot(audited.round_dir) == before


def test_a_rewritten_history_is_refused(audited: Audited) -> None:
    assert _freeze(audited)[0] == 0  # the baseline: the app's one line
    ledger = audited.round_dir / LEDGER_FILE
    record = json.loads(ledger.read_bytes())
    record["reason"] = REASON  # the first line's prev_sha256 stays "": a valid chain
    ledger.write_bytes((json.dumps(record, ensure_ascii=False) + "\n").encode("utf-8"))
    before = _snapshot(audited.round_dir)
    code, output = _freeze(audited)
    assert code == 1
    assert "no longer begins with the 1 lines" in output
    assert "the ledger was rewritten" in output
    assert _snapshot(audited.round_dir) == before
