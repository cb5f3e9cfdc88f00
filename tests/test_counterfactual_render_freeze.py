"""From real runs to an archive: `reportgen counterfactual render`, a team's filled
responses (fixed texts here), then freeze, which verifies what it writes."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from reportgen.errors import ArchiveError
from reportgen.kinds.counterfactual.freeze import freeze_round
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.terms import (
    battery_sha256,
    required_interpretation_ids,
    sha256_text,
)
from reportgen.kinds.counterfactual.write import battery_files
from reportgen.kinds.rounds import read_round, verify_round
from tests.factories.counterfactual_raw import fill, render, write_battery
from tests.factories.counterfactual_rounds import JUDGE_INPUT, ROUND_ID, minimal_round


@pytest.fixture
def raw_round(tmp_path: Path) -> Path:
    write_battery(tmp_path / "battery")
    render(tmp_path / "battery", tmp_path / "raw")
    return tmp_path / "raw"


def test_render_lists_every_call_interleaved(raw_round: Path) -> None:
    calls = [json.loads(line) for line in (raw_round / "to_send.jsonl").read_text().splitlines()]
    assert [c["run_order"] for c in calls] == list(range(1, 17))
    first_run = [c["item_id"] for c in calls if c["run"] == 1]
    assert sorted(first_run) == sorted(i.item_id for i in minimal_round().items)
    assert [c["run"] for c in calls] == [1] * 8 + [2] * 8
    assert first_run != [c["item_id"] for c in calls if c["run"] == 2]  # reshuffled per run
    with (raw_round / "to_send.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [r["prompt"] for r in rows] == [c["prompt"] for c in calls]
    assert rows[0]["raw_text"] == ""


def test_render_is_seeded(tmp_path: Path, raw_round: Path) -> None:
    render(tmp_path / "battery", tmp_path / "again")
    render(tmp_path / "battery", tmp_path / "other", "--seed", "99")
    same = (raw_round / "to_send.jsonl").read_bytes()
    assert (tmp_path / "again" / "to_send.jsonl").read_bytes() == same
    assert (tmp_path / "other" / "to_send.jsonl").read_bytes() != same


def test_render_fill_freeze_verify(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round)
    out = tmp_path / ROUND_ID
    note = freeze_round(raw_round, out)
    assert "2 system(s), 32 responses" in note
    assert verify_round(out) == []
    frozen = read_round(out)
    assert isinstance(frozen, Round)
    manifest = frozen.manifest
    assert (str(manifest.collected_on), str(manifest.ended_on)) == ("2026-11-10", "2026-11-10")
    assert manifest.languages == ("pt-BR",)
    battery = {name: (out / name).read_bytes() for name in battery_files(minimal_round())}
    assert manifest.battery_sha256 == battery_sha256(battery)
    assert battery == battery_files(minimal_round())  # the battery files, byte for byte
    ids = {i.id for i in manifest.interpretations}
    assert set(required_interpretation_ids()) <= ids
    assert [i.prompt for i in frozen.items] == [i.prompt for i in minimal_round().items]
    assert {s.model_id: str(s.evaluated_on) for s in frozen.models} == {
        "bot-a": "2026-11-10",
        "bot-b": "2026-11-10",
    }
    (calibrated, *_) = frozen.calibration
    assert (calibrated.judge_score, calibrated.input_sha256) == (4, sha256_text(JUDGE_INPUT))


def test_freeze_keeps_a_line_separator_inside_an_answer(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round)
    path = raw_round / "responses" / "bot-a.jsonl"
    path.write_text(path.read_text().replace("vamos ajudar (1)", "vamos\u2028ajudar (1)"))
    freeze_round(raw_round, tmp_path / ROUND_ID)
    frozen = read_round(tmp_path / ROUND_ID)
    assert isinstance(frozen, Round)
    texts = [r.raw_text for r in frozen.responses["bot-a"]]
    assert "Olá! Sentimos muito, vamos\u2028ajudar (1)." in texts


def test_freeze_refuses_a_call_under_another_prompt(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round, prompt_of={"bot-b": "9" * 64})
    out = tmp_path / ROUND_ID
    with pytest.raises(ArchiveError) as refused:
        freeze_round(raw_round, out)
    (problem,) = refused.value.problems
    assert (problem.file, problem.where) == ("responses/bot-b.parquet", "system_prompt_sha256")
    assert problem.message.startswith(f"every call ran with {'9' * 64}, which differs")
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_freeze_reports_bad_filled_lines(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round)
    path = raw_round / "responses" / "bot-a.jsonl"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace('"called_at": "2026-11-10T09:00:30Z"', '"called_at": "ontem"')
    lines[4] = "{not json"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ArchiveError) as refused:
        freeze_round(raw_round, tmp_path / ROUND_ID)
    assert [str(p) for p in refused.value.problems] == [
        "responses/bot-a.jsonl: line 5: not valid JSON (Expecting property name enclosed "
        "in double quotes): expected one object",
        "responses/bot-a.jsonl: line 3, called_at: 'ontem': expected "
        "YYYY-MM-DDThh:mm:ss[.fff]Z (UTC)",
    ]


def test_freeze_refuses_a_missing_system_file(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round)
    (raw_round / "extractions" / "bot-b.jsonl").unlink()
    with pytest.raises(ArchiveError) as refused:
        freeze_round(raw_round, tmp_path / ROUND_ID)
    (problem,) = refused.value.problems
    assert problem.file == "extractions/bot-b.jsonl"
    assert problem.message.startswith("missing file")


def test_freeze_refuses_a_raw_round_without_items(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round)
    (raw_round / "items.parquet").unlink()
    with pytest.raises(ArchiveError) as refused:
        freeze_round(raw_round, tmp_path / ROUND_ID)
    assert [p.file for p in refused.value.problems] == ["items.parquet"]


def test_render_refuses_a_bad_battery(tmp_path: Path) -> None:
    write_battery(tmp_path / "battery")
    templates = tmp_path / "battery" / "templates.csv"
    templates.write_text(templates.read_text().replace("{idade} anos", "{idades} anos", 1))
    result = CliRunner().invoke(
        main, ["counterfactual", "render", str(tmp_path / "battery"), "--out", str(tmp_path / "r")]
    )
    assert result.exit_code == 1
    assert "templates.csv: row 1" in result.output
    assert not (tmp_path / "r").exists()


def test_freeze_asks_for_the_first_calibration(tmp_path: Path, raw_round: Path) -> None:
    fill(raw_round, calibration=False)
    out = tmp_path / ROUND_ID
    with pytest.raises(ArchiveError) as refused:
        freeze_round(raw_round, out)
    (problem,) = refused.value.problems
    assert problem.file == "calibration.jsonl"
    assert problem.message.startswith("missing file: a judged score needs the hand scores")
    assert "reportgen review sample RAW_DIR --task calibration" in problem.message
    assert not out.exists()
