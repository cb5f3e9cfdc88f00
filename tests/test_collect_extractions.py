"""`reportgen import extractions`: a counterfactual round's judged variable (`tom`),
scored by a mock judge in inspect_ai over the masked answers, added to the systems'
code extractions, freezes into the round filled by hand; the refusals through the CLI,
each leaving the extractions as they were."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from reportgen.cli import main
from tests.factories.counterfactual_raw import fill, write_battery
from tests.factories.counterfactual_rounds import ROUND_ID
from tests.support.inspect_runs import INSPECT_WARNINGS, collect_streams

pytestmark = INSPECT_WARNINGS
JUDGED = "tom"


def _invoke(*args: str) -> Result:
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def _ok(*args: str) -> str:
    result = _invoke(*args)
    assert result.exit_code == 0, result.output
    return result.output


def _judge_log(by_hand: Path, logs: Path) -> Path:
    """The judge's inspect_ai eval over every system's masked answers: the mock judge
    answers with the score the round filled by hand has, a scorer reads it."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import TaskState, generate

    samples, values = [], {}
    for path in sorted((by_hand / "extractions").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["variable_id"] != JUDGED:
                continue
            sample_id = f"{path.stem}-{row['item_id']}-{row['run']}"
            values[sample_id] = row["value"]
            samples.append(
                Sample(
                    input=row["input_text"],
                    id=sample_id,
                    metadata={"model_id": path.stem, "item_id": row["item_id"],
                              "run": row["run"], "variable_id": JUDGED},
                )
            )  # fmt: skip
    [value] = set(values.values())  # the factory scores every answer alike

    @scorer(metrics=[mean()])
    def judged_score() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            return Score(value=int(state.output.completion))

        return score

    def output(*_: object) -> Any:
        result = ModelOutput.from_content(model="judge", content=value)
        result.usage = ModelUsage(input_tokens=20, output_tokens=1, total_tokens=21)
        return result

    task = Task(dataset=samples, solver=generate(), scorer=judged_score(), name="judge_tom")
    model = get_model("mockllm/judge", custom_outputs=output, memoize=False)
    [log] = inspect_eval(task, model=model, log_dir=str(logs), display="none")
    assert log.status == "success", log.error
    collect_streams()
    return Path(log.location)


@pytest.fixture(scope="module")
def judged(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """(the round filled by hand, a raw round with its answers and code extractions
    only, the judge's log)."""
    pytest.importorskip("inspect_ai")
    tmp_path = tmp_path_factory.mktemp("cf")
    write_battery(tmp_path / "battery")
    by_hand, raw = tmp_path / "by-hand", tmp_path / "raw"
    _ok("render", str(tmp_path / "battery"), "--out", str(by_hand))
    fill(by_hand)
    shutil.copytree(by_hand, raw)
    for path in (raw / "extractions").glob("*.jsonl"):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        path.write_text(
            "".join(json.dumps(r) + "\n" for r in rows if r["variable_id"] != JUDGED), "utf-8"
        )
    return by_hand, raw, _judge_log(by_hand, tmp_path / "logs")


def _copy(judged: tuple[Path, Path, Path], tmp_path: Path) -> Path:
    raw = tmp_path / "raw"
    shutil.copytree(judged[1], raw)
    return raw


def test_the_judges_log_freezes_as_the_round_filled_by_hand(
    judged: tuple[Path, Path, Path], tmp_path: Path
) -> None:
    by_hand, _, log = judged
    raw = _copy(judged, tmp_path)
    assert "of 2 system(s)" in _ok("import", "extractions", str(log), "--into", str(raw))
    frozen, expected = tmp_path / "a" / ROUND_ID, tmp_path / "b" / ROUND_ID
    frozen.parent.mkdir()
    expected.parent.mkdir()
    _ok("freeze", str(raw), "--out", str(frozen))
    _ok("freeze", str(by_hand), "--out", str(expected))
    assert json.loads(_ok("summary", "--json", str(frozen))) == json.loads(
        _ok("summary", "--json", str(expected))
    )


def _refused(raw: Path, args: list[str], *expected: str) -> None:
    before = {p.name: p.read_bytes() for p in (raw / "extractions").iterdir()}
    result = _invoke("import", "extractions", *args, "--into", str(raw))
    assert result.exit_code != 0, result.output
    for text in expected:
        assert text in result.output
    assert {p.name: p.read_bytes() for p in (raw / "extractions").iterdir()} == before


def test_import_extractions_refusals(judged: tuple[Path, Path, Path], tmp_path: Path) -> None:
    from inspect_ai.log import read_eval_log, write_eval_log

    raw = _copy(judged, tmp_path)
    log = str(judged[2])

    def edited(edit: Any) -> str:
        eval_log = read_eval_log(log)
        assert eval_log.samples is not None
        edit(eval_log.samples[0])
        path = tmp_path / f"edited-{len(list(tmp_path.iterdir()))}.eval"
        write_eval_log(eval_log, str(path))
        return str(path)

    def stranger(sample: Any) -> None:
        sample.metadata = {**sample.metadata, "model_id": "bot-z"}

    def no_call(sample: Any) -> None:
        sample.metadata = {**sample.metadata, "item_id": "t9--x9"}

    def no_keys(sample: Any) -> None:
        sample.metadata = {}

    _refused(raw, [edited(stranger)], "model 'bot-z' is no row of models.csv")
    _refused(raw, [edited(no_call)], "item 't9--x9', run 1 matches no call of to_send.jsonl")
    _refused(raw, [edited(no_keys)], "no model_id, item_id, run and variable_id")
    _refused(raw, [log, "--variable-id", "reembolso"], "already has variable 'reembolso'")
    _ok("import", "extractions", log, "--into", str(raw))
    _refused(raw, [log], f"already has variable '{JUDGED}'")
