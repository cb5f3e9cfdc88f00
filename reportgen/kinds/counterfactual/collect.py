"""Imported answers of a counterfactual system as its filled responses file.

`reportgen import` hands each system's answers here; they become
responses/<model_id>.jsonl, to_send's calls filled in (raw.py describes the file):
`raw_text`, `called_at`, `latency_ms`, and the hashes of the system prompt, the tool
definitions, the user message and the context actually sent (an inspect_ai log gives
the system and user messages it sent; the task file `reportgen render` writes sends no
tools, so their hash is that of the empty bytes, and no context). An answer without its
time of call, or without the first three hashes, is refused: freeze needs them, and
verify checks the prompt's and context's against the item as rendered.
The extractions (extractions/<model_id>.jsonl) are filled in as before.
"""

from __future__ import annotations

import json
from pathlib import Path

from reportgen.archive import response_path
from reportgen.collect.collected import Matched
from reportgen.errors import InputError
from reportgen.kinds.counterfactual.raw import RESPONSE_COLUMNS


def collected_files(raw_dir: Path, system: Matched) -> dict[str, bytes]:
    """responses/<model_id>.jsonl of one system's answers, in run_order (the raw round at
    `raw_dir` is not read)."""
    lines, missing = [], []
    for call, answer in system.answers:
        row = {
            "item_id": call.item_id,
            "run": call.run,
            "run_order": call.run_order,
            "raw_text": answer.raw_text,
            "called_at": answer.called_at,
            "latency_ms": answer.latency_ms,
            "system_prompt_sha256": answer.system_prompt_sha256,
            "tools_sha256": answer.tools_sha256,
            "prompt_sha256": answer.prompt_sha256,
            "context_sha256": answer.context_sha256,
        }
        absent = [
            name
            for name in ("called_at", "system_prompt_sha256", "tools_sha256", "prompt_sha256")
            if row[name] is None
        ]
        if absent:
            missing.append(f"  - {answer.source}: no {', '.join(absent)}")
            continue
        lines.append(
            json.dumps({c.name: row[c.name] for c in RESPONSE_COLUMNS}, ensure_ascii=False)
        )
    if missing:
        head = (
            f"{system.model_id}: {len(missing)} answer(s) lack what a counterfactual round "
            "records of each call; nothing was written"
        )
        raise InputError("\n".join([head, *missing[:20]]))
    path = response_path(system.model_id).removesuffix(".parquet") + ".jsonl"
    return {path: "".join(line + "\n" for line in lines).encode("utf-8")}
