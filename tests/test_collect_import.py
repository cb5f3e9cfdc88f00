"""`reportgen import inspect` and `reportgen import jsonl`: answers matched to a raw
round's calls, and every refusal of issue 22 through the CLI (one line each, exit 1,
nothing written)."""

from __future__ import annotations

import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from tests.factories import make_raw_round
from tests.support.inspect_runs import (
    INPUT_TOKENS,
    INSPECT_WARNINGS,
    estigmas_draft,
    run_eval,
)

pytestmark = INSPECT_WARNINGS


@pytest.fixture(scope="module")
def sent(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The tiny round's raw round, and the log of its calls sent to system alfa-1."""
    tmp_path = tmp_path_factory.mktemp("sent")
    draft, answers = estigmas_draft(tmp_path)
    raw = tmp_path / "raw"
    assert _invoke("render", str(draft), "--out", str(raw)).exit_code == 0
    [log] = run_eval(raw, {"alfa-1-2026": answers["alfa-1"]}, tmp_path / "logs")
    return raw, log


def _invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def _fresh(sent: tuple[Path, Path], tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    shutil.copytree(sent[0], raw)
    return raw


def _edited_log(log: Path, tmp_path: Path, edit: Callable[[Any], None]) -> Path:
    """A copy of `log`, changed by `edit`, written with inspect_ai's own writer."""
    from inspect_ai.log import read_eval_log, write_eval_log

    eval_log = read_eval_log(str(log))
    edit(eval_log)
    path = tmp_path / "edited.eval"
    write_eval_log(eval_log, str(path))
    return path


def _refused(result: Result, raw: Path, *lines: str) -> None:
    assert result.exit_code == 1, result.output
    for line in lines:
        assert line in result.output
    assert list((raw / "responses").iterdir()) == []


def test_import_inspect_fills_the_responses(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)
    result = _invoke("import", "inspect", str(sent[1]), "--into", str(raw))
    assert result.exit_code == 0, result.output
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    assert f"1 system(s) x {len(calls)} calls: {len(calls)} ok" in result.output
    table = pq.read_table(raw / "responses" / "alfa-1.parquet")
    assert table.column("item_id").to_pylist() == [call["item_id"] for call in calls]
    assert None not in table.column("latency_ms").to_pylist()
    again = _invoke("import", "inspect", str(sent[1]), "--into", str(raw))
    assert again.exit_code == 1
    assert "responses/alfa-1.parquet already exist(s)" in again.output


def test_the_status_comes_from_the_log(sent: tuple[Path, Path], tmp_path: Path) -> None:
    """An error, a time limit and a content-filter stop, as inspect_ai records them."""
    from inspect_ai.log import EvalError, EvalSampleLimit

    raw = _fresh(sent, tmp_path)

    def mark(log: Any) -> None:
        failed, timed_out, filtered = log.samples[:3]
        failed.error = EvalError(message="boom", traceback="", traceback_ansi="")
        timed_out.limit = EvalSampleLimit(type="time", limit=120)
        filtered.output.choices[0].stop_reason = "content_filter"

    log = _edited_log(sent[1], tmp_path, mark)
    result = _invoke("import", "inspect", str(log), "--into", str(raw))
    assert result.exit_code == 0, result.output
    calls = len((raw / "to_send.jsonl").read_text().splitlines())
    assert f"{calls - 3} ok, 1 refusal, 1 error, 1 timeout" in result.output


def test_refuses_a_sample_that_matches_no_item(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)

    def retarget(log: Any) -> None:
        log.samples[0].metadata["item_id"] = "i-999"

    log = _edited_log(sent[1], tmp_path, retarget)
    _refused(
        _invoke("import", "inspect", str(log), "--into", str(raw)),
        raw,
        "item 'i-999', run 1 matches no call of to_send.jsonl",
    )


def test_refuses_an_item_with_no_sample(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)

    def drop_first(log: Any) -> None:
        del log.samples[0]

    log = _edited_log(sent[1], tmp_path, drop_first)
    _refused(
        _invoke("import", "inspect", str(log), "--into", str(raw)),
        raw,
        "alfa-1: no answer to item 'i-001', run 1",
    )


def test_refuses_two_samples_for_one_call(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)
    log = str(sent[1])
    result = _invoke("import", "inspect", log, log, "--into", str(raw))
    _refused(result, raw, "a second answer of alfa-1 to item 'i-001', run 1")
    # One line per refused answer, not one per file.
    calls = len((raw / "to_send.jsonl").read_text().splitlines())
    assert f"{calls} problem(s) with the answers; nothing was written" in result.output


def test_refuses_a_log_of_another_task(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)

    def rename(log: Any) -> None:
        log.eval.task = "another_task"

    log = _edited_log(sent[1], tmp_path, rename)
    _refused(
        _invoke("import", "inspect", str(log), "--into", str(raw)),
        raw,
        "a log of task 'another_task', not of this round's task 'reportgen_tiny_round'",
    )


def test_refuses_a_model_that_is_no_system(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)

    def rename(log: Any) -> None:
        log.eval.model = "mockllm/zeta-9"

    log = _edited_log(sent[1], tmp_path, rename)
    _refused(
        _invoke("import", "inspect", str(log), "--into", str(raw)),
        raw,
        "model 'mockllm/zeta-9' is no api_identifier of models.csv",
    )
    named = _invoke("import", "inspect", str(log), "--into", str(raw), "--model-id", "zeta")
    _refused(named, raw, "model 'zeta' is no row of models.csv")
    ok = _invoke("import", "inspect", str(log), "--into", str(raw), "--model-id", "beta-2")
    assert ok.exit_code == 0, ok.output
    assert (raw / "responses" / "beta-2.parquet").is_file()


def test_without_inspect_ai_one_line_says_how_to_install_it(
    sent: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = _fresh(sent, tmp_path)
    monkeypatch.setitem(sys.modules, "inspect_ai.log", None)  # as if not installed
    result = _invoke("import", "inspect", str(sent[1]), "--into", str(raw))
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0, result.output
    assert "pip install 'reportgen[inspect]'" in result.output


def _plain_answers(raw: Path, **changes: object) -> list[dict[str, object]]:
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    return [
        {**call, "model_id": "alfa-mini", "raw_text": "Não sei.", "latency_ms": 120.5,
         "input_tokens": INPUT_TOKENS, **changes}
        for call in calls
    ]  # fmt: skip


def test_import_jsonl_and_csv(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)
    answers = _plain_answers(raw)
    (tmp_path / "answers.jsonl").write_text(
        "".join(json.dumps(answer, ensure_ascii=False) + "\n" for answer in answers)
    )
    result = _invoke("import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(raw))
    assert result.exit_code == 0, result.output
    table = pq.read_table(raw / "responses" / "alfa-mini.parquet")
    assert set(table.column("raw_text").to_pylist()) == {"Não sei."}
    assert set(table.column("latency_ms").to_pylist()) == {120.5}
    csv_lines = ["model_id,item_id,run,raw_text,status"] + [
        f'beta-2,{answer["item_id"]},1,"Sim, claro.",ok' for answer in answers
    ]
    (tmp_path / "answers.csv").write_text("\n".join(csv_lines) + "\n")
    result = _invoke("import", "jsonl", str(tmp_path / "answers.csv"), "--into", str(raw))
    assert result.exit_code == 0, result.output
    table = pq.read_table(raw / "responses" / "beta-2.parquet")
    assert set(table.column("raw_text").to_pylist()) == {"Sim, claro."}


def test_import_jsonl_names_each_bad_line(sent: tuple[Path, Path], tmp_path: Path) -> None:
    raw = _fresh(sent, tmp_path)
    answers = _plain_answers(raw)
    answers[1]["status"] = "crashed"
    answers[2]["run"] = "first"
    del answers[3]["raw_text"]
    lines = [json.dumps(answer) for answer in answers] + ["not json"]
    (tmp_path / "answers.jsonl").write_text("\n".join(lines) + "\n")
    result = _invoke("import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(raw))
    _refused(
        result,
        raw,
        "4 bad line(s); nothing was written",
        "line 2: status 'crashed': expected one of ok, refusal, error, timeout",
        "line 3: run 'first': expected an integer",
        "line 4: missing raw_text",
        f"line {len(lines)}: not valid JSON",
    )


def test_import_jsonl_into_a_counterfactual_round(tmp_path: Path) -> None:
    """A counterfactual round whose answers come through `import jsonl` freezes into the
    same archive as one whose responses files were filled in by hand."""
    from tests.archive_mutations import snapshot
    from tests.factories.counterfactual_raw import fill, render, write_battery
    from tests.factories.counterfactual_rounds import ROUND_ID

    write_battery(tmp_path / "battery")
    by_hand, imported = tmp_path / "by-hand", tmp_path / "imported"
    render(tmp_path / "battery", by_hand)
    render(tmp_path / "battery", imported)
    fill(by_hand)
    answers = [
        json.dumps({**json.loads(line), "model_id": path.stem}, ensure_ascii=False)
        for path in sorted((by_hand / "responses").glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    (tmp_path / "answers.jsonl").write_text("\n".join(answers) + "\n", encoding="utf-8")
    result = _invoke("import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(imported))
    assert result.exit_code == 0, result.output
    for name in ("extractions", "calibration.csv"):
        source = by_hand / name
        if source.is_dir():
            shutil.rmtree(imported / name)
            shutil.copytree(source, imported / name)
        else:
            shutil.copy(source, imported / name)
    for raw in (by_hand, imported):
        out = tmp_path / f"{raw.name}-archive" / ROUND_ID
        out.parent.mkdir()
        assert _invoke("freeze", str(raw), "--out", str(out)).exit_code == 0
    assert snapshot(tmp_path / "imported-archive" / ROUND_ID) == snapshot(
        tmp_path / "by-hand-archive" / ROUND_ID
    )


def test_a_counterfactual_answer_needs_its_time_of_call(tmp_path: Path) -> None:
    from tests.factories.counterfactual_raw import render, write_battery

    write_battery(tmp_path / "battery")
    raw = tmp_path / "raw"
    render(tmp_path / "battery", raw)
    calls = [json.loads(line) for line in (raw / "to_send.jsonl").read_text().splitlines()]
    answers = [{**call, "model_id": "bot-a", "raw_text": "Olá."} for call in calls]
    (tmp_path / "answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    result = _invoke("import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(raw))
    _refused(result, raw, "line 1: no called_at, system_prompt_sha256, tools_sha256, prompt_sha256")


def test_import_leaves_a_hand_filled_file_alone(tmp_path: Path) -> None:
    from tests.factories.counterfactual_raw import render, write_battery

    write_battery(tmp_path / "battery")
    raw = tmp_path / "raw"
    render(tmp_path / "battery", raw)
    (raw / "responses" / "bot-a.csv").write_text("filled by hand\n")
    answers = [
        {
            "model_id": "bot-a",
            "item_id": call["item_id"],
            "run": call["run"],
            "raw_text": "Olá.",
            "called_at": "2026-11-10T09:00:00Z",
            "system_prompt_sha256": "0" * 64,
            "tools_sha256": "0" * 64,
            "prompt_sha256": "0" * 64,
        }
        for call in map(json.loads, (raw / "to_send.jsonl").read_text().splitlines())
    ]
    (tmp_path / "answers.jsonl").write_text("".join(json.dumps(a) + "\n" for a in answers))
    result = _invoke("import", "jsonl", str(tmp_path / "answers.jsonl"), "--into", str(raw))
    assert result.exit_code == 1
    assert "responses/bot-a.csv already exist(s)" in result.output
    assert [path.name for path in (raw / "responses").iterdir()] == ["bot-a.csv"]


def test_freeze_refuses_a_call_that_did_not_send_its_item(tmp_path: Path) -> None:
    """Issue 21: a response recording the hash of another prompt than its item's (here
    the next call's) is refused at freeze, one line naming file, row and column; exit 1;
    nothing written. A malformed hash is refused at import."""
    from tests.factories.counterfactual_raw import fill, render, write_battery

    write_battery(tmp_path / "battery")
    raw = tmp_path / "raw"
    render(tmp_path / "battery", raw)
    fill(raw)
    path = raw / "responses" / "bot-a.jsonl"
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    rows[2]["prompt_sha256"] = rows[3]["prompt_sha256"]
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    out = tmp_path / "rounds" / "cf-mini"
    out.parent.mkdir()
    result = _invoke("freeze", str(raw), "--out", str(out))
    assert result.exit_code == 1, result.output
    problems = [line for line in result.output.splitlines() if line.startswith("  - ")]
    assert len(problems) == 1, result.output
    assert problems[0].startswith(
        f"  - responses/bot-a.parquet: row 3 ({rows[2]['item_id']}, run {rows[2]['run']}), "
        "prompt_sha256: "
    )
    assert "the call did not send its item" in problems[0]
    assert "Traceback" not in result.output
    assert list(out.parent.iterdir()) == []

    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        json.dumps({**rows[0], "model_id": "bot-b", "prompt_sha256": "xyz"}) + "\n", "utf-8"
    )
    fresh = tmp_path / "fresh"
    render(tmp_path / "battery", fresh)
    result = _invoke("import", "jsonl", str(answers), "--into", str(fresh))
    _refused(result, fresh, "line 1: prompt_sha256 'xyz': expected 64 lowercase hexadecimal")


def test_freeze_leaves_out_the_task_files_bytecode(tmp_path: Path) -> None:
    """`inspect eval RAW_DIR/inspect_task.py` imports the task file, and Python keeps its
    bytecode beside it: part of the raw round's collection, never of the frozen archive.
    Any other file there is still refused."""
    raw = make_raw_round(tmp_path)
    cache = raw / "__pycache__"
    cache.mkdir()
    (cache / "inspect_task.cpython-311.pyc").write_bytes(b"\xa7\r\r\n bytecode")
    (tmp_path / "rounds").mkdir()
    frozen = tmp_path / "rounds" / "tiny-round"
    result = _invoke("freeze", str(raw), "--out", str(frozen))
    assert result.exit_code == 0, result.output
    assert not (frozen / "__pycache__").exists()
    assert _invoke("verify", str(frozen)).exit_code == 0

    (cache / "helper.cpython-311.pyc").write_bytes(b"\xa7\r\r\n")
    refused = _invoke("freeze", str(raw), "--out", str(tmp_path / "rounds" / "again"))
    assert refused.exit_code == 1
    assert "__pycache__/helper.cpython-311.pyc: unexpected file" in refused.output
