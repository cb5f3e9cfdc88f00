"""The tiny multidomain round (metrics §11) as a draft to render, and its answers as a
client would record them, so that a round collected through `reportgen import` and
frozen can be compared with the tiny archive itself."""

from __future__ import annotations

import csv
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reportgen.demo.multidomain.tiny import write_tiny_round


def multidomain_draft(tmp_path: Path) -> tuple[Path, Path]:
    """(draft, archive): the tiny round's archive, and a copy of it without its answers
    and checksums, as a team drafts a round (its jury and audit tables included)."""
    archive = write_tiny_round(tmp_path / "tiny")
    draft = tmp_path / "draft"
    shutil.copytree(archive, draft)
    shutil.rmtree(draft / "responses")
    (draft / "SHA256SUMS").unlink()
    return draft, archive


def recorded_answers(archive: Path) -> list[dict[str, Any]]:
    """Every response of the tiny archive as `reportgen import jsonl` reads it: what the
    client saw (a format violation is an `ok` call; freeze's extractor finds it)."""
    answers = []
    for path in sorted((archive / "responses").glob("*.parquet")):
        for row in pq.read_table(path).to_pylist():
            answers.append(
                {
                    "model_id": row["model_id"],
                    "item_id": row["item_id"],
                    "run": row["run"],
                    "raw_text": row["raw_text"],
                    "status": "ok" if row["status"] == "format_violation" else row["status"],
                    "latency_ms": row["latency_ms"],
                    "called_at": row["called_at"],
                    "cost": row["cost_micro"] / 1_000_000,
                    "model_name": row["snapshot"],
                }
            )
    return answers


def archive_responses(archive: Path, model_id: str) -> list[dict[str, Any]]:
    """The rows of one participant's response file, without the detected language
    (freeze leaves it null: no detector)."""
    rows = pq.read_table(archive / "responses" / f"{model_id}.parquet").to_pylist()
    return [{k: v for k, v in row.items() if k != "response_language"} for row in rows]


def prompts_of(archive: Path) -> dict[str, str]:
    """item_id -> prompt of the tiny round's items."""
    table = pq.read_table(archive / "items.parquet", columns=["item_id", "prompt"])
    return {row["item_id"]: row["prompt"] for row in table.to_pylist()}


def api_identifiers(archive: Path) -> dict[str, str]:
    """api_identifier -> model_id of the tiny round's participants."""
    with (archive / "models.csv").open(encoding="utf-8") as models:
        return {row["api_identifier"]: row["model_id"] for row in csv.DictReader(models)}


def participant_outputs(archive: Path) -> Callable[[str, Mapping[str, str]], Callable[..., Any]]:
    """inspect_ai mock outputs per participant, named by its api_identifier (`run_eval`'s
    `outputs`): each prompt
    answered with the tiny round's text, the provider's snapshot as the model's name, the
    call's cost, and a refusal as a content-filter stop, as a provider reports them."""
    from inspect_ai.model import ModelOutput, ModelUsage

    by_prompt: dict[str, dict[str, dict[str, Any]]] = {}
    prompts = prompts_of(archive)
    for answer in recorded_answers(archive):
        by_prompt.setdefault(answer["model_id"], {})[prompts[answer["item_id"]]] = answer

    model_ids = api_identifiers(archive)

    def outputs(system: str, _: Mapping[str, str]) -> Callable[..., Any]:
        def output(messages: Sequence[Any], *__: object) -> Any:
            answer = by_prompt[model_ids[system]][messages[-1].text]
            refused = answer["status"] == "refusal"
            result = ModelOutput.from_content(
                model=answer["model_name"],
                content=answer["raw_text"],
                stop_reason="content_filter" if refused else "stop",
            )
            result.usage = ModelUsage(
                input_tokens=11, output_tokens=3, total_tokens=14, total_cost=answer["cost"]
            )
            return result

        return output

    return outputs


def dated_like(logs: Sequence[Path], archive: Path) -> None:
    """Rewrite each log (with inspect_ai's own writer) as if run when the tiny round
    was: each sample's start and duration those of the tiny round's call, so that the
    calls lie within the round's dates and the latencies are the round's."""
    from inspect_ai.log import read_eval_log, write_eval_log

    calls = {
        (a["model_id"], a["item_id"], a["run"]): (a["called_at"], a["latency_ms"])
        for a in recorded_answers(archive)
    }
    for path in logs:
        log = read_eval_log(str(path))
        model_id = api_identifiers(archive)[str(log.eval.model).split("/", 1)[1]]
        for sample in log.samples or []:
            called_at, latency_ms = calls[
                (model_id, sample.metadata["item_id"], sample.metadata["run"])
            ]
            sample.started_at = called_at.replace("Z", "+00:00")
            sample.output.time = latency_ms / 1000
        write_eval_log(log, str(path))
