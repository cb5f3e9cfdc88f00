"""`Kind`: what a kind of round declares to plug into the shared core.

The archive hooks (abstract: every kind has them): the manifest block, the kind's
tables (CSV or Parquet), its item and response columns, and building the kind's typed
round from the core read. Optional: models.csv columns (`model_columns`, `parse_model`),
rules across the typed round's tables (`check_round`) and across archives
(`check_across`). The other stages' hooks: the summary and the results object (`reportgen
summary`, `reportgen stats`), the pages (`Kind.site`), what the leak guard keeps
secret, and the review task. A kind that lacks one of them says so with
`KindCapabilityError` when it is asked, so a kind can grow stage by stage.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from reportgen.errors import ReportgenError

if TYPE_CHECKING:
    from pathlib import Path

    import pyarrow as pa
    from rich.console import Console

    from reportgen.archive import ArchiveContent, FileProblems, Problems, Record, RowChecker
    from reportgen.collect.collected import Matched
    from reportgen.errors import Problem
    from reportgen.guard import GuardMaterial
    from reportgen.kinds.review_task import ReviewTask
    from reportgen.model import ItemRecord, Manifest, Model, Round
    from reportgen.render.site_source import SiteSource
    from reportgen.render.siteconfig import SiteConfig

Progress = Callable[[str], None]  # a line saying what a long step is doing
Advance = Callable[[int], None]  # steps done since the last call


class KindCapabilityError(ReportgenError):
    """The round's kind does not (yet) provide what was asked of it."""

    def __init__(self, kind: str, what: str) -> None:
        super().__init__(f"kind {kind!r} does not provide {what}")


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


class Kind(ABC):
    """A kind of round (estigmas, ...). Subclasses set the class variables below."""

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

    # --- What people read of a kind -------------------------------------------------

    @property
    def title(self) -> Mapping[str, str]:
        """The kind's name per language (the section of a site of several kinds)."""
        return {"pt-BR": self.name, "en": self.name}

    # --- Collecting the answers (reportgen render, reportgen import) ----------------

    def render_draft(self, draft_dir: Path, raw_dir: Path, *, seed: int | None) -> str:
        """Write the raw round of the draft at `draft_dir` into `raw_dir` (which must not
        exist): the draft's files, to_send.jsonl / .csv and the inspect_ai dataset and task
        file (`reportgen.collect.sending`); returns a short note."""
        raise KindCapabilityError(self.name, "rendering a draft into the calls to send")

    def collected_files(self, raw_dir: Path, system: Matched) -> dict[str, bytes]:
        """One system's imported answers as the raw round's files (relative path ->
        bytes), in the kind's raw format; InputError when an answer lacks what it needs."""
        raise KindCapabilityError(self.name, "importing answers into a raw round")

    # --- Freezing a raw round, adding a model (reportgen freeze, add-model) ----------

    def freeze(self, raw_dir: Path, out_dir: Path) -> str:
        """Turn the raw round at `raw_dir` into a frozen archive at `out_dir`; returns a
        short note on how it was scored (e.g. the parser's version)."""
        raise KindCapabilityError(self.name, "freezing a raw round")

    def add_model(self, round_dir: Path, responses_file: Path, model: Model) -> None:
        """Append one model's responses to the (open) round at `round_dir`."""
        raise KindCapabilityError(self.name, "adding a model to a round")

    # --- Scores and results (reportgen summary, reportgen stats) --------------------

    def print_summary(self, round_: Round, console: Console) -> None:
        """The scores of every model, as tables for people."""
        raise KindCapabilityError(self.name, "a summary")

    def summary_json(self, round_: Round) -> dict[str, Any]:
        """The scores of every model, for machines (`reportgen summary --json`)."""
        raise KindCapabilityError(self.name, "a summary")

    def results_steps(self, round_: Round, replicates: int | None) -> int:
        """How many progress steps `results_json` reports (0: no progress bar)."""
        return 0

    def results_json(
        self,
        round_: Round,
        *,
        replicates: int | None,
        cache_dir: Path | None,
        use_cache: bool,
        advance: Advance | None = None,
    ) -> dict[str, Any]:
        """Every statistic of the round, as one JSON document (cached unless told not to)."""
        raise KindCapabilityError(self.name, "a results object")

    # --- Pages and the leak guard ---------------------------------------------------

    def site(
        self,
        rounds: Sequence[Round],
        config: SiteConfig,
        *,
        cache_dir: Path | None,
        progress: Progress | None = None,
        section_depth: int = 0,
    ) -> SiteSource:
        """The pages of `rounds` (all of this kind) and their downloads; `section_depth`
        is 1 where they form a section (a folder) of a site of several kinds."""
        raise KindCapabilityError(self.name, "pages")

    def guard_material(self, round_: Round) -> GuardMaterial:
        """What the site must keep secret of `round_`, and what it may show."""
        raise KindCapabilityError(self.name, "a leak-guard description")

    # --- Human review ---------------------------------------------------------------

    @property
    def review_task(self) -> ReviewTask:
        """The review task people do on this kind's outputs."""
        raise KindCapabilityError(self.name, "a review task")
