"""The Art. 26 audit end to end on the tiny round, on SQLite and PostgreSQL: sample with
the CLI, score, invalidate i7, export audit.parquet, freeze it into the archive; the
archive then verifies (its `audit` ledger line cites the triggering response's audit_id)
and no participant is scored on i7."""

from __future__ import annotations

import hashlib
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.archive import CHECKSUMS_FILE
from reportgen.cli import main
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review.audit import invalidate_item
from reportgen.kinds.multidomain.terms import scored_items
from reportgen.kinds.rounds import read_round
from tests.review.databases import KINDS, fresh_database, postgres_url
from tests.review.helpers import add_and_login
from tests.review.multidomain import score_audit, tiny_before_audit


def _cli(*args: str) -> str:
    result = CliRunner().invoke(main, ["review", *args])
    assert result.exit_code == 0, result.output
    return result.output


def _freeze(round_dir: Path, exported: Path) -> None:
    """Put the exported audit.parquet into the archive and rewrite SHA256SUMS."""
    shutil.copyfile(exported, round_dir / "audit.parquet")
    sums = round_dir / CHECKSUMS_FILE
    names = [line.split("  ", 1)[1] for line in sums.read_text(encoding="utf-8").splitlines()]
    sums.write_text(
        "".join(
            f"{hashlib.sha256((round_dir / name).read_bytes()).hexdigest()}  {name}\n"
            for name in sorted(names)
        ),
        encoding="utf-8",
    )


@pytest.mark.parametrize("kind", KINDS)
def test_the_audit_from_sample_to_a_verified_archive(kind: str, tmp_path: Path) -> None:
    engine = fresh_database(kind, tmp_path)
    url = f"sqlite:///{tmp_path / 'review.db'}" if kind == "sqlite" else postgres_url()
    admin = add_and_login(engine, "admin", "admin")
    add_and_login(engine, "h1")  # named as the human reviewer of judges.csv
    round_dir = tiny_before_audit(tmp_path / "rounds")
    _cli("sample", str(round_dir), "--task", "audit", "--seed", "5", "--db", url)
    score_audit(engine)
    audit_id = invalidate_item(
        engine, admin, "tiny-2026-11", "i7", clock=lambda: datetime(2026, 12, 4, tzinfo=UTC)
    )
    _cli("export", str(round_dir), "--output", str(tmp_path / "export"), "--db", url)
    _freeze(round_dir, tmp_path / "export" / "audit.parquet")
    round_ = read_round(round_dir, with_text=False)  # verified: refusals 41–43 hold
    assert isinstance(round_, Round)
    assert [(a.item_id, a.source, a.ref) for a in round_.annulments] == [("i7", "audit", audit_id)]
    assert {
        row.audit_id for row in round_.audit if row.item_id == "i7" and row.model_id == "p1"
    } == {audit_id}
    assert "i7" not in {item.item_id for item in scored_items(round_)}
    engine.dispose()
