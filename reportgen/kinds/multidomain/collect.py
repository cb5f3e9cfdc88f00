"""`reportgen render` for a multidomain round: the calls to send, in the Art. 21 order.

The draft folder holds round.json (with the `multidomain` block: `runs`), models.csv and
the bank's items.parquet, whose test items carry their `order` (Art. 21: the seeded order,
variants after the bank items); the other tables of the draft (rubrics, judges) are
copied as they are. Calibration items are never sent. Every run presents the test items
in that order: run 1's pass, then run 2's, and so on. The round's system prompt is
declared by its hash only (`generation.system_prompt_sha256`): the task file sends none
unless given one at run time (`-T system_prompt_file=PATH`).

Importing the answers (status, extracted answers, costs, the jury) is not provided yet:
this kind has no freeze.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import MANIFEST_FILE, Problems, read_manifest_data
from reportgen.collect.sending import (
    Call,
    Settings,
    inspect_files,
    to_send_files,
    write_new_folder,
)
from reportgen.errors import InputError

ITEMS_FILE = "items.parquet"
DRAFT_FILES = (MANIFEST_FILE, "models.csv", ITEMS_FILE)
TO_SEND_COLUMNS = ("run_order", "item_id", "run", "language", "prompt", "raw_text", "latency_ms")
ITEM_COLUMNS = ["item_id", "language", "prompt", "order", "calibration"]


def render_draft(draft_dir: Path, raw_dir: Path) -> str:
    """The raw round of the multidomain draft at `draft_dir`, written to `raw_dir`."""
    problems = Problems()
    data = read_manifest_data(draft_dir, problems)
    problems.raise_if_any(str(draft_dir))
    missing = [name for name in DRAFT_FILES if not (draft_dir / name).is_file()]
    if missing:
        raise InputError(
            f"{draft_dir}: missing file(s) {', '.join(missing)}: a multidomain draft holds "
            f"{', '.join(DRAFT_FILES)} (and the bank's other tables)"
        )
    assert isinstance(data, dict)
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
    rows = [
        {**{c: getattr(call, c) for c in TO_SEND_COLUMNS[:5]}, "raw_text": None, "latency_ms": None}
        for call in calls
    ]
    files = {path.name: path.read_bytes() for path in sorted(draft_dir.iterdir()) if path.is_file()}
    files.update(to_send_files(rows, TO_SEND_COLUMNS))
    files.update(inspect_files(calls, settings))
    write_new_folder(raw_dir, files, ["responses"])
    return f"{len(items)} test items x {runs} runs = {len(calls)} calls per system"


def _test_items(path: Path) -> list[dict[str, str]]:
    """The test items in their Art. 21 `order` (calibration items left out)."""
    try:
        rows = pq.read_table(path, columns=ITEM_COLUMNS).to_pylist()
    except (OSError, pa.ArrowException, KeyError) as error:
        raise InputError(
            f"{path}: expected the bank's items ({', '.join(ITEM_COLUMNS)}): {error}"
        ) from error
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
