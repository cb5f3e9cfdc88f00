"""Read and verify a round archive in one straight pass.

manifest -> models -> the kind's tables -> items -> responses -> ledger -> layout and
SHA256SUMS. Each step reports into one `Problems`; the kind (named by round.json)
checks its own block, tables (CSV or Parquet) and columns, then builds its typed round
and checks the rules across its tables (`Kind.check_round`). Rules across archives
(`Kind.check_across`) run over every round a command reads (`check_across`).
"""

from __future__ import annotations

import types
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pyarrow as pa

from reportgen.archive._checksums import check_checksums
from reportgen.archive._csv import MODELS_HEADER, parse_models, read_csv_records
from reportgen.archive._kind import (
    ArchiveKind,
    Kinds,
    ParquetTableSpec,
    TableRead,
    TableSpec,
    kind_for_format,
)
from reportgen.archive._layout import (
    FORMAT,
    INTERRUPTED_SWAP,
    MANIFEST_FILE,
    MODELS_FILE,
    SLUG,
    check_layout,
    check_response_files,
    format_version,
    present_files,
    response_path,
    swap_journal_of,
)
from reportgen.archive._ledger import read_ledger
from reportgen.archive._manifest import check_manifest, read_manifest_data
from reportgen.archive._parquet import (
    read_checked_table,
    read_items,
    read_responses,
    response_schema,
)
from reportgen.archive._problems import FileProblems, Problems
from reportgen.errors import Problem
from reportgen.model import Annulment, ItemRecord, Manifest, Model, Round


@dataclass(frozen=True)
class ArchiveContent:
    """What the core read from a valid archive, for the kind to build its round from."""

    path: Path
    manifest: Manifest  # the kind's manifest class
    models: tuple[Model, ...]
    tables: Mapping[str, tuple[Any, ...]]  # the kind's tables: file name -> rows
    items: tuple[ItemRecord, ...]  # the kind's item class
    # by model_id, in models.csv order; aligned with `items` for a single-run kind.
    # Without text, `raw_text` is not a column.
    responses: Mapping[str, pa.Table]
    annulments: tuple[Annulment, ...]
    checksums: Mapping[str, str]  # empty for a raw round
    ledger_sha256: str
    # The kind's folders of one file per model: folder -> model_id -> valid rows.
    folders: Mapping[str, Mapping[str, tuple[Any, ...]]] = field(default_factory=dict)


def read_round(
    round_dir: Path,
    *,
    kinds: Kinds,
    with_text: bool = True,
    tolerate: Callable[[Problem], bool] | None = None,
) -> Round:
    """The verified round, as its kind's round class; raises ArchiveError listing every
    problem found. With `with_text=False` the outputs' texts are not loaded.

    `tolerate` names problems of the kind's cross-table rules that the caller knows are
    in progress (the review app reads a round whose human audit it is still writing);
    every other problem, and every problem of the files themselves, still refuses."""
    problems = Problems()
    round_ = _load_round(round_dir, problems, kinds, with_text=with_text, tolerate=tolerate)
    problems.raise_if_any(str(round_dir))
    assert round_ is not None  # no problem means a round
    return round_


def verify_round(round_dir: Path, *, kinds: Kinds) -> list[Problem]:
    """Every problem of the archive at `round_dir` (empty when it is valid)."""
    problems = Problems()
    _load_round(round_dir, problems, kinds, with_text=True)
    return problems.as_list()


def check_across(rounds: Sequence[Round], *, kinds: Kinds) -> list[Problem]:
    """Problems across archives: each kind checks its own rounds together."""
    by_kind: dict[str, list[Round]] = defaultdict(list)
    for round_ in rounds:
        by_kind[round_.manifest.kind].append(round_)
    return [
        problem
        for name, of_kind in by_kind.items()
        for problem in kinds.get_kind(name).check_across(of_kind)
    ]


def _load_round(
    round_dir: Path,
    problems: Problems,
    kinds: Kinds,
    *,
    with_text: bool,
    tolerate: Callable[[Problem], bool] | None = None,
) -> Round | None:
    """`_checked_round`, and None when an interrupted swap left its journal beside the
    archive (checked last: a swap's own check needs every other rule's verdict)."""
    round_ = _checked_round(round_dir, problems, kinds, with_text=with_text, tolerate=tolerate)
    journal = swap_journal_of(round_dir)
    if journal.exists():
        problems.add(str(journal), "", INTERRUPTED_SWAP)
        return None
    return round_


def _checked_round(
    round_dir: Path,
    problems: Problems,
    kinds: Kinds,
    *,
    with_text: bool,
    tolerate: Callable[[Problem], bool] | None,
) -> Round | None:
    """The kind's round once the core read found nothing wrong and the kind's rules
    across tables (`Kind.check_round`) found nothing either, `tolerate`d problems apart;
    None otherwise."""
    content = load(round_dir, problems, kinds, raw=False, with_text=with_text)
    if content is None:
        return None
    kind = kinds.get_kind(content.manifest.kind)
    round_ = kind.build_round(content)
    found = Problems()
    kind.check_round(round_, found)
    kept = [problem for problem in found if tolerate is None or not tolerate(problem)]
    for problem in kept:
        problems.add(problem.file, problem.where, problem.message)
    return None if kept else round_


def read_raw_round(raw_dir: Path, *, kinds: Kinds) -> ArchiveContent:
    """A raw round (responses without the kind's frozen columns, no SHA256SUMS), checked
    like an archive; raises ArchiveError."""
    problems = Problems()
    content = load(raw_dir, problems, kinds, raw=True, with_text=True)
    problems.raise_if_any(str(raw_dir))
    assert content is not None
    return content


def load(
    round_dir: Path, problems: Problems, kinds: Kinds, *, raw: bool, with_text: bool
) -> ArchiveContent | None:
    """The archive's content, or None; every problem goes to `problems`."""
    if not round_dir.is_dir():
        problems.add(str(round_dir), "", "not a directory")
        return None
    mark = problems.mark()
    manifest_data = read_manifest_data(round_dir, problems)
    manifest = None
    if manifest_data is not None:
        # resolve(): `reportgen verify .` inside the round dir must work too.
        folder = None if raw else round_dir.resolve().name
        manifest = check_manifest(manifest_data, problems, kinds=kinds, folder_name=folder, raw=raw)
    kind = _kind_of(manifest_data, kinds)
    if kind is None:
        # Which tables and columns an archive has depends on its kind.
        if problems.ok_since(mark):
            problems.add(MANIFEST_FILE, "", "cannot tell the round's kind")
        return None
    version = format_version(manifest.format) if manifest else _version_of(manifest_data)
    with_text = with_text or kind.needs_text
    header = (*MODELS_HEADER, *kind.model_columns)
    model_records = read_csv_records(round_dir / MODELS_FILE, MODELS_FILE, header, problems)
    models = parse_models(model_records or [], problems, kind=kind, manifest=manifest)
    tables = _read_kind_tables(round_dir, kind, problems)
    languages = manifest.languages if manifest else None
    items = read_items(round_dir, kind, problems, languages=languages, tables=tables)
    # Only slugs name response files: a model id like "../x" must not become a path.
    model_ids = [
        model_id
        for model_id in dict.fromkeys(record["model_id"] for _, record in model_records or [])
        if SLUG.fullmatch(model_id)
    ]
    responses = _read_all_responses(
        round_dir, kind, model_ids, items, problems, version=version, raw=raw, with_text=with_text
    )
    if model_records is not None:
        check_response_files(round_dir, set(model_ids), problems)
    folders = _read_model_folders(round_dir, kind, model_ids, problems, listed=model_records)
    annulments, ledger_sha256 = read_ledger(round_dir, items, problems, version=version)
    present = present_files(round_dir, problems)
    _check_layout(present, kind, kinds, raw=raw, problems=problems)
    checksums = {} if raw else check_checksums(round_dir, present, problems)
    if not problems.ok_since(mark) or manifest is None or items is None:
        return None
    return ArchiveContent(
        path=round_dir,
        manifest=manifest,
        models=models,
        tables=types.MappingProxyType({name: read.rows for name, read in tables.items()}),
        items=items,
        responses=types.MappingProxyType(responses),
        annulments=annulments,
        checksums=types.MappingProxyType(checksums),
        ledger_sha256=ledger_sha256,
        folders=types.MappingProxyType(folders),
    )


def _kind_of(manifest_data: object, kinds: Kinds) -> ArchiveKind | None:
    """The kind whose tables and columns to check, even when round.json has other
    problems; None when its format or kind is unknown (then nothing else can be)."""
    if not isinstance(manifest_data, dict):
        return None
    format_name = manifest_data.get("format")
    name = manifest_data.get("kind")
    if format_name == FORMAT:  # only that kind is loaded, not every kind
        return (
            kinds.get_kind(name) if isinstance(name, str) and name in kinds.kind_names() else None
        )
    return kind_for_format(kinds, format_name) if isinstance(format_name, str) else None


def _version_of(manifest_data: object) -> int:
    if isinstance(manifest_data, dict) and isinstance(manifest_data.get("format"), str):
        return format_version(manifest_data["format"])
    return 2


def _read_kind_tables(
    round_dir: Path, kind: ArchiveKind, problems: Problems
) -> dict[str, TableRead]:
    tables: dict[str, TableRead] = {}
    for spec in kind.tables:
        found = problems.in_file(spec.name)
        path = round_dir / spec.name
        if not _expected_here(spec, path, tables, found):
            # An absent optional table: no rows (records None where it had to be there).
            tables[spec.name] = TableRead(None if path.exists() else (), ())
            continue
        if isinstance(spec, ParquetTableSpec):
            table = read_checked_table(path, found, spec.schema, optional=())
            rows = () if table is None else spec.parse(table, found)
            tables[spec.name] = TableRead(None, rows, table)
            continue
        tables[spec.name] = read_csv_table(path, spec, tables, problems)
    return tables


def read_csv_table(
    path: Path, spec: TableSpec, tables: Mapping[str, TableRead], problems: Problems
) -> TableRead:
    """A kind's CSV table at `path`: its header (with the tail that the `tables` read before
    give it), its records and its rows; the problems go to `problems`."""
    tail = None if spec.header_tail is None else spec.header_tail(tables)
    header = spec.header if tail is None else (*spec.header, *tail)
    records = read_csv_records(
        path,
        spec.name,
        header,
        problems,
        open_tail=spec.header_tail is not None and tail is None,
        rule=spec.header_rule,
    )
    rows = spec.parse(records or [], problems.in_file(spec.name))
    return TableRead(None if records is None else tuple(records), rows)


def _expected_here(
    spec: TableSpec | ParquetTableSpec,
    path: Path,
    tables: Mapping[str, TableRead],
    found: FileProblems,
) -> bool:
    """Whether to read an (optional) kind table; reports one present where the kind
    refuses it, or missing where the kind requires it."""
    if spec.presence is None:
        return True
    wanted = spec.presence(tables)
    present = path.exists()
    if wanted is False and present:
        found.add("", f"present although not allowed ({spec.presence_rule})")
    elif wanted is True and not present:
        found.add("", f"missing file ({spec.presence_rule})")
    return present and wanted is not False


def _read_model_folders(
    round_dir: Path,
    kind: ArchiveKind,
    model_ids: list[str],
    problems: Problems,
    *,
    listed: object,
) -> dict[str, dict[str, tuple[Any, ...]]]:
    """Each kind folder of one Parquet file per model: every model's file read with the
    folder's schema and parsed; a file for no model reported (`listed`: models.csv's
    records, None when unreadable, and then the folder's entries are not judged)."""
    folders: dict[str, dict[str, tuple[Any, ...]]] = {}
    for spec in kind.model_folders:
        rows: dict[str, tuple[Any, ...]] = {}
        for model_id in model_ids:
            rel = spec.path(model_id)
            found = problems.in_file(rel)
            table = read_checked_table(round_dir / rel, found, spec.schema, optional=())
            if table is not None:
                rows[model_id] = spec.parse(model_id, table, found)
        if listed is not None:
            check_response_files(round_dir, set(model_ids), problems, folder=spec.directory)
        folders[spec.directory] = rows
    return folders


def _read_all_responses(
    round_dir: Path,
    kind: ArchiveKind,
    model_ids: list[str],
    items: tuple[ItemRecord, ...] | None,
    problems: Problems,
    *,
    version: int,
    raw: bool,
    with_text: bool,
) -> dict[str, pa.Table]:
    responses: dict[str, pa.Table] = {}
    if items is None:
        # Without items the coverage cannot be checked; the columns still can.
        schema = response_schema(kind, version=version, raw=raw)
        for model_id in model_ids:
            rel = response_path(model_id)
            read_checked_table(round_dir / rel, problems.in_file(rel), schema)
        return responses
    # Unique ids: a duplicate item is reported once, by the items check.
    item_ids = pa.array(list(dict.fromkeys(item.item_id for item in items)), pa.string())
    for model_id in model_ids:
        rel = response_path(model_id)
        table = read_responses(
            round_dir / rel,
            problems.in_file(rel),
            model_id,
            item_ids,
            kind,
            version=version,
            raw=raw,
            with_text=with_text,
        )
        if table is not None:
            responses[model_id] = table
    return responses


def _check_layout(
    present: list[str],
    kind: ArchiveKind,
    kinds: Kinds,
    *,
    raw: bool,
    problems: Problems,
) -> None:
    own = {spec.name for spec in kind.tables}

    def others() -> dict[str, str]:  # loads every kind: only asked for a stray file
        return {
            spec.name: other.name
            for other in kinds.registered_kinds()
            if other.name != kind.name
            for spec in other.tables
            if spec.name not in own
        }

    check_layout(
        present,
        kind_name=kind.name,
        kind_tables=own,
        other_tables=others,
        raw=raw,
        problems=problems,
        kind_folders=[spec.directory for spec in kind.model_folders],
    )
