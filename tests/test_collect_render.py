"""`reportgen render`: every kind's calls to send as to_send, an inspect_ai dataset and a
task file with the round's declared settings."""

from __future__ import annotations

import ast
import json
import shutil
import sys
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.factories.counterfactual_raw import write_battery
from tests.support.inspect_runs import estigmas_draft

EXAMPLE_ROUNDS = Path(__file__).resolve().parents[1] / "examples" / "multidomain" / "rounds"


def _render(draft: Path, raw: Path) -> str:
    result = CliRunner().invoke(main, ["render", str(draft), "--out", str(raw)])
    assert result.exit_code == 0, result.output
    return result.output


def _task_constants(task_file: Path) -> dict[str, object]:
    """SYSTEM_PROMPT and GENERATION as the task file sets them."""
    module = ast.parse(task_file.read_text(encoding="utf-8"))
    return {
        target.id: ast.literal_eval(node.value)
        for node in module.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id in ("SYSTEM_PROMPT", "GENERATION")
    }


def _dataset_matches_to_send(raw: Path) -> list[dict[str, object]]:
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    samples = [
        json.loads(line) for line in (raw / "inspect_dataset.jsonl").read_text().splitlines()
    ]
    assert len(samples) == len(calls)
    for call, sample in zip(calls, samples, strict=True):
        assert sample["id"] == f"{call['item_id']}@{call['run']}"
        assert sample["input"] == call["prompt"]
        metadata = sample["metadata"]
        for key in ("item_id", "run", "run_order", "language"):
            assert metadata[key] == call[key]
    return calls


def test_render_an_estigmas_draft(tmp_path: Path) -> None:
    draft, _ = estigmas_draft(tmp_path)
    raw = tmp_path / "raw"
    _render(draft, raw)
    calls = _dataset_matches_to_send(raw)
    assert [call["run"] for call in calls] == [1] * len(calls)
    generation = json.loads((draft / "round.json").read_text())["generation"]
    constants = _task_constants(raw / "inspect_task.py")
    assert constants["SYSTEM_PROMPT"] == generation["system_prompt"]
    assert constants["GENERATION"] == {
        key: value for key, value in generation.items() if key != "system_prompt"
    }
    assert (raw / "responses").is_dir()


def test_render_a_counterfactual_battery_interleaves_the_runs(tmp_path: Path) -> None:
    write_battery(tmp_path / "battery")
    raw = tmp_path / "raw"
    _render(tmp_path / "battery", raw)
    calls = _dataset_matches_to_send(raw)
    runs = [int(str(call["run"])) for call in calls]
    assert runs == sorted(runs)  # run 1's pass over every item, then run 2's
    assert len(set(runs)) >= 2
    generation = json.loads((tmp_path / "battery" / "round.json").read_text())["generation"]
    constants = _task_constants(raw / "inspect_task.py")
    assert constants["SYSTEM_PROMPT"] is None  # each system's own, given at eval
    expected = {"timeout_s": "timeout"}
    assert constants["GENERATION"] == {
        expected.get(key, key): value for key, value in generation.items() if value is not None
    }


def test_render_refuses_an_incomplete_draft(tmp_path: Path) -> None:
    draft, _ = estigmas_draft(tmp_path)
    (draft / "items.parquet").unlink()
    result = CliRunner().invoke(main, ["render", str(draft), "--out", str(tmp_path / "raw")])
    assert result.exit_code == 1
    assert "missing file(s) items.parquet" in result.output
    assert not (tmp_path / "raw").exists()


def test_render_a_multidomain_draft_in_the_bank_order(tmp_path: Path) -> None:
    """Every test item once per run, each run in the Art. 21 order; calibration items
    never sent; the system prompt (declared by its hash only) given at run time."""
    example = next(path for path in sorted(EXAMPLE_ROUNDS.iterdir()) if path.is_dir())
    draft = tmp_path / "draft"
    draft.mkdir()
    for name in ("round.json", "models.csv", "items.parquet"):
        shutil.copy(example / name, draft / name)
    raw = tmp_path / "raw"
    _render(draft, raw)
    calls = _dataset_matches_to_send(raw)
    items = pq.read_table(draft / "items.parquet").to_pylist()
    tests = sorted((row for row in items if not row["calibration"]), key=lambda row: row["order"])
    runs = json.loads((draft / "round.json").read_text())["multidomain"]["runs"]
    assert [(call["item_id"], call["run"]) for call in calls] == [
        (row["item_id"], run) for run in range(1, runs + 1) for row in tests
    ]
    assert [call["run_order"] for call in calls] == list(range(1, len(calls) + 1))
    assert _task_constants(raw / "inspect_task.py")["SYSTEM_PROMPT"] is None


def test_render_and_import_jsonl_need_no_inspect_ai(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in [name for name in sys.modules if name.split(".")[0] == "inspect_ai"]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "inspect_ai", None)  # as if not installed
    draft, answers = estigmas_draft(tmp_path)
    raw = tmp_path / "raw"
    _render(draft, raw)
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    by_prompt = answers["alfa-1"]
    lines = [
        json.dumps(
            {
                "model_id": model_id,
                "item_id": call["item_id"],
                "raw_text": by_prompt[call["prompt"]],
            }
        )
        for model_id in answers
        for call in calls
    ]
    (tmp_path / "answers.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(
        main, ["import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(raw)]
    )
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in (raw / "responses").iterdir()) == sorted(
        f"{model_id}.parquet" for model_id in answers
    )
