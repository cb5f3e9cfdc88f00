"""`EstigmasKind`: the `estigmas` kind's hooks into the shared core.

The archive hooks check the Estigmas item columns (stigma, structure, style, gender,
English pairs) and the responses' frozen `label`, and build the typed `Round`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from reportgen.archive import ArchiveContent, FileProblems
from reportgen.kinds import TableRead
from reportgen.kinds._adapters import AdaptedKind, ArchiveAdapters, core_round_fields, table_fields
from reportgen.kinds.estigmas import archive as estigmas_archive
from reportgen.kinds.estigmas.model import (
    GENDERS,
    LABELS,
    STYLES,
    Item,
    ModelResponses,
    Round,
)
from reportgen.kinds.estigmas.stages import STAGES, TITLE
from reportgen.model import Model

if TYPE_CHECKING:
    from reportgen.collect.collected import Matched

_ITEM_COLUMNS: tuple[pa.Field[Any], ...] = (
    pa.field("stigma_id", pa.string()),
    pa.field("structure_id", pa.string(), nullable=False),
    pa.field("style", pa.string(), nullable=False),
    pa.field("target_gender", pa.string(), nullable=False),
    pa.field("pair_item_id", pa.string()),
)
_ITEM_FIELDS = (
    "item_id",
    "stigma_id",
    "structure_id",
    "style",
    "target_gender",
    "language",
    "pair_item_id",
    "prompt",
    "canary",
    "published",
)


def build_round(content: ArchiveContent) -> Round:
    """The typed Estigmas round from the core's read."""
    return Round(
        **core_round_fields(content, model_responses),
        **table_fields(content),
    )


def check_responses(table: pa.Table, where: Callable[[int], str], found: FileProblems) -> None:
    """The frozen `label` of each response (a raw round has none yet)."""
    if "label" not in table.column_names:
        return
    labels = table.column("label").combine_chunks()
    positions = pc.index_in(labels, value_set=pa.array(LABELS))
    bad_rows = np.flatnonzero(positions.is_null().to_numpy(zero_copy_only=False))
    expected = " | ".join(LABELS)
    entries = [
        (where(r), f"label {labels[r].as_py()!r} is not one of {expected}")
        for r in bad_rows.tolist()
    ]
    found.rows(entries, "rows with an unknown label")


ARCHIVE = ArchiveAdapters(
    item_columns=_ITEM_COLUMNS,
    response_columns=(pa.field("label", pa.string(), nullable=False),),
    parse_manifest=lambda core, block, data, found, raw: estigmas_archive.parse_manifest(
        core, block, data, found, raw=raw
    ),
    manifest_block=estigmas_archive.manifest_block,
    check_items=lambda items, tables, found: check_items(items, tables, found),
    check_responses=check_responses,
    build_round=build_round,
)


class EstigmasKind(AdaptedKind):
    """The Estigmas benchmark (variants `full` and `continuous`)."""

    name = estigmas_archive.NAME
    titles = TITLE
    stages = STAGES
    archive = ARCHIVE
    legacy_formats = (estigmas_archive.LEGACY_FORMAT,)
    tables = estigmas_archive.TABLES

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        # A raw round (before freeze) has no labels: freeze adds them.
        return () if raw else self.archive.response_columns

    def upgrade_manifest(self, data: dict[str, object]) -> tuple[dict[str, object], dict[str, str]]:
        return estigmas_archive.upgrade_manifest(data)

    def collected_files(self, raw_dir: Path, system: Matched) -> dict[str, bytes]:
        from reportgen.archive._parquet import response_schema
        from reportgen.kinds.estigmas.collect import collected_files

        return dict(collected_files(system, response_schema(self, version=2, raw=True)))

    def add_model(self, round_dir: Path, responses_file: Path, model: Model) -> None:
        from reportgen.kinds.estigmas.freeze import add_model

        add_model(round_dir, responses_file, model)


def model_responses(model_id: str, table: pa.Table) -> ModelResponses:
    """One model's aligned response table as columns; `raw_text` is () when not read."""
    labels = table.column("label").combine_chunks()
    codes = pc.index_in(labels, value_set=pa.array(LABELS)).to_numpy().astype(np.int8)
    codes.flags.writeable = False
    return ModelResponses(
        model_id=model_id,
        raw_text=estigmas_archive.column_texts(table),
        label_codes=codes,
        latency_ms=estigmas_archive.column_latencies(table),
    )


def check_items(
    table: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
) -> tuple[Item, ...]:
    """The items (every row) after reporting the Estigmas checks of each row."""
    columns = {name: table.column(name).to_pylist() for name in _ITEM_FIELDS}
    items = tuple(Item(*values) for values in zip(*columns.values(), strict=True))
    stigma_ids = tables[estigmas_archive.STIGMAS_FILE].ids("stigma_id")
    structure_ids = tables[estigmas_archive.STRUCTURES_FILE].ids("structure_id")
    issues: dict[str, list[tuple[str, str]]] = {}
    by_id: dict[str, Item] = {}
    for item in items:
        by_id.setdefault(item.item_id, item)
    for number, item in enumerate(items, start=1):
        for field, message in _item_problems(item, stigma_ids, structure_ids, by_id):
            issues.setdefault(field, []).append((f"row {number} (item {item.item_id!r})", message))
    for field, entries in issues.items():
        found.rows(entries, f"rows with a bad {field}")
    return items


def _item_problems(
    item: Item,
    stigma_ids: frozenset[str] | None,
    structure_ids: frozenset[str] | None,
    by_id: Mapping[str, Item],
) -> list[tuple[str, str]]:
    """(field, message) for each problem of one item. Unknown-id checks are skipped when
    stigma_ids or structure_ids is None (their table could not be read)."""
    found: list[tuple[str, str]] = []
    for field, allowed in (("style", STYLES), ("target_gender", GENDERS)):
        value = getattr(item, field)
        if value not in allowed:
            found.append((field, f"{field} must be one of {allowed}, got {value!r}"))
    if item.canary is None:
        found.append(("canary", "canary must not be empty (an Estigmas item has one)"))
    if not item.structure_id.strip():
        found.append(("structure_id", "structure_id must not be empty"))
    elif structure_ids is not None and item.structure_id not in structure_ids:
        found.append(("structure_id", f"unknown structure_id {item.structure_id!r}"))
    if item.style == "base" and item.stigma_id is not None:
        found.append(("stigma_id", "a base control must have a null stigma_id"))
    elif item.style != "base" and item.stigma_id is None:
        found.append(("stigma_id", f"a {item.style!r} item needs a stigma_id"))
    elif stigma_ids is not None and item.stigma_id is not None and item.stigma_id not in stigma_ids:
        found.append(("stigma_id", f"unknown stigma_id {item.stigma_id!r}"))
    pair_problem = _pair_problem(item, by_id)
    if pair_problem:
        found.append(("pair_item_id", pair_problem))
    return found


def _pair_problem(item: Item, by_id: Mapping[str, Item]) -> str | None:
    if item.language != "en":
        return "a pt-BR item must have a null pair_item_id" if item.pair_item_id else None
    if item.pair_item_id is None:
        return "an en item needs the pair_item_id of the pt-BR item it realises"
    pair = by_id.get(item.pair_item_id)
    if pair is None:
        return f"pair_item_id {item.pair_item_id!r} is not an item of the archive"
    if pair.language != "pt-BR":
        return f"pair_item_id {item.pair_item_id!r} must be a pt-BR item, it is {pair.language!r}"
    for field in ("stigma_id", "structure_id", "style"):
        if getattr(pair, field) != getattr(item, field):
            return (
                f"pair_item_id {item.pair_item_id!r} has {field} {getattr(pair, field)!r}, "
                f"expected the same as this item ({getattr(item, field)!r})"
            )
    return None
