"""`reportgen render` for a multidomain round: the calls to send, in the Art. 21 order.

The draft folder holds round.json (with the `multidomain` block: `runs`), models.csv and
the bank's items.parquet, whose test items carry their `order` (Art. 21: the seeded order,
variants after the bank items); the other tables of the draft (rubrics, judges) are
copied as they are. Calibration items are never sent. Every run presents the test items
in that order: run 1's pass, then run 2's, and so on. The round's system prompt is
declared by its hash only (`generation.system_prompt_sha256`): the task file sends none
unless given one at run time (`-T system_prompt_file=PATH`).

`reportgen import` hands each participant's answers to `collected_files`: they become
responses/<model_id>.parquet in the raw form RAW_RESPONSES_SCHEMA gives (the output
text, status, latency, cost, snapshot and time of each call); `reportgen freeze`
(freeze.py) adds what the archive derives from them. A call that failed (error,
timeout) keeps no text (multidomain-round.md's status table); the snapshot is the model
name the client recorded, else models.csv's `snapshot`; the cost, in millionths of the
round's currency, is 0 when the client recorded none. An answer without its time of
call is refused: the archive dates every call.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import (
    MANIFEST_FILE,
    MODELS_FILE,
    Problems,
    response_path,
)
from reportgen.archive._csv import MODELS_HEADER, read_csv_records
from reportgen.archive._parquet import parquet_bytes
from reportgen.collect.collected import Matched
from reportgen.collect.sending import (
    Call,
    Settings,
    read_draft,
    write_raw_round,
)
from reportgen.errors import InputError

ITEMS_FILE = "items.parquet"
DRAFT_FILES = (MANIFEST_FILE, "models.csv", ITEMS_FILE)
ITEM_COLUMNS = ["item_id", "language", "prompt", "order", "calibration"]
# responses/<model_id>.parquet before freeze: what the client recorded of each call.
_RAW_FIELDS: list[pa.Field[Any]] = [
    pa.field("item_id", pa.string(), nullable=False),
    pa.field("model_id", pa.string(), nullable=False),
    pa.field("run", pa.int64(), nullable=False),
    pa.field("raw_text", pa.string(), nullable=True),
    pa.field("latency_ms", pa.float64(), nullable=True),
    pa.field("status", pa.string(), nullable=False),
    pa.field("cost_micro", pa.int64(), nullable=False),
    pa.field("snapshot", pa.string(), nullable=False),
    pa.field("called_at", pa.string(), nullable=False),
]
RAW_RESPONSES_SCHEMA = pa.schema(_RAW_FIELDS)


def render_draft(draft_dir: Path, raw_dir: Path, *, seed: int | None = None) -> str:
    """The raw round of the multidomain draft at `draft_dir`, written to `raw_dir`
    (`seed` is not used: the order is the bank's, Art. 21)."""
    data = read_draft(
        draft_dir, DRAFT_FILES, "a multidomain draft holds", " (and the bank's other tables)"
    )
    block = data.get("multidomain")
    runs = block.get("runs") if isinstance(block, dict) else None
    if not isinstance(runs, int) or isinstance(runs, bool) or runs < 1:
        raise InputError(
            f"{draft_dir / MANIFEST_FILE}: multidomain.runs: expected an integer >= 1 "
            f"(the executions per participant), got {runs!r}"
        )
    items = _test_items(draft_dir / ITEMS_FILE)
    calls = [
        Call((run - 1) * len(items) + position, item["item_id"], run, item["language"],
             item["prompt"])
        for run in range(1, runs + 1)
        for position, item in enumerate(items, start=1)
    ]  # fmt: skip
    generation = data.get("generation")
    settings = Settings(
        round_id=str(data.get("round_id")),
        generation=generation if isinstance(generation, dict) else {},
        system_prompt=None,
    )
    write_raw_round(draft_dir, raw_dir, calls, settings)
    return f"{len(items)} test items x {runs} runs = {len(calls)} calls per system"


def bank_items(path: Path, columns: list[str]) -> list[dict[str, Any]]:
    """The `columns` of the bank's items.parquet at `path`, a dict per row; InputError
    naming the file and the columns when it cannot be read so."""
    try:
        rows: list[dict[str, Any]] = pq.read_table(path, columns=columns).to_pylist()
    except (OSError, pa.ArrowException, KeyError) as error:
        raise InputError(
            f"{path}: expected the bank's items ({', '.join(columns)}): {error}"
        ) from error
    return rows


def _test_items(path: Path) -> list[dict[str, str]]:
    """The test items in their Art. 21 `order` (calibration items left out)."""
    rows = bank_items(path, ITEM_COLUMNS)
    tests = [row for row in rows if not row["calibration"]]
    unordered = [row["item_id"] for row in tests if row["order"] is None]
    if unordered:
        raise InputError(
            f"{path}: test item(s) without an order: {', '.join(unordered[:5])} "
            "(Art. 21: every test item has its position in the seeded order)"
        )
    return [
        {key: str(row[key]) for key in ("item_id", "language", "prompt")}
        for row in sorted(tests, key=lambda row: (row["order"], row["item_id"]))
    ]


def collected_files(raw_dir: Path, system: Matched) -> dict[str, bytes]:
    """responses/<model_id>.parquet (RAW_RESPONSES_SCHEMA) of one participant's answers,
    in run_order; InputError naming every answer without its time of call."""
    declared = _declared_snapshot(raw_dir, system.model_id)
    rows: dict[str, list[object]] = {name: [] for name in RAW_RESPONSES_SCHEMA.names}
    missing = []
    for call, answer in system.answers:
        if answer.called_at is None:
            missing.append(f"  - {answer.source}: no called_at (the time of the call)")
            continue
        failed = answer.status in ("error", "timeout")
        values = {
            "item_id": call.item_id,
            "model_id": system.model_id,
            "run": call.run,
            "raw_text": None if failed else answer.raw_text,
            "latency_ms": answer.latency_ms,
            "status": answer.status,
            "cost_micro": 0 if answer.cost is None else round(answer.cost * 1_000_000),
            "snapshot": answer.model_name or declared,
            "called_at": answer.called_at[:19] + "Z",
        }
        for name, value in values.items():
            rows[name].append(value)
    if missing:
        head = (
            f"{system.model_id}: {len(missing)} answer(s) without their time of call, "
            "which a multidomain round records; nothing was written"
        )
        raise InputError("\n".join([head, *missing[:20]]))
    table = pa.table(rows, schema=RAW_RESPONSES_SCHEMA)
    return {response_path(system.model_id): parquet_bytes(table)}


def _declared_snapshot(raw_dir: Path, model_id: str) -> str:
    problems = Problems()
    records = read_csv_records(
        raw_dir / MODELS_FILE, MODELS_FILE, MODELS_HEADER, problems, open_tail=True
    )
    problems.raise_if_any(str(raw_dir))
    return next(
        (
            record.get("snapshot", "")
            for _, record in records or []
            if record["model_id"] == model_id
        ),
        "",
    )
