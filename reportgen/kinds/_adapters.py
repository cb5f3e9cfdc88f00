"""`ArchiveAdapters`: a kind's archive hooks, declared once as data.

`AdaptedKind` implements the archive core's `ArchiveKind` hooks from one
`ArchiveAdapters` object that a kind names (its columns, its manifest block read and
written, its item and response checks, how its typed round is built and checked), so
that no kind spells out the hooks' signatures or the order of the round checks again.
`core_round_fields` is what every typed round takes from the core's read.
"""

from __future__ import annotations

import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING, Any, ClassVar

from reportgen.kinds._base import Kind
from reportgen.kinds._stages import lazy

if TYPE_CHECKING:
    import pyarrow as pa

    from reportgen.archive import ArchiveContent, FileProblems, Problems, RowChecker
    from reportgen.archive._kind import JsonObject, TableRead
    from reportgen.errors import Problem
    from reportgen.model import ItemRecord, Manifest, Model, Round

# (core manifest, the kind's block, all of round.json, problems, raw) -> the kind's manifest
ManifestParser = Callable[
    ["Manifest", Mapping[str, object], Mapping[str, object], "FileProblems", bool],
    "Manifest | None",
]
# The same without `raw`, for a kind whose manifest reads alike in a raw round and an archive
PlainManifestParser = Callable[
    ["Manifest", Mapping[str, object], Mapping[str, object], "FileProblems"], "Manifest | None"
]
ItemsCheck = Callable[
    ["pa.Table", Mapping[str, "TableRead"], "FileProblems"], "tuple[ItemRecord, ...]"
]
ResponsesCheck = Callable[["pa.Table", Callable[[int], str], "FileProblems"], None]
RoundCheck = Callable[[Any, "Problems"], None]  # the kind's round (the registry routes by kind)
ModelParser = Callable[["Model", "RowChecker", "Manifest | None"], "Model"]


@dataclass(frozen=True)
class ArchiveAdapters:
    """What a kind's archive is made of, beyond the core's files."""

    item_columns: tuple[pa.Field[Any], ...]  # items.parquet, after the core's columns
    response_columns: tuple[pa.Field[Any], ...]  # responses, after the core's columns
    parse_manifest: ManifestParser
    manifest_block: Callable[[Any], dict[str, object]]  # the kind's manifest -> its block
    check_items: ItemsCheck
    check_responses: ResponsesCheck
    build_round: Callable[[ArchiveContent], Round]
    # Checks across the round's files, then, only when they found nothing, the rules over
    # its values (after a file problem they would only repeat it in other words).
    check_files: RoundCheck | None = None
    check_rules: RoundCheck | None = None
    # models.csv's kind columns read and written, and the rules across archives (`Kind`'s
    # defaults when None: no columns, no rule).
    parse_model: ModelParser | None = None
    model_row: Callable[[Any], list[str]] | None = None
    check_across: Callable[[Sequence[Round]], list[Problem]] | None = None


def package_adapters(
    package: str,
    columns: tuple[tuple[pa.Field[Any], ...], tuple[pa.Field[Any], ...]],
    **hooks: Any,
) -> ArchiveAdapters:
    """The `ArchiveAdapters` of a kind whose package holds the usual modules:
    `archive_manifest.parse_manifest` (a raw round's block reads as an archive's),
    `write.manifest_block`, `archive_round.check_round_files` and `rules.check_rules`, each
    loaded when first called; `columns` are the item and the response columns, `hooks` the
    other fields."""
    return ArchiveAdapters(
        *columns,
        parse_manifest=same_when_raw(lazy(f"{package}.archive_manifest:parse_manifest")),
        manifest_block=lazy(f"{package}.write:manifest_block"),
        check_files=lazy(f"{package}.archive_round:check_round_files"),
        check_rules=lazy(f"{package}.rules:check_rules"),
        **hooks,
    )


def same_when_raw(parse: PlainManifestParser) -> ManifestParser:
    """A `ManifestParser` from one that reads a raw round's block as an archive's."""
    return lambda core, block, data, found, raw: parse(core, block, data, found)


class AdaptedKind(Kind):
    """A kind whose archive hooks are its `archive` (`ArchiveAdapters`)."""

    archive: ClassVar[ArchiveAdapters]

    def item_columns(self) -> tuple[pa.Field[Any], ...]:
        return self.archive.item_columns

    def response_columns(self, *, raw: bool) -> tuple[pa.Field[Any], ...]:
        return self.archive.response_columns

    def parse_manifest(
        self, core: Manifest, block: JsonObject, data: JsonObject, found: FileProblems, *, raw: bool
    ) -> Manifest | None:
        return self.archive.parse_manifest(core, block, data, found, raw)

    def manifest_block(self, manifest: Manifest) -> dict[str, object]:
        return self.archive.manifest_block(manifest)

    def check_items(
        self, items: pa.Table, tables: Mapping[str, TableRead], found: FileProblems
    ) -> tuple[ItemRecord, ...]:
        return self.archive.check_items(items, tables, found)

    def check_responses(
        self, table: pa.Table, where: Callable[[int], str], found: FileProblems
    ) -> None:
        self.archive.check_responses(table, where, found)

    def build_round(self, content: ArchiveContent) -> Round:
        return self.archive.build_round(content)

    def check_round(self, round_: Round, problems: Problems) -> None:
        files, rules = self.archive.check_files, self.archive.check_rules
        mark = problems.mark()
        if files is not None:
            files(round_, problems)
        if rules is not None and problems.ok_since(mark):
            rules(round_, problems)

    def parse_model(self, core: Model, row: RowChecker, manifest: Manifest | None) -> Model:
        parse = self.archive.parse_model
        return (
            super().parse_model(core, row, manifest)
            if parse is None
            else parse(core, row, manifest)
        )

    def model_row(self, model: Model) -> list[str]:
        row = self.archive.model_row
        return super().model_row(model) if row is None else row(model)

    def check_across(self, rounds: Sequence[Round]) -> list[Problem]:
        across = self.archive.check_across
        return super().check_across(rounds) if across is None else across(rounds)


def core_round_fields(
    content: ArchiveContent, responses: Callable[[str, pa.Table], object]
) -> dict[str, Any]:
    """The fields every kind's round takes from the core's read, its responses (by
    model_id, models.csv order) built by `responses(model_id, table)`."""
    return {
        "path": content.path,
        "manifest": content.manifest,
        "models": content.models,
        "items": content.items,
        "annulments": content.annulments,
        "checksums": content.checksums,
        "ledger_sha256": content.ledger_sha256,
        "responses": types.MappingProxyType(
            {model_id: responses(model_id, table) for model_id, table in content.responses.items()}
        ),
    }


def table_fields(content: ArchiveContent) -> dict[str, Any]:
    """The kind's tables as fields of its round, each named by its file's stem
    (`judges.csv` -> `judges`); a table the archive lacks is left to the round's default."""
    return {PurePosixPath(name).stem: rows for name, rows in content.tables.items()}
