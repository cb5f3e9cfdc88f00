"""The tiny multidomain round (metrics §11) as a draft to render, and its answers as a
client would record them, so that a round collected through `reportgen import` and
frozen can be compared with the tiny archive itself."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq

from reportgen.demo.multidomain.tiny import write_tiny_round

COLLECTION = ("to_send.jsonl", "to_send.csv", "inspect_dataset.jsonl", "inspect_task.py")


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
