"""Freezing the review export into a multidomain round's archive.

`reportgen review export` writes the human tables (audit.parquet, calibration.parquet)
outside the archive. Freezing puts them in: each exported table replaces the archive's,
SHA256SUMS is rewritten for them, the archive is verified in full (with the export in
place, refusals 41–43 must hold: every drawn response audited, each `audit` ledger line
citing its divergence), and the review database records the archive's new identity, so
that later ledger actions (a contestation, a contamination outcome) are not refused as
"another archive".

The swap is all or nothing: the new files are written and fsynced beside the old ones,
renamed into place, SHA256SUMS last; a verification failure or any error puts the old
bytes back. The database row is updated in the same transaction, committed after the
files are in place. If that commit fails, running the command again finds the archive
already holding the export and records its identity.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import tempfile
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, update

from reportgen.archive import CHECKSUMS_FILE, verify_round
from reportgen.errors import ArchiveError
from reportgen.kinds.multidomain.schemas import AUDIT_FILE, CALIBRATION_FILE
from review_app.db import audit, rounds
from review_app.errors import ReviewInputError
from review_app.md_audit import round_folder
from review_app.round_identity import check_identity, identity_of

HUMAN_TABLES = (AUDIT_FILE, CALIBRATION_FILE)


@dataclass(frozen=True)
class FrozenExport:
    round_id: str
    tables: tuple[str, ...]  # the archive's files replaced, in HUMAN_TABLES order
    sums_sha256: str  # the hash of the new SHA256SUMS, recorded in `rounds`


def freeze_export(
    engine: Engine, export_dir: Path, round_dir: Path, *, by_account: int | None = None
) -> FrozenExport:
    """Replace the round's human tables with those of `export_dir` and record the new
    archive; refused, with nothing changed, when the export holds none, the folder is
    not the round's recorded one, or the archive would not verify."""
    exported = {name: (export_dir / name).read_bytes() for name in _tables_in(export_dir)}
    round_id = identity_of(round_dir).round_id
    new_sums = _new_checksums(round_dir, exported)
    new_digest = hashlib.sha256(new_sums).hexdigest()
    with engine.begin() as connection:
        recorded_dir, recorded_sums = round_folder(connection, round_id)
        if recorded_dir.resolve() != round_dir.resolve():
            raise ReviewInputError(
                "md_error_freeze_folder",
                round_id=round_id,
                path=str(round_dir.resolve()),
                recorded=str(recorded_dir),
            )
        if identity_of(round_dir).sums_sha256 != new_digest:
            check_identity(round_dir, round_id, recorded_sums)
            _swap_in(round_dir, {**exported, CHECKSUMS_FILE: new_sums})
        # Else the export is in place already (a commit that failed after the swap).
        connection.execute(
            update(rounds).where(rounds.c.round_id == round_id).values(sums_sha256=new_digest)
        )
        audit(
            connection,
            by_account,
            "md_freeze_export",
            {"round_id": round_id, "tables": sorted(exported), "sums_sha256": new_digest},
        )
    return FrozenExport(round_id, tuple(exported), new_digest)


def _tables_in(export_dir: Path) -> tuple[str, ...]:
    found = tuple(name for name in HUMAN_TABLES if (export_dir / name).is_file())
    if not found:
        raise ReviewInputError(
            "md_error_freeze_nothing", path=str(export_dir), tables=", ".join(HUMAN_TABLES)
        )
    return found


def _new_checksums(round_dir: Path, exported: Mapping[str, bytes]) -> bytes:
    """SHA256SUMS with the exported tables' digests (sorted, as the writer writes it)."""
    try:
        text = (round_dir / CHECKSUMS_FILE).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        raise ReviewInputError("error_round_missing", path=str(round_dir)) from None
    digests: dict[str, str] = {}
    for line in text.splitlines():
        digest, _, name = line.partition("  ")
        digests[name] = digest
    digests.update({name: hashlib.sha256(data).hexdigest() for name, data in exported.items()})
    return "".join(f"{digests[name]}  {name}\n" for name in sorted(digests)).encode("utf-8")


def _swap_in(round_dir: Path, files: Mapping[str, bytes]) -> None:
    """Put `files` (SHA256SUMS last) into the archive and verify it; on any failure the
    old bytes go back and the archive's problems are refused as a review error."""
    originals = {
        name: (round_dir / name).read_bytes() if (round_dir / name).exists() else None
        for name in files
    }
    order = sorted(files, key=lambda name: name == CHECKSUMS_FILE)
    with _staged(round_dir, {name: files[name] for name in order}) as staged:
        try:
            for name in order:
                os.replace(staged[name], round_dir / name)
            problems = verify_round(round_dir)
            if problems:
                raise ArchiveError(str(round_dir), problems)
        except BaseException as error:
            _restore(round_dir, originals)
            if isinstance(error, ArchiveError):
                raise ReviewInputError(
                    "md_error_freeze_invalid", path=str(round_dir), why=str(error)
                ) from None
            raise
    _fsync_directory(round_dir)


@contextlib.contextmanager
def _staged(directory: Path, files: Mapping[str, bytes]) -> Iterator[dict[str, Path]]:
    """Each file written and fsynced under a fresh name in `directory` (the same file
    system: os.replace is atomic); whatever is left of them is removed on exit."""
    paths: dict[str, Path] = {}
    try:
        for name, data in files.items():
            handle, temporary = tempfile.mkstemp(prefix=".freeze.", suffix=".tmp", dir=directory)
            paths[name] = Path(temporary)
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
                stream.flush()
                os.fsync(stream.fileno())
            os.chmod(temporary, 0o644)
        yield paths
    finally:
        for path in paths.values():
            path.unlink(missing_ok=True)


def _restore(round_dir: Path, originals: Mapping[str, bytes | None]) -> None:
    for name, data in originals.items():
        target = round_dir / name
        if data is None:
            target.unlink(missing_ok=True)
        elif not target.exists() or target.read_bytes() != data:
            backup = target.with_name(f".{name}.restore")
            backup.write_bytes(data)
            os.replace(backup, target)


def _fsync_directory(directory: Path) -> None:
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
