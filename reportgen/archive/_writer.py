"""The one writer of round archives: whole rounds, an added model, ledger lines.

Same inputs give byte-identical files: fixed column order and Parquet schema, fixed
codec and level, rows in the given order, `\\n` line ends, sorted SHA256SUMS. A round
is built in a temporary sibling directory, verified with the reader's own checks, and
renamed into place; an added model's files are staged beside the originals, swapped
in, verified, and swapped back on failure. A failure leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import NotRequired, TypedDict, Unpack

from reportgen.archive._checksums import checksums_text, digests_of, parse_checksums
from reportgen.archive._csv import MODELS_HEADER, csv_text, models_csv_row
from reportgen.archive._kind import ArchiveKind, Kinds, ParquetTableSpec
from reportgen.archive._layout import (
    CHECKSUMS_FILE,
    ITEMS_FILE,
    LEDGER_FILE,
    MANIFEST_FILE,
    MODELS_FILE,
    SLUG,
    format_version,
    response_path,
)
from reportgen.archive._ledger import annulment_line, chained_ledger, parse_ledger
from reportgen.archive._manifest import manifest_to_dict
from reportgen.archive._parquet import item_schema, parquet_bytes, records_table, response_schema
from reportgen.archive._problems import Problems
from reportgen.archive._reader import read_round, verify_round
from reportgen.atomic import fsync_directory
from reportgen.errors import ArchiveError, InputError, OutputExistsError, Problem
from reportgen.model import SOURCES, TEXT_LANGUAGES, Annulment, Manifest, Model, Round, Source


class RoundContent(TypedDict):
    """What `write_round` writes (annulments: none when left out)."""

    manifest: Manifest
    models: Sequence[Model]
    items: Sequence[object]
    responses: Mapping[str, Sequence[object]]
    tables: Mapping[str, Sequence[object]]
    annulments: NotRequired[Sequence[Annulment]]


def write_round(dest: Path, *, kinds: Kinds, **content: Unpack[RoundContent]) -> None:
    """Write a complete `round-archive/2` archive at `dest` (named after the round id).

    `tables` holds the rows of each table the kind declares; items and response rows
    have an attribute per column. Refuses an existing `dest` (OutputExistsError) and
    inputs that would make an invalid archive (ArchiveError listing the problems). The
    ledger, when annulments are given, is written with a freshly computed hash chain.
    """
    manifest, responses = content["manifest"], content["responses"]
    kind = kinds.get_kind(manifest.kind)
    for model_id in responses:
        if not SLUG.fullmatch(model_id):
            raise InputError(f"responses: model id {model_id!r} is not a slug [a-z0-9][a-z0-9-]*")
    files = _round_files(
        kind, manifest, content["models"], content["items"], responses, content["tables"], kinds
    )
    annulments = content.get("annulments", ())
    write_archive_files(dest, sealed(files, annulments), kinds=kinds, verify_as=str(dest))


def sealed(files: dict[str, bytes], annulments: Sequence[Annulment]) -> dict[str, bytes]:
    """`files` (relative path -> bytes) with their SHA256SUMS added and, when there are
    annulments, the hash-chained ledger (which SHA256SUMS does not list)."""
    files[CHECKSUMS_FILE] = checksums_text(digests_of(files)).encode()
    if annulments:
        files[LEDGER_FILE] = chained_ledger(annulments)[0]
    return files


def _round_files(
    kind: ArchiveKind,
    manifest: Manifest,
    models: Sequence[Model],
    items: Sequence[object],
    responses: Mapping[str, Sequence[object]],
    tables: Mapping[str, Sequence[object]],
    kinds: Kinds,
) -> dict[str, bytes]:
    declared = {spec.name for spec in kind.tables}
    if set(tables) != declared:
        raise InputError(
            f"tables: a {kind.name!r} round has {sorted(declared)}, got {sorted(tables)}"
        )
    files: dict[str, bytes] = {
        MANIFEST_FILE: manifest_bytes(manifest, kinds=kinds),
        MODELS_FILE: csv_text(
            (*MODELS_HEADER, *kind.model_columns),
            [[*models_csv_row(m), *kind.model_row(m)] for m in models],
            name=MODELS_FILE,
        ).encode(),
    }
    for spec in kind.tables:
        if spec.presence is not None and not tables[spec.name]:
            continue  # an optional table without rows is left out (the kind's rule)
        if isinstance(spec, ParquetTableSpec):
            files[spec.name] = parquet_bytes(records_table(tables[spec.name], spec.schema))
            continue
        table_rows = [spec.to_row(row) for row in tables[spec.name]]
        files[spec.name] = csv_text(spec.header, table_rows, name=spec.name).encode()
    files[ITEMS_FILE] = parquet_bytes(records_table(items, item_schema(kind)))
    schema = response_schema(kind, version=2, raw=False)
    for model_id, rows in responses.items():
        files[response_path(model_id)] = parquet_bytes(records_table(rows, schema))
    return files


@contextlib.contextmanager
def staging_dir(dest: Path) -> Iterator[Path]:
    """A fresh directory named like `dest`, inside a temporary sibling of `dest`.

    The caller fills it and renames it onto `dest`; whatever is left is removed on exit.
    Its name equals `dest`'s so that the round id check passes before the rename.
    """
    if dest.exists() or dest.is_symlink():
        raise OutputExistsError(f"{dest} already exists: a round archive is never overwritten")
    if not dest.parent.is_dir():
        raise InputError(f"{dest.parent}: no such directory to write the archive into")
    holder = Path(tempfile.mkdtemp(prefix=f".{dest.name}.", suffix=".partial", dir=dest.parent))
    try:
        staging = holder / dest.name
        staging.mkdir()
        yield staging
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _rename_into_place(staging: Path, dest: Path) -> None:
    if dest.exists() or dest.is_symlink():
        raise OutputExistsError(f"{dest} already exists: a round archive is never overwritten")
    os.rename(staging, dest)
    fsync_directory(dest.parent)


def write_file(path: Path, data: bytes) -> None:
    """Write and fsync, so that a rename after it publishes complete bytes."""
    with path.open("xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _json_bytes(data: Mapping[str, object]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def manifest_bytes(manifest: Manifest, *, kinds: Kinds) -> bytes:
    """round.json's bytes for `manifest`: indented, UTF-8 as is, one final newline."""
    return _json_bytes(manifest_to_dict(manifest, kinds=kinds))


def write_archive_files(
    dest: Path,
    files: Mapping[str, bytes],
    *,
    kinds: Kinds,
    verify_as: str | None = None,
) -> None:
    """Write `files` (relative path -> bytes, SHA256SUMS included) as a new archive at
    `dest`: staged beside it, fsynced, renamed into place; nothing is left on failure and
    an existing `dest` is refused (OutputExistsError). With `verify_as`, the staged archive
    is verified first and its problems raised as ArchiveError(verify_as, ...). A kind whose
    tables the generic `write_round` does not cover (per-model folders, computed hashes)
    writes through it."""
    with staging_dir(dest) as staging:
        for rel, data in files.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            write_file(staging / rel, data)
        if verify_as is not None:
            problems = verify_round(staging, kinds=kinds)
            if problems:
                raise ArchiveError(verify_as, problems)
        _rename_into_place(staging, dest)


def write_round_files(
    dest: Path, round_id: str, files: Callable[[], Mapping[str, bytes]], *, kinds: Kinds
) -> None:
    """Write a kind's archive of round `round_id` (`files()`: relative path -> bytes,
    SHA256SUMS included) as a new archive at `dest`, a folder named after the round id
    (InputError otherwise, before any file is made) that must not exist yet."""
    if dest.name != round_id:
        raise InputError(f"{dest}: an archive's folder is named after its round id {round_id!r}")
    write_archive_files(dest, files(), kinds=kinds)


def append_model(
    round_dir: Path,
    model: Model,
    rows_for: Callable[[Round], Sequence[object]],
    *,
    kinds: Kinds,
) -> None:
    """Add one model to the valid archive at `round_dir`: its response file, one
    models.csv line and the checksum lines; nothing else changes, and nothing changes
    on error. `rows_for(round)` gives the response rows (an attribute per column; the
    archive's format version decides the columns) once the archive and model are checked.
    """
    archive = read_round(round_dir, kinds=kinds, with_text=False)
    _check_new_model(model, {m.model_id for m in archive.models}, round_dir)
    rows = rows_for(archive)
    kind = kinds.get_kind(archive.manifest.kind)
    version = format_version(archive.manifest.format)
    schema = response_schema(kind, version=version, raw=False)
    new_response = parquet_bytes(records_table(rows, schema))
    models_path = round_dir / MODELS_FILE
    checksums_path = round_dir / CHECKSUMS_FILE
    old_models = models_path.read_bytes()
    old_checksums = checksums_path.read_bytes()
    separator = b"" if old_models.endswith(b"\n") else b"\n"
    # csv_text's first line is the header; keep only the new data line.
    line = csv_text(MODELS_HEADER, [models_csv_row(model)], name=MODELS_FILE).split("\n", 1)[1]
    new_models = old_models + separator + line.encode("utf-8")
    digests = parse_checksums(old_checksums.decode("utf-8"))
    digests.update(
        digests_of({MODELS_FILE: new_models, response_path(model.model_id): new_response})
    )
    response_target = round_dir / response_path(model.model_id)
    with _temporary_files(round_dir, 3) as (response_tmp, models_tmp, checksums_tmp):
        write_file(response_tmp, new_response)
        write_file(models_tmp, new_models)
        write_file(checksums_tmp, checksums_text(digests).encode("utf-8"))
        try:
            os.replace(response_tmp, response_target)
            os.replace(models_tmp, models_path)
            os.replace(checksums_tmp, checksums_path)
            problems = verify_round(round_dir, kinds=kinds)
            if problems:
                raise ArchiveError(str(round_dir), problems)
        except BaseException:
            _restore(response_target, {models_path: old_models, checksums_path: old_checksums})
            raise


def _check_new_model(model: Model, existing: set[str], round_dir: Path) -> None:
    if not SLUG.fullmatch(model.model_id):
        raise InputError(f"--model-id {model.model_id!r} is not a slug [a-z0-9][a-z0-9-]*")
    if model.model_id in existing:
        raise InputError(f"{round_dir / MODELS_FILE}: model {model.model_id!r} is already there")
    for option, value in (
        ("--display-name", model.display_name),
        ("--provider", model.provider),
        ("--api-identifier", model.api_identifier),
    ):
        if not value.strip() or value != value.strip():
            raise InputError(f"{option}: expected a non-empty value without surrounding spaces")


@contextlib.contextmanager
def _temporary_files(directory: Path, count: int) -> Iterator[list[Path]]:
    """Fresh paths in `directory` (same file system, so os.replace is atomic); removed
    on exit if still there."""
    paths: list[Path] = []
    try:
        for _ in range(count):
            descriptor, name = tempfile.mkstemp(prefix=".add-model.", suffix=".tmp", dir=directory)
            os.close(descriptor)
            os.unlink(name)  # write_file creates it exclusively
            paths.append(Path(name))
        yield paths
    finally:
        for path in paths:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _restore(response_target: Path, originals: Mapping[Path, bytes]) -> None:
    with contextlib.suppress(FileNotFoundError):
        response_target.unlink()
    for path, data in originals.items():
        if path.read_bytes() != data:
            backup = path.with_name(f".{path.name}.restore")
            backup.write_bytes(data)
            os.replace(backup, path)


class AnnulmentRequest(TypedDict):
    """The annulment `append_annulment` appends (source: "contestation" when left out),
    and the problems its read of the round may `tolerate`."""

    item_id: str
    decided_on: date
    ref: str
    reason: Mapping[str, str]
    source: NotRequired[Source]
    tolerate: NotRequired[Callable[[Problem], bool] | None]


def append_annulment(  # the lock, the checks and the append stay in one block
    round_dir: Path, *, kinds: Kinds, **request: Unpack[AnnulmentRequest]
) -> Annulment:
    """Append one annulment (a version-2 line) to the round's ledger, chained to the
    bytes before it.

    Checks the existing chain (ArchiveError), that the item exists and is not yet
    annulled, and the source, ref and reason (InputError). Appending the same item under
    the same source and ref again writes nothing and returns the line already there. The
    ledger is locked while it is read and appended, and the line is fsynced; a failed
    write is cut back. `tolerate`: as for `read_round` (the line being appended may be
    what a rule is waiting for).
    """
    item_id, ref, reason = request["item_id"], request["ref"], request["reason"]
    source, tolerate = request.get("source", "contestation"), request.get("tolerate")
    if source not in SOURCES:
        raise InputError(f"source: expected one of {' | '.join(SOURCES)}, got {source!r}")
    if not ref:
        raise InputError("ref: expected a non-empty string")
    if set(reason) != set(TEXT_LANGUAGES) or not all(reason[lang] for lang in TEXT_LANGUAGES):
        raise InputError('reason: expected {"pt-BR": "...", "en": "..."} with non-empty texts')
    archive = read_round(round_dir, kinds=kinds, with_text=False, tolerate=tolerate)
    item_ids = frozenset(item.item_id for item in archive.items)
    if item_id not in item_ids:
        raise InputError(f"{round_dir / ITEMS_FILE}: no item {item_id!r} to annul")
    ledger_path = round_dir / LEDGER_FILE
    existed = ledger_path.exists()
    try:
        with ledger_path.open("a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            data = handle.read()
            problems = Problems()
            version = format_version(archive.manifest.format)
            annulled = parse_ledger(data, problems, item_ids=item_ids, version=version)
            problems.raise_if_any(str(round_dir))
            for earlier in annulled:
                if earlier.item_id == item_id and (earlier.source, earlier.ref) == (source, ref):
                    # The same decision again: its first append reached the ledger but
                    # the caller's database commit did not, so the retry converges.
                    return earlier
                if earlier.item_id == item_id:
                    raise InputError(f"{ledger_path}: item {item_id!r} is already annulled")
            annulment = Annulment(
                item_id=item_id,
                decided_on=request["decided_on"],
                source=source,
                ref=ref,
                reason={language: reason[language] for language in TEXT_LANGUAGES},
                prev_sha256=hashlib.sha256(data).hexdigest() if data else "",
            )
            try:
                handle.write(annulment_line(annulment, annulment.prev_sha256))
                handle.flush()
                os.fsync(handle.fileno())
            except OSError:
                handle.truncate(len(data))
                raise
    except BaseException:
        if not existed and ledger_path.exists() and ledger_path.stat().st_size == 0:
            ledger_path.unlink()
        raise
    if not existed:
        fsync_directory(round_dir)
    return annulment
