"""What the archive core needs of a kind, and of the set of kinds: defined here, below
the kind registry (`reportgen.kinds`), which implements them.

`ArchiveKind` holds the archive hooks of a kind (its manifest block, tables, item and
response columns, building its typed round); `reportgen.kinds.Kind` adds the other
stages' hooks on top. The table specs a kind declares (`TableSpec`, `ParquetTableSpec`,
`ModelFolderSpec`) and what the reader gives back (`TableRead`) live here too. The
readers and writers take a `KindCatalogue` (the registry, `reportgen.kinds.KINDS`) as an
argument, so the core never imports the registry: `reportgen.kinds.rounds` binds them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, TypeVar

from reportgen.errors import ReportgenError

if TYPE_CHECKING:
    import pyarrow as pa

    from reportgen.archive._csv import Record, RowChecker
    from reportgen.archive._problems import FileProblems, Problems
    from reportgen.archive._reader import ArchiveContent
    from reportgen.errors import Problem
    from reportgen.model import ItemRecord, Manifest, Model, Round

JsonObject = Mapping[str, object]  # an object of round.json (its kind's block, all of it)


class UnknownKindError(ReportgenError):
    """No kind of that name is registered."""

    def __init__(self, name: str, known: Iterable[str]) -> None:
        self.name = name
        super().__init__(f"unknown kind {name!r} (known kinds: {', '.join(sorted(known))})")


# Whether an optional kind table must be present, from the tables read before it: True
# (required), False (refused if present) or None (cannot tell: an earlier table is
# unreadable; the table is read if present).
Presence = Callable[[Mapping[str, "TableRead"]], bool | None]


@dataclass(frozen=True)
class TableSpec:
    """A CSV table a kind declares: its file, header, row checks and row writer."""

    name: str
    header: tuple[str, ...]
    # Checks the records and returns the valid rows, reporting every problem.
    parse: Callable[[Sequence[Record], FileProblems], tuple[Any, ...]]
    to_row: Callable[[Any], list[str]]  # one row object -> its CSV fields
    id_column: str | None = None  # the column other checks refer to
    # Columns after `header` that depend on tables read before this one (e.g. one column
    # per row of another table); None from it when that table is unreadable, and then any
    # tail is accepted. `header_rule` says in words what the tail must be.
    header_tail: Callable[[Mapping[str, TableRead]], tuple[str, ...] | None] | None = None
    header_rule: str = ""
    presence: Presence | None = None  # None: always required
    presence_rule: str = ""  # when the table is there, in words ("there exactly when ...")


@dataclass(frozen=True)
class ParquetTableSpec:
    """A Parquet table a kind declares: its file, its exact schema (column set, types,
    nullability, checked by the core) and its row checks, given the table as read."""

    name: str
    schema: pa.Schema
    # Checks the table's rows and returns the valid ones, reporting every problem.
    parse: Callable[[pa.Table, FileProblems], tuple[Any, ...]]
    id_column: str | None = None  # the column other checks refer to
    presence: Presence | None = None  # None: always required
    presence_rule: str = ""  # when the table is there, in words ("there exactly when ...")


@dataclass(frozen=True)
class ModelFolderSpec:
    """A folder of one Parquet file per models.csv row, like responses/ (e.g.
    `extractions/<model_id>.parquet`): a file for no model, or a model without its file,
    is refused. `parse(model_id, table, found)` checks one file's rows and returns the
    valid ones."""

    directory: str
    schema: pa.Schema
    parse: Callable[[str, pa.Table, FileProblems], tuple[Any, ...]]

    def path(self, model_id: str) -> str:
        return f"{self.directory}/{model_id}.parquet"


@dataclass(frozen=True)
class TableRead:
    """A kind table as read: every record (None when unreadable) and the valid rows;
    for a Parquet table, `table` holds it as read (None when unreadable)."""

    records: tuple[Record, ...] | None
    rows: tuple[Any, ...]
    table: pa.Table | None = None

    def ids(self, column: str) -> frozenset[str] | None:
        """Ids of every row, valid or not, so that a bad row is not reported twice."""
        if self.table is not None:
            return frozenset(str(value) for value in self.table.column(column).to_pylist())
        if self.records is None:
            return None
        return frozenset(record[column] for _, record in self.records)


class ArchiveKind(ABC):
    """The archive hooks of a kind of round. Subclasses set the class variables below."""

    name: ClassVar[str]
    # Formats read as this kind besides `round-archive/2` (version 1 of the layout).
    legacy_formats: ClassVar[tuple[str, ...]] = ()
    # Read in this order: a table's `header_tail` and `presence` see those before it.
    tables: ClassVar[tuple[TableSpec | ParquetTableSpec, ...]] = ()
    model_folders: ClassVar[tuple[ModelFolderSpec, ...]] = ()
    # models.csv columns after the common ones (`parse_model` reads them).
    model_columns: ClassVar[tuple[str, ...]] = ()
    # A single-run kind has `run` = 1 and every item exactly once per model.
    single_run: ClassVar[bool] = True
    raw_text_nullable: ClassVar[bool] = False
    # The outputs' texts are read even when a caller asks for a round without them: a
    # kind whose results and rules read the texts (canaries, copied n-grams) needs them.
    needs_text: ClassVar[bool] = False

    @abstractmethod
    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        """items.parquet columns besides the common ones."""

    @abstractmethod
    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        """Response columns besides the common ones (`raw`: before freeze)."""

    @abstractmethod
    def parse_manifest(
        self, core: Manifest, block: JsonObject, data: JsonObject, found: FileProblems, *, raw: bool
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

    def parse_model(self, core: Model, row: RowChecker, manifest: Manifest | None) -> Model:
        """The kind's model from the common columns (`core`, checked) and the kind's
        `model_columns` of `row`; reports problems through `row` (`manifest`: the kind's,
        None when round.json is invalid)."""
        return core

    def model_row(self, model: Model) -> list[str]:
        """The kind's `model_columns` fields of `model` (models.csv writer)."""
        return []

    def check_round(self, round_: Round, problems: Problems) -> None:
        """Rules across the tables of a round the core read without problems; any
        problem refuses the archive. By default a kind has none."""
        return None

    def check_across(self, rounds: Sequence[Round]) -> list[Problem]:
        """Rules across archives of this kind (every archive a build or verify reads)."""
        return []


K = TypeVar("K", bound=ArchiveKind, covariant=True)
KT = TypeVar("KT", bound=ArchiveKind)


class KindCatalogue(Protocol[K]):
    """The set of kinds the archive core reads and writes with (the kind registry)."""

    def get_kind(self, name: str) -> K:
        """The kind called `name`; UnknownKindError when there is none."""

    def kind_names(self) -> frozenset[str]:
        """The name of every kind, without loading any."""

    def registered_kinds(self) -> tuple[K, ...]:
        """Every kind, by name (loads them all)."""


# The catalogue the core's readers and writers take (`kinds`): any kind in it.
Kinds = KindCatalogue[ArchiveKind]


def kind_for_format(kinds: KindCatalogue[KT], format_name: str) -> KT | None:
    """The kind whose legacy format is `format_name`, if any."""
    return next((k for k in kinds.registered_kinds() if format_name in k.legacy_formats), None)
