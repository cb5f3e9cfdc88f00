"""A journaled swap of an archive's files, for `reportgen review freeze-export`.

Replacing several files of an archive takes several renames; a kill between two of them
would leave an archive that fails `verify`. So, before the first rename, the new files
are written and fsynced beside the archive's folder (`.ROUND.swap.new.NAME`), each old
file gets a second name there (`.ROUND.swap.old.NAME`, a hard link: no copy), and a
journal (`.ROUND.swap-journal.json`, reportgen.archive.swap_journal_of) lists every file
with its old and new SHA-256. Then the renames happen, SHA256SUMS last, and the
journal's removal commits the swap; the copies are removed after it. Nothing of this
lives inside the archive's folder, so the archive is verified with the swap in place.

Whoever finds a journal (the next `freeze-export`, before anything else) rolls the swap
back: the old files go back in place, the archive is as it was, and the command then
runs from the start. Without a journal, `.ROUND.swap.*` files are leftovers of a swap
that never began or had committed, and are removed. `reportgen verify` names a journal
it finds as the trace of an interrupted swap.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path

from reportgen.archive import CHECKSUMS_FILE, swap_journal_of
from reportgen.atomic import fsync_directory

# The rename, as a name tests can replace to stop the swap between two renames.
_rename: Callable[[Path, Path], None] = os.replace


def swap_files(round_dir: Path, files: Mapping[str, bytes], check: Callable[[], None]) -> None:
    """Put `files` (top-level names; SHA256SUMS last) into `round_dir`, then `check()`;
    on any error, or at the next run after a kill, the old files are back."""
    recover(round_dir)
    order = sorted(files, key=lambda name: name == CHECKSUMS_FILE)
    entries = []
    for name in order:
        _write_synced(_copy(round_dir, "new", name), files[name])
        target = round_dir / name
        if target.exists():
            os.link(target, _copy(round_dir, "old", name))
        old_sha256, new_sha256 = _digest(target), _digest(files[name])
        entries.append({"name": name, "old_sha256": old_sha256, "new_sha256": new_sha256})
    # Complete before it has its name: a journal that exists can always be read.
    staged_journal = _copy(round_dir, "journal", "json")
    _write_synced(staged_journal, json.dumps({"files": entries}, indent=2).encode("utf-8"))
    os.replace(staged_journal, swap_journal_of(round_dir))
    fsync_directory(round_dir.parent)
    try:
        for name in order:
            _rename(_copy(round_dir, "new", name), round_dir / name)
        fsync_directory(round_dir)
        check()
    except BaseException:
        recover(round_dir)
        raise
    swap_journal_of(round_dir).unlink()  # the commit
    fsync_directory(round_dir.parent)
    _remove_leftovers(round_dir)


def recover(round_dir: Path) -> bool:
    """Roll back a swap whose journal is still there (True), and remove leftovers."""
    journal = swap_journal_of(round_dir)
    if not round_dir.is_dir():
        return False
    if not journal.exists():
        _remove_leftovers(round_dir)
        return False
    for entry in json.loads(journal.read_text(encoding="utf-8"))["files"]:
        name = entry["name"]
        target, old = round_dir / name, _copy(round_dir, "old", name)
        if entry["old_sha256"] is None:
            target.unlink(missing_ok=True)
        elif old.exists():
            os.replace(old, target)
    fsync_directory(round_dir)
    journal.unlink()
    fsync_directory(round_dir.parent)
    _remove_leftovers(round_dir)
    return True


def _copy(round_dir: Path, role: str, name: str) -> Path:
    return round_dir.parent / f".{round_dir.name}.swap.{role}.{name}"


def _remove_leftovers(round_dir: Path) -> None:
    prefix = f".{round_dir.name}.swap."
    leftovers = [path for path in round_dir.parent.iterdir() if path.name.startswith(prefix)]
    for path in leftovers:
        path.unlink()
    if leftovers:
        fsync_directory(round_dir.parent)


def _write_synced(path: Path, data: bytes) -> None:
    with path.open("wb") as stream:
        stream.write(data)
        stream.flush()
        os.fsync(stream.fileno())
    os.chmod(path, 0o644)


def _digest(source: Path | bytes) -> str | None:
    if isinstance(source, bytes):
        return hashlib.sha256(source).hexdigest()
    if not source.exists():
        return None
    return hashlib.sha256(source.read_bytes()).hexdigest()
