"""Files that hold the review's data are readable by their owner only (issue 23, point
11): a pre-existing SQLite database others could read is made 0600 when a command opens
it, and the multidomain export (audit.parquet, calibration.parquet) is written 0600."""

from __future__ import annotations

import stat
from pathlib import Path

from click.testing import CliRunner

from reportgen.cli import main
from review_app.core.storage import open_database
from tests.review.multidomain import tiny_before_audit


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_world_readable_database_is_made_private(tmp_path: Path) -> None:
    target = tmp_path / "review.db"
    open_database(f"sqlite:///{target}").dispose()
    target.chmod(0o644)
    result = CliRunner().invoke(main, ["review", "verify-audit", "--db", f"sqlite:///{target}"])
    assert result.exit_code == 0, result.output
    for path in tmp_path.iterdir():  # the database and its -wal and -shm files
        assert _mode(path) == 0o600, path


def test_the_multidomain_export_is_private(tmp_path: Path) -> None:
    round_dir = tiny_before_audit(tmp_path / "rounds")
    db = f"sqlite:///{tmp_path / 'review.db'}"
    assert CliRunner().invoke(main, ["review", "init", "--db", db]).exit_code == 0
    folder = tmp_path / "export"
    result = CliRunner().invoke(
        main, ["review", "export", str(round_dir), "--output", str(folder), "--db", db]
    )
    assert result.exit_code == 0, result.output
    written = sorted(folder.iterdir())
    assert written
    for path in written:
        assert _mode(path) == 0o600, path
