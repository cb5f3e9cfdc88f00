"""Freezing the review export into a multidomain round's archive.

`reportgen review export` writes the human tables (audit.parquet, calibration.parquet)
outside the archive. Freezing puts them in: each exported table replaces the archive's,
SHA256SUMS is rewritten for them, the archive is verified in full (with the export in
place, refusals 41–43 must hold: every drawn response audited, each `audit` ledger line
citing its divergence), and the review database records the archive's new identity, so
that later ledger actions (a contestation, a contamination outcome) are not refused as
"another archive".

The swap is all or nothing, and survives a kill: a journaled swap
(review_app.core.freeze_journal) writes the new files beside the old ones, records both
hashes, renames them into place, SHA256SUMS last; a verification failure or any error
puts the old files back, and so does the next run after a kill between two renames.
The database row is updated in the same transaction, committed after the files are in
place. If that commit fails, running the command again finds the archive already
holding the export and records its identity.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import Engine, update

from reportgen.archive import CHECKSUMS_FILE, swap_journal_of
from reportgen.errors import ArchiveError
from reportgen.kinds.multidomain.review.audit import round_folder
from reportgen.kinds.multidomain.schemas import AUDIT_FILE, CALIBRATION_FILE
from reportgen.kinds.rounds import verify_round
from review_app.core.db import audit, rounds
from review_app.core.errors import ReviewInputError
from review_app.core.freeze_journal import recover, swap_files
from review_app.core.ledger_provenance import check_ledger, record_baseline
from review_app.core.round_identity import check_identity, identity_of

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
    recover(round_dir)  # a swap a kill interrupted is rolled back before anything is read
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
        # A ledger line the app did not write is not frozen into the archive.
        check_ledger(connection, round_id, round_dir)
        if identity_of(round_dir).sums_sha256 != new_digest:
            check_identity(round_dir, round_id, recorded_sums)
            files = {**exported, CHECKSUMS_FILE: new_sums}
            swap_files(round_dir, files, lambda: _check_archive(round_dir))
        # Else the export is in place already (a commit that failed after the swap).
        connection.execute(
            update(rounds).where(rounds.c.round_id == round_id).values(sums_sha256=new_digest)
        )
        record_baseline(connection, round_id, round_dir)
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


def _check_archive(round_dir: Path) -> None:
    """The swapped archive verifies, or its problems are refused as a review error (the
    swap then puts the old files back)."""
    # The swap's own journal is still there (beside the folder) while it checks.
    journal = str(swap_journal_of(round_dir))
    problems = [problem for problem in verify_round(round_dir) if problem.file != journal]
    if problems:
        why = str(ArchiveError(str(round_dir), problems))
        raise ReviewInputError("md_error_freeze_invalid", path=str(round_dir), why=why)
