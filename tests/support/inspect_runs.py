"""A round's calls sent with inspect_ai, offline: the raw round `reportgen render` wrote,
run by inspect_ai's `eval` against its built-in mock provider, whose outputs are set per
sample (the answer each system gives to each prompt), so that the scores are known.

The mock's token counts are set too: without them the mock would count tokens with a
tokenizer it downloads.
"""

from __future__ import annotations

import contextlib
import gc
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from tests.factories import make_raw_round

# What inspect_ai itself warns of while it runs, which the suite's warnings-as-errors
# would turn into failed samples: a deprecated argument it passes to tenacity (its retry
# library), and the async streams it leaves to the garbage collector after an eval.
INSPECT_WARNINGS = [
    pytest.mark.filterwarnings("ignore:The 'initial' parameter is deprecated:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::ResourceWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]
# An answer's usage as the mock reports it.
INPUT_TOKENS, OUTPUT_TOKENS, COST = 11, 3, 0.0007


def estigmas_draft(tmp_path: Path) -> tuple[Path, dict[str, dict[str, str]]]:
    """The tiny Estigmas round as a draft (no responses), and the answer each system
    gave in the tiny round, by model_id then prompt."""
    raw = make_raw_round(tmp_path, name="draft")
    answers: dict[str, dict[str, str]] = {}
    prompts = {
        row["item_id"]: row["prompt"]
        for row in pq.read_table(raw / "items.parquet", columns=["item_id", "prompt"]).to_pylist()
    }
    for path in sorted((raw / "responses").glob("*.parquet")):
        rows = pq.read_table(path, columns=["item_id", "raw_text"]).to_pylist()
        answers[path.stem] = {prompts[row["item_id"]]: row["raw_text"] for row in rows}
    shutil.rmtree(raw / "responses")
    return raw, answers


def mock_outputs(answers: Mapping[str, str]) -> Callable[..., Any]:
    """The mock model's `custom_outputs`: the answer to the sample's prompt."""
    from inspect_ai.model import ModelOutput, ModelUsage

    def output(messages: Sequence[Any], *_: object) -> Any:
        result = ModelOutput.from_content(model="mockllm", content=answers[messages[-1].text])
        result.usage = ModelUsage(
            input_tokens=INPUT_TOKENS,
            output_tokens=OUTPUT_TOKENS,
            total_tokens=INPUT_TOKENS + OUTPUT_TOKENS,
            total_cost=COST,
        )
        return result

    return output


def run_eval(
    raw_dir: Path,
    systems: Mapping[str, Mapping[str, str]],
    log_dir: Path,
    task_args: Mapping[str, str] | None = None,
    outputs: Callable[[str, Mapping[str, str]], Callable[..., Any]] | None = None,
) -> list[Path]:
    """inspect_ai's eval of RAW_DIR/inspect_task.py, one mock model per system (named
    `mockllm/<system>`, answering with `systems[system]`, or with what
    `outputs(system, answers)` returns); the logs' paths, in order.
    Skips the test when inspect_ai (the `inspect` extra) is not installed."""
    pytest.importorskip("inspect_ai")
    from inspect_ai import eval as inspect_eval
    from inspect_ai.model import get_model

    models = [
        get_model(
            f"mockllm/{name}",
            custom_outputs=(outputs or (lambda _, a: mock_outputs(a)))(name, answers),
            memoize=False,
        )
        for name, answers in systems.items()
    ]
    # As a team runs it, `inspect eval inspect_task.py` in the raw round (inspect_ai
    # resolves a task file's path as a relative pattern).
    with contextlib.chdir(raw_dir):
        logs = inspect_eval(
            "inspect_task.py",
            model=models,
            log_dir=str(log_dir),
            display="none",
            task_args=dict(task_args or {}),
        )
    failed = [
        (log.eval.model, log.error and log.error.message) for log in logs if log.status != "success"
    ]
    assert not failed, failed
    collect_streams()
    return [Path(log.location) for log in logs]


def collect_streams() -> None:
    """Collect the async streams inspect_ai leaves to the garbage collector now, while
    the test that ran the eval ignores their warnings (INSPECT_WARNINGS), rather than
    during a later test, which would fail on them."""
    gc.collect()
