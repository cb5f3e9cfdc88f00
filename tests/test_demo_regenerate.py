"""Regenerating the demonstration rounds gives the committed archives, byte for byte."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main

ROUNDS = Path(__file__).resolve().parents[1] / "rounds"
ROUND_IDS = ("estigmas-2026-06", "idje-avalia-2026-07")


@pytest.fixture(scope="module")
def regenerated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("demo")
    result = CliRunner().invoke(main, ["demo", "generate", "--out", str(out)])
    assert result.exit_code == 0, result.output
    return out


@pytest.mark.parametrize("round_id", ROUND_IDS)
def test_regenerated_checksums_equal_the_committed_ones(regenerated: Path, round_id: str) -> None:
    committed = (ROUNDS / round_id / "SHA256SUMS").read_text(encoding="utf-8")
    assert (regenerated / round_id / "SHA256SUMS").read_text(encoding="utf-8") == committed


def test_generate_also_writes_the_multidomain_demonstration_rounds(regenerated: Path) -> None:
    # Without --multidomain-out the round goes to examples/multidomain/rounds beside --out.
    for round_id in ("reg-2026-1", "reg-2026-2"):  # the series: bank v1.0, then v1.1
        written = regenerated.parent / "examples" / "multidomain" / "rounds" / round_id
        committed = ROUNDS.parent / "examples" / "multidomain" / "rounds" / round_id
        for name in ("SHA256SUMS", "annulments.jsonl", "round.json"):
            assert (written / name).read_bytes() == (committed / name).read_bytes()


def test_regenerated_ledger_equals_the_committed_one(regenerated: Path) -> None:
    ledger = "idje-avalia-2026-07/annulments.jsonl"
    assert (regenerated / ledger).read_bytes() == (ROUNDS / ledger).read_bytes()


@pytest.mark.parametrize("round_id", ROUND_IDS)
def test_committed_archives_pass_coreutils_and_verify(round_id: str) -> None:
    subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=ROUNDS / round_id, check=True)
    result = CliRunner().invoke(main, ["verify", str(ROUNDS / round_id)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"OK {round_id}")


def test_generate_refuses_to_overwrite(regenerated: Path) -> None:
    result = CliRunner().invoke(main, ["demo", "generate", "--out", str(regenerated)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output


@pytest.mark.parametrize("round_id", ROUND_IDS)
def test_parser_gives_every_frozen_label(round_id: str) -> None:
    from reportgen.kinds.estigmas.archive import read_round
    from reportgen.kinds.estigmas.parse import PARSER_VERSION, parse_output

    round_ = read_round(ROUNDS / round_id, with_text=True)
    assert round_.manifest.parser_version == PARSER_VERSION
    for responses in round_.responses.values():
        for index, item in enumerate(round_.items):
            text = responses.raw_text[index]
            assert parse_output(text, item.language) == responses.label(index), (
                responses.model_id,
                item.item_id,
            )
