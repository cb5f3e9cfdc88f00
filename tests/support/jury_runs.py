"""The tiny multidomain round's jury, run offline with inspect_ai: one eval per judge
over the judge views, the judge a mock model that answers each view with its criterion
scores as the tiny round has them ("clarity: 4" lines), and a model-graded scorer that
reads them into one score per criterion (a dictionary value)."""

from __future__ import annotations

import contextlib
import csv
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from tests.support.inspect_runs import collect_streams


def judge_scores(archive: Path) -> dict[str, dict[tuple[str, str, int], dict[str, int]]]:
    """judge_id -> response -> criterion -> score, from jury and adjudications."""
    scores: dict[str, dict[tuple[str, str, int], dict[str, int]]] = {}
    for name in ("jury.parquet", "adjudications.parquet"):
        for row in pq.read_table(archive / name).to_pylist():
            key = (row["item_id"], row["model_id"], row["run"])
            scores.setdefault(row["judge_id"], {}).setdefault(key, {})[row["criterion_id"]] = row[
                "score"
            ]
    return scores


def run_judges(
    raw: Path, scores: Mapping[str, Mapping[tuple[str, str, int], Mapping[str, int]]], logs: Path
) -> dict[str, Path]:
    """One inspect_ai eval per judge (model `mockllm/<its api_identifier>`) of the
    responses it scores; judge_id -> its log."""
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import TaskState, generate

    with (raw / "judges.csv").open(encoding="utf-8") as judges:
        apis = {row["judge_id"]: row["api_identifier"] for row in csv.DictReader(judges)}
    views = {
        (row["item_id"], row["model_id"], row["run"]): row["view_text"] or ""
        for row in pq.read_table(raw / "judge_views.parquet").to_pylist()
    }

    @scorer(metrics={"*": [mean()]})
    def rubric_scores() -> Any:
        async def score(state: TaskState, target: Target) -> Score:
            pairs = (line.split(":", 1) for line in state.output.completion.splitlines())
            return Score(value={name.strip(): int(value) for name, value in pairs})

        return score

    paths: dict[str, Path] = {}
    for judge_id, responses in scores.items():
        by_view = {
            views[key]: "\n".join(f"{c}: {s}" for c, s in criteria.items())
            for key, criteria in responses.items()
        }

        def output(messages: Any, *_: object, by_view: Mapping[str, str] = by_view) -> Any:
            result = ModelOutput.from_content(model="judge", content=by_view[messages[-1].text])
            # Set, or the mock counts tokens with a tokenizer it downloads.
            result.usage = ModelUsage(input_tokens=20, output_tokens=6, total_tokens=26)
            return result

        task = Task(
            dataset=[
                Sample(
                    input=views[key],
                    id=f"{key[0]}-{key[1]}-{key[2]}",
                    metadata={"item_id": key[0], "model_id": key[1], "run": key[2]},
                )
                for key in responses
            ],
            solver=generate(),
            scorer=rubric_scores(),
            name="jury",
        )
        model = get_model(f"mockllm/{apis[judge_id]}", custom_outputs=output, memoize=False)
        with contextlib.chdir(raw):
            [log] = inspect_eval(task, model=model, log_dir=str(logs), display="none")
        assert log.status == "success", log.error
        paths[judge_id] = Path(log.location)
    collect_streams()
    return paths
