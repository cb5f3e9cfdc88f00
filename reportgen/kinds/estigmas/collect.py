"""Collecting an Estigmas round's answers: `reportgen render` and `reportgen import`.

The draft folder holds what freeze reads, without responses: round.json (no
parser_version), models.csv, stigmas.csv, structures.csv and the instrument's
items.parquet, whose prompts (the question and the final instruction) are sent as they
are, each once per system (a single run), in the items' order, with the round's
`generation` (temperature, seed, system_prompt). Imported answers become
responses/<model_id>.parquet without labels: freeze labels them with the parser.
An answer whose call failed (status error or timeout) keeps the text the client
recorded, usually empty, which the parser cannot read as an answer.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import MANIFEST_FILE, response_path
from reportgen.archive._parquet import parquet_bytes
from reportgen.collect.collected import Matched
from reportgen.collect.sending import (
    Call,
    Settings,
    read_draft,
    write_raw_round,
)
from reportgen.errors import InputError
from reportgen.kinds.estigmas.archive import NAME, STIGMAS_FILE, STRUCTURES_FILE

ITEMS_FILE = "items.parquet"
DRAFT_FILES = (MANIFEST_FILE, "models.csv", STIGMAS_FILE, STRUCTURES_FILE, ITEMS_FILE)


def render_draft(draft_dir: Path, raw_dir: Path, *, seed: int | None = None) -> str:
    """The raw round of the Estigmas draft at `draft_dir`, written to `raw_dir` (`seed` is
    not used: a single run in the items' order)."""
    data = read_draft(draft_dir, DRAFT_FILES, "an Estigmas draft holds")
    calls = _calls(draft_dir / ITEMS_FILE)
    generation = data.get("generation")
    generation = generation if isinstance(generation, dict) else {}
    prompt = generation.get("system_prompt")
    settings = Settings(
        round_id=str(data.get("round_id")),
        generation=generation,
        system_prompt=prompt if isinstance(prompt, str) and prompt else None,
    )
    write_raw_round(draft_dir, raw_dir, calls, settings)
    return f"{len(calls)} items, one call each per system"


def _calls(path: Path) -> list[Call]:
    try:
        table = pq.read_table(path, columns=["item_id", "language", "prompt"])
    except (OSError, pa.ArrowException, KeyError) as error:
        raise InputError(
            f"{path}: expected the instrument's items (item_id, language, prompt): {error}"
        ) from error
    rows = table.to_pylist()
    return [
        Call(order, str(row["item_id"]), 1, str(row["language"]), str(row["prompt"]))
        for order, row in enumerate(rows, start=1)
    ]


def collected_files(system: Matched, schema: pa.Schema) -> Mapping[str, bytes]:
    """One system's answers as responses/<model_id>.parquet (raw: no labels)."""
    columns: dict[str, list[object]] = {
        "item_id": [call.item_id for call, _ in system.answers],
        "model_id": [system.model_id] * len(system.answers),
        "run": [call.run for call, _ in system.answers],
        "raw_text": [answer.raw_text for _, answer in system.answers],
        "latency_ms": [answer.latency_ms for _, answer in system.answers],
    }
    table = pa.table({name: columns[name] for name in schema.names}, schema=schema)
    return {response_path(system.model_id): parquet_bytes(table)}


__all__ = ["NAME", "collected_files", "render_draft"]
