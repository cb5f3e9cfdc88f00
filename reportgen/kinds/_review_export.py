"""Writing a kind's review export: its files into one folder, all or nothing.

Each kind's review part builds its own files (multidomain: audit.parquet and
calibration.parquet; counterfactual: the calibration, the mask audit and the extraction
checks, as Parquet or as the raw forms freeze reads) and writes them here, the one way:
each file atomically with mode 0600, and all of them complete before the first replaces
anything. This module imports nothing of the review app.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping
from pathlib import Path

from reportgen.errors import OutputExistsError


def write_export_files(
    files: Mapping[str, bytes], folder: Path, *, force: bool = False
) -> list[Path]:
    """Write `files` (name -> bytes) into `folder`, in the order of their names; returns
    their paths. An existing file is replaced only with `force`; nothing is written when
    one is refused."""
    targets = [folder / name for name in sorted(files)]
    existing = [str(path) for path in targets if path.exists()]
    if existing and not force:
        raise OutputExistsError(f"{', '.join(existing)}: already exists (use --force to replace)")
    folder.mkdir(parents=True, exist_ok=True)
    temporaries: list[tuple[Path, Path]] = []
    try:
        for target in targets:
            handle, name = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
            temporaries.append((Path(name), target))
            with os.fdopen(handle, "wb") as stream:
                stream.write(files[target.name])
                stream.flush()
                os.fsync(stream.fileno())
            # Private, as the judgment export: until frozen, they are the review's own
            # record (who scored what); freeze-export publishes them with the archive.
            os.chmod(name, 0o600)
        for temporary, target in temporaries:
            os.replace(temporary, target)
    finally:
        for temporary, _ in temporaries:
            temporary.unlink(missing_ok=True)
    return targets
