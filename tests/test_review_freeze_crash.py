"""`reportgen review freeze-export` survives a kill between its renames (issue 23, point
10): the swap is journaled beside the archive, `reportgen verify` names the interrupted
swap, and the next run rolls it back and freezes again, leaving an archive that verifies
and no stray file."""

from __future__ import annotations

import hashlib
import subprocess
import sys
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from reportgen.archive import CHECKSUMS_FILE, swap_journal_of
from reportgen.cli import main
from reportgen.kinds.multidomain.review.audit import invalidate_item
from review_app.core.db import rounds
from tests.review.helpers import add_and_login, new_database
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit

ROOT = Path(__file__).resolve().parents[1]
ROUND_ID = "tiny-2026-11"
DECIDED = datetime(2026, 12, 4, tzinfo=UTC)
# Run freeze-export in a child process that dies (os._exit: no except, no finally) when
# the swap is about to make rename number N+1, or after the last one, while verifying.
KILLED_AT = """
import os, sys
from pathlib import Path
import review_app.core.freeze_journal as journal
import reportgen.kinds.multidomain.review.freeze as md_freeze
from review_app.core.storage import open_database

url, export_dir, round_dir, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
real, done = journal._rename, [0]

def rename(source, target):
    if done[0] == limit:
        os._exit(137)
    real(source, target)
    done[0] += 1

def die(*_args):
    os._exit(137)

journal._rename = rename
md_freeze._check_archive = die  # past the last rename: killed while verifying
md_freeze.freeze_export(open_database(url), Path(export_dir), Path(round_dir))
"""
RENAMES = 2  # audit.parquet, then SHA256SUMS (the tiny round's export has no calibration)


@dataclass(frozen=True)
class Audited:
    url: str
    round_dir: Path
    export: Path


@pytest.fixture
def audited(tmp_path: Path) -> Audited:
    """The tiny round audited and scored, i7 invalidated, its export written: ready to
    freeze (as in tests/test_review_md_freeze.py)."""
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "h1")
    round_dir = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, round_dir)
    score_audit(engine)
    invalidate_item(engine, admin, ROUND_ID, "i7", clock=lambda: DECIDED)
    engine.dispose()
    export = tmp_path / "export"
    _review("export", str(round_dir), "--output", str(export), "--db", url)
    return Audited(url, round_dir, export)


def _review(*args: str) -> str:
    result = CliRunner().invoke(main, ["review", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _recorded(url: str) -> str | None:
    engine = new_database(url)
    with engine.connect() as connection:
        value = connection.execute(
            select(rounds.c.sums_sha256).where(rounds.c.round_id == ROUND_ID)
        ).scalar_one()
    engine.dispose()
    return None if value is None else str(value)


def _traces(round_dir: Path) -> list[str]:
    hidden = [p.name for p in round_dir.iterdir() if p.name.startswith(".")]
    beside = [p.name for p in round_dir.parent.iterdir() if p.name.startswith(".")]
    return hidden + beside


@pytest.mark.parametrize("renames", range(RENAMES + 1))
def test_a_kill_between_renames_is_rolled_back_by_the_next_run(
    audited: Audited, renames: int
) -> None:
    before = _recorded(audited.url)
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_AT, audited.url, str(audited.export),
         str(audited.round_dir), str(renames)],
        cwd=ROOT, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert killed.returncode == 137, killed.stderr
    assert swap_journal_of(audited.round_dir).exists()
    assert _recorded(audited.url) == before  # the database was not committed

    verified = CliRunner().invoke(main, ["verify", str(audited.round_dir)])
    assert verified.exit_code == 1
    assert "interrupted `reportgen review freeze-export`" in verified.output

    _review("freeze-export", str(audited.export), str(audited.round_dir), "--db", audited.url)
    verified = CliRunner().invoke(main, ["verify", str(audited.round_dir)])
    assert verified.exit_code == 0, verified.output
    assert _traces(audited.round_dir) == []
    digest = hashlib.sha256((audited.round_dir / CHECKSUMS_FILE).read_bytes()).hexdigest()
    assert _recorded(audited.url) == digest
    exported = (audited.export / "audit.parquet").read_bytes()
    assert (audited.round_dir / "audit.parquet").read_bytes() == exported


def test_leftover_copies_without_a_journal_are_removed(audited: Audited) -> None:
    stray = audited.round_dir.parent / f".{audited.round_dir.name}.swap.new.audit.parquet"
    stray.write_bytes(b"half written")
    _review("freeze-export", str(audited.export), str(audited.round_dir), "--db", audited.url)
    assert _traces(audited.round_dir) == []
