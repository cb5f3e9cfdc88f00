"""Which archive a round folder holds: its round_id and the hash of its SHA256SUMS.

The review database records both when a round enters it (`review_app.rounds.sampling`) and
checks them before anything is appended to the round's annulment ledger
(`review_app.rounds.contest`): a folder that was replaced by another archive, or another
copy of the round that has since changed, must not receive the decision.

A raw round (a counterfactual round whose judge is calibrated before it can be frozen)
has no SHA256SUMS yet: its identity is the hash of the listing SHA256SUMS would hold for
the raw files it is read from (`listing_sha256` of the round's `checksums`), the
calibration file the app produces excluded.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq

from reportgen.archive import CHECKSUMS_FILE, ITEMS_FILE, MANIFEST_FILE
from review_app.core.errors import ReviewInputError


@dataclass(frozen=True)
class RoundIdentity:
    round_id: str
    sums_sha256: str


def sums_sha256(round_dir: Path) -> str | None:
    """The hash of the folder's SHA256SUMS, or None when it has none."""
    try:
        return hashlib.sha256((round_dir / CHECKSUMS_FILE).read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
    except OSError as error:
        raise ReviewInputError("error_round_unreadable", path=str(round_dir), why=error) from None


def listing_sha256(checksums: Mapping[str, str]) -> str:
    """The hash of a `sha256sum` listing (SHA256SUMS's form, sorted by path)."""
    listing = "".join(f"{checksums[rel]}  {rel}\n" for rel in sorted(checksums))
    return hashlib.sha256(listing.encode("utf-8")).hexdigest()


def identity_of(round_dir: Path) -> RoundIdentity:
    """The identity of the archive the folder holds now (ReviewInputError if none)."""
    digest = sums_sha256(round_dir)
    try:
        manifest = json.loads((round_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
    except FileNotFoundError:
        manifest = None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ReviewInputError("error_round_unreadable", path=str(round_dir), why=error) from None
    round_id = manifest.get("round_id") if isinstance(manifest, dict) else None
    if digest is None or not isinstance(round_id, str):
        raise ReviewInputError("error_round_missing", path=str(round_dir))
    return RoundIdentity(round_id, digest)


def check_identity(round_dir: Path, round_id: str, recorded_sums_sha256: str | None) -> None:
    """Refuse unless the folder still holds the archive recorded for `round_id`."""
    if recorded_sums_sha256 is None:
        raise ReviewInputError("error_round_identity_unknown", round_id=round_id)
    found = identity_of(round_dir)
    if found != RoundIdentity(round_id, recorded_sums_sha256):
        raise ReviewInputError(
            "error_round_other_archive",
            path=str(round_dir),
            round_id=round_id,
            recorded=recorded_sums_sha256[:12],
            found_round_id=found.round_id,
            found=found.sums_sha256[:12],
        )


def item_ids_of(round_dir: Path) -> frozenset[str]:
    """The item ids of the archive the folder holds (items.parquet)."""
    path = round_dir / ITEMS_FILE
    if not path.is_file():
        raise ReviewInputError("error_round_missing", path=str(round_dir))
    table = pq.read_table(path, columns=["item_id"])
    return frozenset(str(v) for v in table.column("item_id").to_pylist())
