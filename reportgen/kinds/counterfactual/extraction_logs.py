"""A counterfactual round's extractions from inspect_ai logs (`reportgen import
extractions`): the outputs of a model extractor or judge, run with inspect_ai over the
masked answers.

Each sample reads one answer of one system: its metadata carries the `model_id`, the
`item_id` and `run` of the call, and the `variable_id` (or `--variable-id` names it for
the whole log); its input is the masked text the extractor or judge saw (`input_text`),
and its value is the sample's one score (a judge's scorer) or else the output text,
stripped. The rows are added to `extractions/<model_id>.jsonl` (a system's code
extractions may be there already); freeze checks each value against its variable. A
sample without those keys, of a system that is no row of models.csv, of no call of
to_send.jsonl, or whose (item, run, variable) the file already has are refused, one
line each, and nothing is written.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.atomic import write_atomic
from reportgen.collect.collected import round_models
from reportgen.collect.inspect_logs import readable_logs, refuse_if_any
from reportgen.collect.sending import read_calls
from reportgen.errors import InputError

EXTRACTIONS_DIR = "extractions"
Key = tuple[str, int, str]  # (item_id, run, variable_id)


def import_extractions(paths: Sequence[Path], raw_dir: Path, *, variable_id: str | None) -> str:
    """Add the logs' extractions to RAW_DIR/extractions/<model_id>.jsonl; InputError with
    one line per refusal, nothing written."""
    lines: list[str] = []
    logs = readable_logs(paths, lines)
    models = set(round_models(raw_dir))
    calls = {(call.item_id, call.run) for call in read_calls(raw_dir)}
    existing: dict[str, list[dict[str, Any]]] = {}
    new: dict[str, list[dict[str, Any]]] = {}
    for path, log in logs:
        for sample in log.samples or []:
            row = _row(sample, variable_id)
            source = f"{path}, sample {sample.id!r}"
            if isinstance(row, str):
                lines.append(f"{source}: {row}")
                continue
            model_id = str(sample.metadata["model_id"])
            if model_id not in models:
                lines.append(f"{source}: model {model_id!r} is no row of models.csv")
                continue
            if (row["item_id"], row["run"]) not in calls:
                lines.append(
                    f"{source}: item {row['item_id']!r}, run {row['run']} matches no call "
                    "of to_send.jsonl"
                )
                continue
            if model_id not in existing:
                existing[model_id] = _existing(raw_dir, model_id)
            taken = {_key(r) for r in existing[model_id] + new.get(model_id, [])}
            if _key(row) in taken:
                lines.append(
                    f"{source}: {model_id} already has variable {row['variable_id']!r} of "
                    f"item {row['item_id']!r}, run {row['run']}"
                )
                continue
            new.setdefault(model_id, []).append(row)
    refuse_if_any(raw_dir, lines, "the logs")
    for model_id, rows in new.items():
        text = "".join(
            json.dumps(row, ensure_ascii=False) + "\n" for row in existing[model_id] + rows
        )
        (raw_dir / EXTRACTIONS_DIR).mkdir(exist_ok=True)
        write_atomic(raw_dir / EXTRACTIONS_DIR / f"{model_id}.jsonl", text)
    return f"{sum(len(rows) for rows in new.values())} extraction(s) of {len(new)} system(s)"


def _key(row: Mapping[str, Any]) -> Key:
    return (str(row["item_id"]), int(row["run"]), str(row["variable_id"]))


def _row(sample: Any, variable_id: str | None) -> dict[str, Any] | str:
    metadata = sample.metadata or {}
    item_id, run, model_id = (metadata.get(k) for k in ("item_id", "run", "model_id"))
    variable = variable_id or metadata.get("variable_id")
    if not all(isinstance(v, str) for v in (item_id, model_id, variable)) or (
        not isinstance(run, int) or isinstance(run, bool)
    ):
        return "no model_id, item_id, run and variable_id in its metadata (or --variable-id)"
    scores = list((sample.scores or {}).values())
    if len(scores) > 1:
        return f"{len(scores)} scores: expected one (the variable's value) or none"
    value = _text(scores[0].value) if scores else (sample.output.completion or "").strip()
    return {
        "item_id": item_id,
        "run": run,
        "variable_id": variable,
        "value": value,
        "input_text": sample.input if isinstance(sample.input, str) else _last_text(sample),
    }


def _text(value: object) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def _last_text(sample: Any) -> str:
    texts = [message.text for message in sample.input if message.role == "user"]
    return texts[-1] if texts else ""


def _existing(raw_dir: Path, model_id: str) -> list[dict[str, Any]]:
    folder = raw_dir / EXTRACTIONS_DIR
    if (folder / f"{model_id}.csv").is_file():
        raise InputError(
            f"{folder / f'{model_id}.csv'}: extractions filled as CSV; imported ones are added "
            "to a JSON lines file (write that system's as extractions/<model_id>.jsonl)"
        )
    path = folder / f"{model_id}.jsonl"
    if not path.is_file():
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError as error:
            raise InputError(f"{path}: line {number}: not JSON ({error})") from error
    return rows
