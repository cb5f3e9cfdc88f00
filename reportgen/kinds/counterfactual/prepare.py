"""`reportgen counterfactual render`: a battery folder expanded into a raw round.

TEMPLATES_DIR holds round.json (the draft, with the `counterfactual` block), models.csv
and the battery files. The battery is read with the kind's own table readers and checked
across tables (refusals 15-28's battery rules); then every (template, variant) cell is
rendered (battery.py) into items.parquet, and every item x run is listed in to_send with
its `run_order`: run r is one pass over all items in a seeded shuffled order (items
sorted by sha256("<seed>:<r>:<item_id>")), so that every group is collected side by side
with the others (refusal 35). Nothing is written when anything is wrong.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from reportgen.archive import MANIFEST_FILE, MODELS_FILE, Problems, read_manifest_data
from reportgen.archive._reader import read_csv_table
from reportgen.archive._writer import staging_dir, write_file
from reportgen.collect.sending import Call, Settings, inspect_files
from reportgen.kinds import TableRead, TableSpec
from reportgen.kinds.counterfactual.battery import Battery, render_items
from reportgen.kinds.counterfactual.model import (
    NAME,
    Attribute,
    Group,
    Item,
    Rewrite,
    Round,
    Template,
    Variable,
    Variant,
)
from reportgen.kinds.counterfactual.raw import TO_SEND, TO_SEND_COLUMNS
from reportgen.kinds.counterfactual.schemas import ITEMS_FILE, ITEMS_SCHEMA
from reportgen.kinds.counterfactual.terms import BATTERY_FILES
from reportgen.kinds.counterfactual.write import table_bytes


@dataclass(frozen=True)
class BatteryTables:
    """The battery's rows as read (what `archive_battery.check_battery` reads of a round)."""

    attributes: tuple[Attribute, ...]
    groups: tuple[Group, ...]
    variants: tuple[Variant, ...]
    templates: tuple[Template, ...]
    rewrites: tuple[Rewrite, ...]
    variables: tuple[Variable, ...]

    @property
    def battery(self) -> Battery:
        return Battery(self.attributes, self.groups, self.variants, self.templates, self.rewrites)


def read_battery(folder: Path, problems: Problems) -> BatteryTables | None:
    """The battery files of `folder`, each row checked by the kind's readers and the
    tables checked against each other; None after reporting every problem."""
    from reportgen.kinds import get_kind
    from reportgen.kinds.counterfactual.archive_battery import check_battery

    mark = problems.mark()
    read: dict[str, TableRead] = {}
    # The kind's tables through the registry, not kind.py (which reaches the site's
    # pages): the review app reads a raw round with this code and never imports render.
    for spec in get_kind(NAME).tables:
        if isinstance(spec, TableSpec) and spec.name in BATTERY_FILES:
            read[spec.name] = _read_table(folder, spec, read, problems)
    if not problems.ok_since(mark):
        return None
    tables = BatteryTables(
        *(read[name].rows for name in _FIELD_FILES),  # the dataclass's field order
    )
    # check_battery reads only the battery tables of a round (attributes, groups,
    # variants, templates, rewrites): BatteryTables has them all.
    check_battery(cast(Round, tables), problems)
    return tables if problems.ok_since(mark) else None


_FIELD_FILES = (
    "attributes.csv",
    "groups.csv",
    "variants.csv",
    "templates.csv",
    "rewrites.csv",
    "variables.csv",
)


def _read_table(
    folder: Path, spec: TableSpec, read: Mapping[str, TableRead], problems: Problems
) -> TableRead:
    """One CSV table, as the core reads a kind table (presence, header tail, rows)."""
    path = folder / spec.name
    found = problems.in_file(spec.name)
    if spec.presence is not None:
        wanted = spec.presence(read)
        if wanted is False and path.exists():
            found.add("", f"present although not allowed: {spec.presence_rule}")
        elif wanted is True and not path.exists():
            found.add("", f"missing file: {spec.presence_rule}")
        if not path.exists() or wanted is False:
            return TableRead((), ())
    return read_csv_table(path, spec, read, problems)


def repetitions_of(data: object, problems: Problems) -> int | None:
    """counterfactual.repetitions of a draft round.json (an integer >= 2)."""
    block = data.get("counterfactual") if isinstance(data, dict) else None
    value = block.get("repetitions") if isinstance(block, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or value < 2:
        problems.add(
            MANIFEST_FILE,
            "counterfactual.repetitions",
            f"expected an integer >= 2 (the runs per cell), got {value!r}",
        )
        return None
    return value


def send_order(items: Sequence[Item], repetitions: int, seed: int) -> list[tuple[Item, int]]:
    """Every (item, run) in collection order: run 1's pass, then run 2's, ..."""

    def rank(run: int, item: Item) -> str:
        return hashlib.sha256(f"{seed}:{run}:{item.item_id}".encode()).hexdigest()

    return [
        (item, run)
        for run in range(1, repetitions + 1)
        for item in sorted(items, key=lambda item: (rank(run, item), item.item_id))
    ]


def to_send_rows(items: Sequence[Item], repetitions: int, seed: int) -> list[dict[str, object]]:
    """to_send's rows: what to send, in order; the columns to fill in are empty."""
    return [
        {
            "run_order": order,
            "item_id": item.item_id,
            "run": run,
            "template_id": item.template_id,
            "attribute_id": item.attribute_id,
            "variant_id": item.variant_id,
            "language": item.language,
            "prompt": item.prompt,
            "context": item.context,
            "raw_text": None,
            "called_at": None,
            "latency_ms": None,
            "system_prompt_sha256": None,
            "tools_sha256": None,
            "prompt_sha256": None,
            "context_sha256": None,
        }
        for order, (item, run) in enumerate(send_order(items, repetitions, seed), start=1)
    ]


def _csv_field(value: object) -> str:
    return "" if value is None else str(value)


def to_send_files(rows: Sequence[Mapping[str, object]]) -> dict[str, bytes]:
    """to_send.jsonl and to_send.csv (a prompt may span lines: CSV quotes it)."""
    lines = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
    buffer = [[_csv_field(row[c]) for c in TO_SEND_COLUMNS] for row in rows]
    return {
        f"{TO_SEND}.jsonl": lines.encode("utf-8"),
        f"{TO_SEND}.csv": _multiline_csv(TO_SEND_COLUMNS, buffer),
    }


def _multiline_csv(header: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    out = io.StringIO(newline="")
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return out.getvalue().encode("utf-8")


def _inspect_files(
    rows: Sequence[Mapping[str, object]], data: Mapping[str, object]
) -> dict[str, bytes]:
    """The inspect_ai dataset and task file of to_send's calls: no system instruction in
    the file (each system's prompt is its own, private: `-T system_prompt_file=PATH`)."""
    calls = [
        Call(
            cast(int, row["run_order"]),
            str(row["item_id"]),
            cast(int, row["run"]),
            str(row["language"]),
            str(row["prompt"]),
        )
        for row in rows
    ]
    cells = {
        (str(row["item_id"]), cast(int, row["run"])): {
            name: row[name] for name in ("template_id", "attribute_id", "variant_id", "context")
        }
        for row in rows
    }
    generation = data.get("generation")
    settings = Settings(
        round_id=str(data.get("round_id")),
        generation=generation if isinstance(generation, dict) else {},
        system_prompt=None,
    )
    return inspect_files(calls, settings, cells)


def render_raw_round(templates_dir: Path, raw_dir: Path, *, seed: int | None) -> str:
    """Write the raw round of the battery at `templates_dir` into `raw_dir` (which must
    not exist); ArchiveError listing every problem, nothing written. Returns a note."""
    problems = Problems()
    data = read_manifest_data(templates_dir, problems)
    repetitions = repetitions_of(data, problems) if data is not None else None
    tables = read_battery(templates_dir, problems)
    if not (templates_dir / MODELS_FILE).is_file():
        problems.add(MODELS_FILE, "", "missing file: one row per system under test")
    problems.raise_if_any(str(templates_dir))
    assert tables is not None
    assert repetitions is not None
    assert isinstance(data, dict)
    if seed is None:
        generation = data.get("generation")
        given = generation.get("seed") if isinstance(generation, dict) else None
        seed = given if isinstance(given, int) and not isinstance(given, bool) else 0
    items = render_items(tables.battery)
    files = {
        name: (templates_dir / name).read_bytes()
        for name in (MANIFEST_FILE, MODELS_FILE, *BATTERY_FILES)
        if (templates_dir / name).is_file()
    }
    files[ITEMS_FILE] = table_bytes(items, ITEMS_SCHEMA)
    rows = to_send_rows(items, repetitions, seed)
    files.update(to_send_files(rows))
    files.update(_inspect_files(rows, data))
    with staging_dir(raw_dir) as staging:
        for rel, content in files.items():
            write_file(staging / rel, content)
        for folder in ("responses", "extractions"):
            (staging / folder).mkdir()
        staging.rename(raw_dir)
    calls = len(items) * repetitions
    return f"{len(items)} items x {repetitions} runs = {calls} calls per system, seed {seed}"
