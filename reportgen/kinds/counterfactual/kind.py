"""The `counterfactual` kind's plug-in on the shared core (skeleton: the reader lands next)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from reportgen.kinds._base import Kind, TableRead
from reportgen.kinds.counterfactual.model import NAME

if TYPE_CHECKING:
    import pyarrow as pa

    from reportgen.archive import ArchiveContent, FileProblems
    from reportgen.model import ItemRecord, Manifest, Round


class CounterfactualKind(Kind):
    name = NAME
    single_run = False

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        raise NotImplementedError

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        raise NotImplementedError

    def parse_manifest(
        self,
        core: Manifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        raise NotImplementedError

    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        raise NotImplementedError

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        raise NotImplementedError

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        raise NotImplementedError

    def build_round(self, content: ArchiveContent) -> Round:
        raise NotImplementedError
