"""A filled raw counterfactual round read as the typed round freeze would archive.

The review app collects a judged score's calibration before the round can be frozen
(freeze refuses a judged score without it, refusal 42). It reads the raw round with the
code freeze uses (`freeze.assemble_archive`: the dates, hashes, battery and
interpretations freeze computes), with the raw calibration left out and
calibration.parquet empty in its place: the archive is staged in a temporary folder,
read and verified by the core reader with the caller's `tolerate` (the calibration
rules, refusals 43 and 44, are what a pending calibration breaks), and the folder is
removed. Nothing is written into the raw round.

The typed round's `path` is the raw folder, and its `checksums` are the digests of the
raw files it was assembled from (`Assembled.sources`: round.json, models.csv, the
battery, items.parquet, responses/ and extractions/), not the staged archive's: they
name what the team filled in, and stay the same when the calibration file is added.
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import cast

from reportgen.archive import CHECKSUMS_FILE, MANIFEST_FILE, SLUG
from reportgen.errors import InputError, Problem
from reportgen.kinds.counterfactual.freeze import assemble_archive
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.rounds import read_round


def is_raw_round(folder: Path) -> bool:
    """A folder without SHA256SUMS is a raw round (an archive always has one)."""
    return not (folder / CHECKSUMS_FILE).exists()


def read_raw_round(
    raw_dir: Path,
    *,
    with_text: bool = True,
    tolerate: Callable[[Problem], bool] | None = None,
) -> Round:
    """The raw round at `raw_dir` as the typed round of its archive, calibration
    pending; ArchiveError (or InputError) listing what freeze would refuse, the
    `tolerate`d problems apart."""
    assembled = assemble_archive(raw_dir, with_calibration=False)
    if not SLUG.fullmatch(assembled.round_id):
        # It names the staging folder: it must not be a path.
        raise InputError(
            f"{raw_dir / MANIFEST_FILE}: round_id {assembled.round_id!r}: expected a slug "
            "(lowercase letters, digits and hyphens)"
        )
    with tempfile.TemporaryDirectory(prefix=".reportgen-raw-") as temporary:
        staging = Path(temporary) / assembled.round_id
        for rel, content in assembled.files.items():
            (staging / rel).parent.mkdir(parents=True, exist_ok=True)
            (staging / rel).write_bytes(content)
        round_ = read_round(staging, with_text=with_text, tolerate=tolerate)
    return dataclasses.replace(cast(Round, round_), path=raw_dir, checksums=dict(assembled.sources))
