"""`reportgen review freeze-export` on the tiny round: the export replaces the archive's
human tables, SHA256SUMS is rewritten, the archive verifies and the database records its
new identity, so that a later ledger action (a confirmed contamination) still works.
Refused with nothing changed: an export that would not verify, a folder with no human
table, another copy of the round; running it again after a lost commit converges."""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, select, update

from reportgen.archive import CHECKSUMS_FILE
from reportgen.cli import main
from reportgen.kinds.multidomain.review.audit import invalidate_item
from reportgen.kinds.multidomain.review.contamination import contamination_queue, record_outcome
from reportgen.kinds.rounds import read_round
from review_app.core.db import audit_log, rounds
from review_app.i18n import translate
from tests.review.helpers import add_and_login, new_database
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit

ROUND_ID = "tiny-2026-11"
DECIDED = datetime(2026, 12, 4, tzinfo=UTC)


@dataclass(frozen=True)
class Audited:
    engine: Engine
    url: str
    admin: str
    round_dir: Path
    export: Path


@pytest.fixture
def audited(tmp_path: Path) -> Iterator[Audited]:
    """The tiny round audited and scored; its export written (i7 not yet invalidated)."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "h1")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)
    score_audit(engine)
    yield Audited(engine, url, admin, round_dir, tmp_path / "export")
    engine.dispose()


def _cli(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["review", *args])
    return result.exit_code, result.output


def _export(audited: Audited) -> None:
    code, output = _cli(
        "export", str(audited.round_dir), "--output", str(audited.export), "--db", audited.url
    )
    assert code == 0, output


def _freeze(audited: Audited, round_dir: Path | None = None) -> tuple[int, str]:
    folder = audited.round_dir if round_dir is None else round_dir
    return _cli("freeze-export", str(audited.export), str(folder), "--db", audited.url)


def _snapshot(round_dir: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(round_dir.iterdir()) if p.is_file()}


def _recorded(engine: Engine) -> str | None:
    with engine.connect() as connection:
        value = connection.execute(
            select(rounds.c.sums_sha256).where(rounds.c.round_id == ROUND_ID)
        ).scalar_one()
    return None if value is None else str(value)


def test_a_frozen_export_verifies_and_later_ledger_actions_go_on(audited: Audited) -> None:
    invalidate_item(audited.engine, audited.admin, ROUND_ID, "i7", clock=lambda: DECIDED)
    _export(audited)
    code, output = _freeze(audited)
    assert code == 0, output
    assert "audit.parquet" in output
    archive = audited.round_dir
    assert (archive / "audit.parquet").read_bytes() == (
        audited.export / "audit.parquet"
    ).read_bytes()
    digest = hashlib.sha256((archive / CHECKSUMS_FILE).read_bytes()).hexdigest()
    assert _recorded(audited.engine) == digest
    read_round(archive, with_text=False)  # verified in full: refusals 41–43 hold
    assert not [p.name for p in archive.iterdir() if p.name.startswith(".")]  # no leftovers
    # The archive changed, and the database knows it: a contamination outcome is appended.
    queue = contamination_queue(audited.engine, audited.admin, ROUND_ID)
    finding = next(f for f in queue if f.item_id == "i3")
    ref = record_outcome(
        audited.engine,
        audited.admin,
        ROUND_ID,
        finding.finding_id,
        "confirmed",
        "Copies the statement.",
        clock=lambda: DECIDED,
    )
    assert ref
    sources = [a.source for a in read_round(archive, with_text=False).annulments]
    assert sources == ["audit", "contamination"]
    with audited.engine.connect() as connection:
        actions = list(connection.execute(select(audit_log.c.action)).scalars())
    assert "md_freeze_export" in actions


def test_an_export_that_would_not_verify_is_refused_and_put_back(audited: Audited) -> None:
    # i7 diverges above 1.0 but has no `audit` ledger line yet: refusal 43.
    _export(audited)
    before = _snapshot(audited.round_dir)
    recorded = _recorded(audited.engine)
    code, output = _freeze(audited)
    assert code == 1
    assert translate("en", "md_error_freeze_invalid", path=audited.round_dir, why="")[:40] in output
    assert "i7" in output
    assert _snapshot(audited.round_dir) == before
    assert _recorded(audited.engine) == recorded


def test_a_folder_without_human_tables_is_refused(audited: Audited) -> None:
    audited.export.mkdir()
    before = _snapshot(audited.round_dir)
    code, output = _freeze(audited)
    assert code == 1
    assert "no human table" in output
    assert _snapshot(audited.round_dir) == before


def test_another_copy_of_the_round_is_refused(audited: Audited, tmp_path: Path) -> None:
    invalidate_item(audited.engine, audited.admin, ROUND_ID, "i7", clock=lambda: DECIDED)
    _export(audited)
    copy = tmp_path / "copy" / audited.round_dir.name
    shutil.copytree(audited.round_dir, copy)
    before = _snapshot(copy)
    code, output = _freeze(audited, copy)
    assert code == 1
    assert "freeze the export into the recorded folder" in output
    assert _snapshot(copy) == before


def test_freezing_again_after_a_lost_commit_records_the_identity(audited: Audited) -> None:
    invalidate_item(audited.engine, audited.admin, ROUND_ID, "i7", clock=lambda: DECIDED)
    _export(audited)
    recorded = _recorded(audited.engine)
    assert _freeze(audited)[0] == 0
    with audited.engine.begin() as connection:  # as if the commit had not happened
        connection.execute(update(rounds).values(sums_sha256=recorded))
    frozen = _snapshot(audited.round_dir)
    code, output = _freeze(audited)
    assert code == 0, output
    assert _snapshot(audited.round_dir) == frozen
    digest = hashlib.sha256(frozen[CHECKSUMS_FILE]).hexdigest()
    assert _recorded(audited.engine) == digest
