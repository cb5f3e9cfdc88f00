"""`Kind`: what a kind of round declares to plug into the shared core.

For now the hooks are the archive's: the manifest block, the kind's tables, its item
and response columns, and building the kind's typed round from the core read. Later
hooks (scoring, results, pages, leak guard, review task) are added here as methods.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    import pyarrow as pa

    from reportgen.archive import ArchiveContent, FileProblems, Record
    from reportgen.model import ItemRecord, Manifest, Round


@dataclass(frozen=True)
class TableSpec:
    """A CSV table a kind declares: its file, header, row checks and row writer."""

    name: str
    header: tuple[str, ...]
    # Checks the records and returns the valid rows, reporting every problem.
    parse: Callable[[Sequence[Record], FileProblems], tuple[Any, ...]]
    to_row: Callable[[Any], list[str]]  # one row object -> its CSV fields
    id_column: str | None = None  # the column other checks refer to


@dataclass(frozen=True)
class TableRead:
    """A kind table as read: every record (None when unreadable) and the valid rows."""

    records: tuple[Record, ...] | None
    rows: tuple[Any, ...]

    def ids(self, column: str) -> frozenset[str] | None:
        """Ids of every row, valid or not, so that a bad row is not reported twice."""
        if self.records is None:
            return None
        return frozenset(record[column] for _, record in self.records)


class Kind(ABC):
    """A kind of round (estigmas, ...). Subclasses set the class variables below."""

    name: ClassVar[str]
    # Formats read as this kind besides `round-archive/2` (version 1 of the layout).
    legacy_formats: ClassVar[tuple[str, ...]] = ()
    tables: ClassVar[tuple[TableSpec, ...]] = ()
    # A single-run kind has `run` = 1 and every item exactly once per model.
    single_run: ClassVar[bool] = True
    raw_text_nullable: ClassVar[bool] = False

    @abstractmethod
    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        """items.parquet columns besides the common ones."""

    @abstractmethod
    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        """Response columns besides the common ones (`raw`: before freeze)."""

    @abstractmethod
    def parse_manifest(
        self,
        core: Manifest,
        block: Mapping[str, object],
        data: Mapping[str, object],
        found: FileProblems,
        *,
        raw: bool,
    ) -> Manifest | None:
        """The kind's manifest from the checked core and the kind's block (`data`: all of
        round.json); reports problems with `where` = `<kind>.<key>`."""

    @abstractmethod
    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        """The kind's block of round.json for `manifest` (keys in the spec's order)."""

    def upgrade_manifest(self, data: dict[str, object]) -> tuple[dict[str, object], dict[str, str]]:
        """A legacy manifest in the version-2 shape, and the version-2 key of each
        problem mapped back to the legacy key the file really has."""
        raise NotImplementedError(f"kind {self.name!r} has no legacy format")

    @abstractmethod
    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        """Typed items (every row, valid or not); reports the kind's item problems."""

    @abstractmethod
    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        """Reports problems of the kind's response columns (`where(row)` names a row)."""

    @abstractmethod
    def build_round(self, content: ArchiveContent) -> Round:
        """The kind's typed round from a valid archive read by the core."""
