"""Write a round archive, deterministically and atomically, and append to its ledger.

Same inputs give byte-identical files: fixed column order and Parquet schema, fixed
codec and level, rows in the given order, `\\n` line ends, sorted SHA256SUMS. The
archive is built in a temporary sibling directory, verified with the reader's own
checks, and renamed into place, so a failure leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from datetime import date
from pathlib import Path
from typing import cast

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.archive import CHECKSUMS_FILE, verify_round
from reportgen.archive_ledger import LEDGER_FILE, annulment_line, chained_ledger, parse_ledger
from reportgen.archive_manifest import MANIFEST_FILE, SLUG, manifest_to_dict
from reportgen.archive_parquet import (
    ITEMS_FILE,
    RESPONSES_DIR,
    items_table,
    response_path,
    responses_table,
    write_parquet,
)
from reportgen.archive_tables import (
    MODELS_FILE,
    MODELS_HEADER,
    STIGMAS_FILE,
    STIGMAS_HEADER,
    STRUCTURES_FILE,
    STRUCTURES_HEADER,
    csv_text,
    models_csv_row,
    stigmas_csv_row,
    structures_csv_row,
)
from reportgen.errors import ArchiveError, InputError, OutputExistsError, Problem
from reportgen.model import (
    LANGUAGES,
    Annulment,
    Item,
    Manifest,
    Model,
    ResponseRow,
    Stigma,
    Structure,
)

__all__ = [
    "append_annulment",
    "checksums_text",
    "manifest_to_dict",
    "parquet_bytes",
    "staging_dir",
    "write_file",
    "write_round",
]


def write_round(
    dest: Path,
    *,
    manifest: Manifest,
    models: Sequence[Model],
    stigmas: Sequence[Stigma],
    structures: Sequence[Structure],
    items: Sequence[Item],
    responses: Mapping[str, Sequence[ResponseRow]],
    annulments: Sequence[Annulment] = (),
) -> None:
    """Write a complete archive at `dest` (whose name must be the round id).

    Refuses an existing `dest` (OutputExistsError) and inputs that would make an
    invalid archive (ArchiveError listing the problems). The ledger, when annulments
    are given, is written with a freshly computed hash chain.
    """
    for model_id in responses:
        if not SLUG.fullmatch(model_id):
            raise InputError(f"responses: model id {model_id!r} is not a slug [a-z0-9][a-z0-9-]*")
    with staging_dir(dest) as staging:
        files: dict[str, bytes] = {
            MANIFEST_FILE: _json_bytes(manifest_to_dict(manifest)),
            MODELS_FILE: csv_text(
                MODELS_HEADER, [models_csv_row(m) for m in models], name=MODELS_FILE
            ).encode(),
            STIGMAS_FILE: csv_text(
                STIGMAS_HEADER, [stigmas_csv_row(s) for s in stigmas], name=STIGMAS_FILE
            ).encode(),
            STRUCTURES_FILE: csv_text(
                STRUCTURES_HEADER, [structures_csv_row(s) for s in structures], name=STRUCTURES_FILE
            ).encode(),
            ITEMS_FILE: parquet_bytes(items_table(items)),
        }
        for model_id, rows in responses.items():
            files[response_path(model_id)] = parquet_bytes(responses_table(rows))
        (staging / RESPONSES_DIR).mkdir()
        for rel, data in files.items():
            write_file(staging / rel, data)
        write_file(staging / CHECKSUMS_FILE, checksums_text(files).encode())
        if annulments:
            write_file(staging / LEDGER_FILE, chained_ledger(annulments)[0])
        problems = verify_round(staging)
        if problems:
            raise ArchiveError(str(dest), problems)
        _rename_into_place(staging, dest)


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
    _fsync_directory(dest.parent)


def parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    write_parquet(table, sink)
    return bytes(sink.getvalue().to_pybytes())


def checksums_text(files: Mapping[str, bytes]) -> str:
    """SHA256SUMS content (`sha256sum` format), sorted by path."""
    return "".join(f"{hashlib.sha256(files[rel]).hexdigest()}  {rel}\n" for rel in sorted(files))


def write_file(path: Path, data: bytes) -> None:
    """Write and fsync, so that a rename after it publishes complete bytes."""
    with path.open("xb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


def _json_bytes(data: Mapping[str, object]) -> bytes:
    return (json.dumps(data, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def append_annulment(
    round_dir: Path,
    *,
    item_id: str,
    decided_on: date,
    contest_id: str,
    reason: Mapping[str, str],
) -> Annulment:
    """Append one annulment to the round's ledger, chained to the bytes before it.

    Checks the existing chain (ArchiveError), that the item exists and is not yet
    annulled, and the reason and contest id (InputError). Appending the same item under
    the same contest id again writes nothing and returns the line already there. The
    ledger is locked while it is read and appended, and the line is fsynced; a failed
    write is cut back.
    """
    if not contest_id:
        raise InputError("contest_id: expected a non-empty string")
    if set(reason) != set(LANGUAGES) or not all(reason[lang] for lang in LANGUAGES):
        raise InputError('reason: expected {"pt-BR": "...", "en": "..."} with non-empty texts')
    item_ids = _item_ids(round_dir)
    if item_id not in item_ids:
        raise InputError(f"{round_dir / ITEMS_FILE}: no item {item_id!r} to annul")
    ledger_path = round_dir / LEDGER_FILE
    existed = ledger_path.exists()
    try:
        with ledger_path.open("a+b") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            handle.seek(0)
            data = handle.read()
            problems: list[Problem] = []
            annulled = parse_ledger(data, problems, item_ids=item_ids)
            if problems:
                raise ArchiveError(str(round_dir), problems)
            for earlier in annulled:
                if earlier.item_id == item_id and earlier.contest_id == contest_id:
                    # The same decision again: its first append reached the ledger but
                    # the caller's database commit did not, so the retry converges.
                    return earlier
                if earlier.item_id == item_id:
                    raise InputError(f"{ledger_path}: item {item_id!r} is already annulled")
            annulment = Annulment(
                item_id=item_id,
                decided_on=decided_on,
                contest_id=contest_id,
                reason={language: reason[language] for language in LANGUAGES},
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
        _fsync_directory(round_dir)
    return annulment


def _item_ids(round_dir: Path) -> frozenset[str]:
    path = round_dir / ITEMS_FILE
    try:
        column = pq.read_table(path, columns=["item_id"]).column("item_id")
    except (pa.ArrowException, OSError, KeyError) as error:
        raise ArchiveError(
            str(round_dir), [Problem(ITEMS_FILE, "", f"cannot read the item ids ({error})")]
        ) from error
    return frozenset(cast(list[str], column.to_pylist()))
