"""The toy kind itself: the `Kind` a kind gives the registry. The archive hooks (its
tables, manifest block, item and response checks, how its round is built) are written
here; the stages after the archive are declared once, as `stages` (stages.py). Its name,
`toykind`, is what a round's `round.json` says under "kind"."""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping
from typing import Any, cast

import pyarrow as pa

from reportgen.archive import ArchiveContent, FileProblems
from reportgen.kinds import Kind, TableRead
from reportgen.model import ItemRecord, Manifest, Round
from tests.support.toykind.model import SCORES_FILE, TABLES, ToyItem, ToyRound, ToyScore
from tests.support.toykind.stages import STAGES

NAME = "toykind"


class ToyKind(Kind):
    name = NAME
    tables = TABLES
    stages = STAGES

    @property
    def title(self) -> Mapping[str, str]:
        return {"pt-BR": "Brinquedo", "en": "Toy"}

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return ()

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return ()

    def parse_manifest(
        self,
        core: Manifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        return core

    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        return {}

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        columns = [items.column(n).to_pylist() for n in ToyItem.__dataclass_fields__]
        return tuple(ToyItem(*values) for values in zip(*columns, strict=True))

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        return None

    def build_round(self, content: ArchiveContent) -> Round:
        outputs = {
            model_id: tuple(
                str(t) for t in table.column("raw_text").to_pylist()
            )  # the round is read with its texts in these tests
            if "raw_text" in table.column_names
            else ()
            for model_id, table in content.responses.items()
        }
        return ToyRound(
            path=content.path,
            manifest=content.manifest,
            models=content.models,
            items=content.items,
            annulments=content.annulments,
            checksums=content.checksums,
            ledger_sha256=content.ledger_sha256,
            scores=cast(tuple[ToyScore, ...], content.tables[SCORES_FILE]),
            outputs=types.MappingProxyType(outputs),
        )
