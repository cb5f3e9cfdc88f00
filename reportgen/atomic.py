"""Atomic file writes: a reader sees the old file or the new one, never half of one.

The bytes go to a temporary file in the target's folder (the same file system, so the
final `os.replace` is atomic) and the temporary file is removed if anything fails.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_atomic(path: Path, data: bytes | str, *, mode: int = 0o644) -> None:
    """Write `data` (text is written as UTF-8) to `path` atomically, with `mode`
    (mkstemp makes a private file; what this project writes is plain data by default)."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(temporary, mode)
        with os.fdopen(handle, "wb") as stream:
            stream.write(payload)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def fsync_directory(directory: Path) -> None:
    """Make the renames and unlinks in `directory` durable (a rename is on disk only once
    its folder is synced)."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)
