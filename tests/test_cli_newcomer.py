"""The CLI as a newcomer meets it (issue 23, point 12): a mistyped command gets a
suggestion, `demo generate` in a clone names what exists, and every kind's summary fits
120 columns."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("typed", "meant"), [("biuld", "build"), ("reveiw", "review"), ("verfy", "verify")]
)
def test_a_top_level_typo_suggests_the_command(typed: str, meant: str) -> None:
    result = CliRunner().invoke(main, [typed])
    assert result.exit_code == 2
    assert f"Did you mean '{meant}'?" in result.output


def test_an_unknown_option_is_still_an_option_error() -> None:
    result = CliRunner().invoke(main, ["--hel"])
    assert result.exit_code == 2
    assert "No such option" in result.output


def test_demo_generate_in_a_clone_names_every_existing_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    existing = [
        Path("rounds/estigmas-2026-06"),
        Path("rounds/idje-avalia-2026-07"),
        Path("examples/multidomain/rounds/reg-2026-1"),
        Path("examples/counterfactual/rounds/atendimento-2026-09"),
        Path("examples/counterfactual/rounds/atendimento-2026-10"),
    ]
    for folder in existing:
        (tmp_path / folder).mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["demo", "generate"])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    (line,) = result.output.strip().splitlines()
    for folder in existing:
        assert str(folder) in line
        assert not any((tmp_path / folder).iterdir())  # nothing written
    assert "--out" in line


SUMMARY_ROUNDS = [
    "rounds/estigmas-2026-06",
    "examples/multidomain/rounds/reg-2026-1",
    "examples/counterfactual/rounds/atendimento-2026-09",
]


@pytest.mark.parametrize("round_dir", SUMMARY_ROUNDS)
@pytest.mark.parametrize("columns", [None, "120"])
def test_summary_fits_120_columns_without_cutting_a_cell(
    round_dir: str, columns: str | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("COLUMNS", raising=False)
    environment = {} if columns is None else {"COLUMNS": columns}
    assert "COLUMNS" not in os.environ
    result = CliRunner().invoke(main, ["summary", str(ROOT / round_dir)], env=environment)
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert max(len(line) for line in lines) <= 120
    assert "…" not in result.output  # rich cuts a cell that does not fit with an ellipsis
