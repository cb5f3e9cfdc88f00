"""ruff reads every Python file git tracks: its exclusions (pyproject.toml) name only the
top-level folders of rounds and built sites. A bare folder name there excludes every folder
of that name at any depth; `"rounds"` once hid `review_app/rounds/` from the lint."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
RUFF = Path(sys.executable).with_name("ruff")


def _tracked_python_files() -> set[str]:
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=REPO, capture_output=True, text=True, check=True
    ).stdout
    return {line for line in listed.splitlines() if line}


def _files_ruff_reads() -> set[str]:
    shown = subprocess.run(
        [str(RUFF), "check", "--show-files", "."], cwd=REPO, capture_output=True, text=True
    ).stdout
    return {str(Path(line).relative_to(REPO)) for line in shown.splitlines() if line.strip()}


def test_ruff_reads_every_tracked_python_file() -> None:
    if not (REPO / ".git").exists():
        return  # an unpacked source tree: nothing tracked to compare
    assert _tracked_python_files() - _files_ruff_reads() == set()
