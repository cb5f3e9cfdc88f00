"""`reportgen summary` answers an unchanged archive from the cache, and only then.

The cache (reportgen/results/_answers.py) keeps the printed text under a key made of
the archive's SHA256SUMS and ledger, its folder's name, the package's modules and the
console; an archive that is not exactly what its SHA256SUMS lists is read as before.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from reportgen.results import frozen_digest
from tests.factories import make_round


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    directory = tmp_path / "cache"
    monkeypatch.setenv("REPORTGEN_CACHE_DIR", str(directory))
    return directory


def run_summary(*args: str, columns: int = 160) -> Result:
    return CliRunner(env={"COLUMNS": str(columns)}).invoke(main, ["summary", *args])


def answers(cache: Path) -> list[Path]:
    return sorted(cache.glob("answer-*.json"))


def refuse_to_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """From now on, reading the round fails: only a cached answer can succeed."""

    def fail(round_dir: Path, console: object) -> str:
        raise AssertionError(f"read {round_dir}")

    monkeypatch.setattr("reportgen.cli.summary._answer", fail)


@pytest.mark.parametrize("options", [(), ("--json",)], ids=["table", "json"])
def test_an_unchanged_archive_is_answered_from_the_cache(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, options: tuple[str, ...]
) -> None:
    round_dir = make_round(tmp_path)
    first = run_summary(str(round_dir), *options)
    assert first.exit_code == 0, first.output
    assert len(answers(cache)) == 1
    refuse_to_read(monkeypatch)
    second = run_summary(str(round_dir), *options)
    assert second.exit_code == 0, second.output
    assert second.stdout == first.stdout
    refused = run_summary(str(round_dir), *options, "--no-cache")
    assert refused.exit_code != 0  # --no-cache reads the round


def test_the_table_is_kept_per_console_width(tmp_path: Path, cache: Path) -> None:
    round_dir = make_round(tmp_path)
    wide = run_summary(str(round_dir), columns=160)
    narrow = run_summary(str(round_dir), columns=100)
    assert wide.exit_code == narrow.exit_code == 0
    assert len(answers(cache)) == 2
    assert max(len(line) for line in narrow.stdout.splitlines()) <= 100
    assert run_summary(str(round_dir), columns=100).stdout == narrow.stdout


def test_a_changed_file_is_read_and_reported(tmp_path: Path, cache: Path) -> None:
    round_dir = make_round(tmp_path)
    assert run_summary(str(round_dir)).exit_code == 0
    with (round_dir / "models.csv").open("a", encoding="utf-8") as handle:
        handle.write("\n")
    result = run_summary(str(round_dir))
    assert result.exit_code == 1
    assert "checksum mismatch" in result.stderr
    assert len(answers(cache)) == 1  # nothing stored for the broken archive


def test_a_stray_file_is_read_and_reported(tmp_path: Path, cache: Path) -> None:
    round_dir = make_round(tmp_path)
    assert run_summary(str(round_dir)).exit_code == 0
    (round_dir / "notes.txt").write_text("a file the archive does not list\n", encoding="utf-8")
    result = run_summary(str(round_dir))
    assert result.exit_code == 1
    assert "notes.txt" in result.stderr


def test_a_renamed_folder_is_not_the_same_archive(tmp_path: Path, cache: Path) -> None:
    round_dir = make_round(tmp_path)
    assert run_summary(str(round_dir)).exit_code == 0
    renamed = tmp_path / "another-name"
    shutil.copytree(round_dir, renamed)
    result = run_summary(str(renamed))
    assert result.exit_code == 1  # round_id must name the folder; the cache must not hide it
    assert "another-name" in result.stderr


def test_a_corrupt_answer_is_recomputed(tmp_path: Path, cache: Path) -> None:
    round_dir = make_round(tmp_path)
    first = run_summary(str(round_dir))
    (stored,) = answers(cache)
    stored.write_text('{"answer": ', encoding="utf-8")
    again = run_summary(str(round_dir))
    assert again.exit_code == 0, again.output
    assert again.stdout == first.stdout
    assert stored.read_text(encoding="utf-8").startswith('{\n "answer": ')


def test_the_digest_covers_the_ledger_and_refuses_what_it_cannot_check(tmp_path: Path) -> None:
    round_dir = make_round(tmp_path)
    digest = frozen_digest(round_dir)
    assert digest is not None
    (round_dir / "annulments.jsonl").write_text("{}\n", encoding="utf-8")
    with_ledger = frozen_digest(round_dir)
    assert with_ledger is not None
    assert with_ledger != digest
    (round_dir / "annulments.jsonl").unlink()
    assert frozen_digest(round_dir) == digest
    (round_dir / "extra").symlink_to(round_dir / "models.csv")
    assert frozen_digest(round_dir) is None
    (round_dir / "extra").unlink()
    sums = round_dir / "SHA256SUMS"
    sums.write_text(sums.read_text(encoding="utf-8") + "not a checksum line\n", encoding="utf-8")
    assert frozen_digest(round_dir) is None
