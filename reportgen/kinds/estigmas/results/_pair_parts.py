"""The index differences of neighbouring models, cached per pair of models (issue 19).

A pair's interval (the 2.5th and 97.5th percentiles of index(a) - index(b) over the
replicates) depends only on the two models' parts (`_model_parts`) and on N's weighted
totals, which every model shares: it is kept under `<cache>/models/pair-<key>.bin`, the key
being the SHA-256 of the two models' keys, the first model's first (the one earlier in the
ranking: the difference is computed first minus second, then mirrored). Adding one model
to a 1,000-model round changes two or three of its 1,000 neighbour pairs; the others are
read back. A file that is absent, truncated or corrupt is computed again.
"""

from __future__ import annotations

import contextlib
import hashlib
import struct
import zlib
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from reportgen.atomic import write_atomic
from reportgen.kinds.estigmas.stats.bootstrap import FloatArray, pair_intervals, ratio

_MAGIC = b"RGPP1\n"
_HEADER = struct.Struct("<6sI")  # magic, CRC-32 of the payload (two float64: lower, upper)
_PAYLOAD = 16


def cached_pair_intervals(
    failure_counts: FloatArray,
    scored_totals: FloatArray,
    pairs: Sequence[tuple[int, int]],
    keys: Sequence[str] | None,
    cache_dir: Path | None,
) -> tuple[FloatArray, FloatArray]:
    """`bootstrap.pair_intervals` of the index columns 1 - failure_counts / scored_totals
    ((R, M) and (R,)) for `pairs` of columns, the same values bit for bit; with `keys`
    (one per column) and `cache_dir`, each unordered pair is read from its file or
    computed (only the columns of the computed pairs are turned into index values)."""
    first_second = sorted({(min(a, b), max(a, b)) for a, b in pairs})
    found: dict[tuple[int, int], tuple[float, float]] = {}
    paths: dict[tuple[int, int], Path] = {}
    if keys is not None and cache_dir is not None:
        for pair in first_second:
            paths[pair] = cache_dir / f"pair-{_key(keys[pair[0]], keys[pair[1]])}.bin"
            bounds = _read(paths[pair])
            if bounds is not None:
                found[pair] = bounds
    missing = [pair for pair in first_second if pair not in found]
    if missing:
        columns = sorted({c for pair in missing for c in pair})
        at = {column: k for k, column in enumerate(columns)}
        index = ratio(failure_counts[:, columns], scored_totals[:, None])
        np.subtract(1.0, index, out=index)
        low, high = pair_intervals(index, [(at[a], at[b]) for a, b in missing])
        for k, pair in enumerate(missing):
            found[pair] = (float(low[k]), float(high[k]))
            if pair in paths:
                _write(paths[pair], found[pair])
    lower = np.array([found[a, b][0] if a < b else -found[b, a][1] for a, b in pairs])
    upper = np.array([found[a, b][1] if a < b else -found[b, a][0] for a, b in pairs])
    return lower, upper


def _key(first: str, second: str) -> str:
    return hashlib.sha256(f"pair\t{first}\t{second}".encode()).hexdigest()


def _read(path: Path) -> tuple[float, float] | None:
    try:
        data = path.read_bytes()
    except OSError:  # absent (or unreadable): computed again
        return None
    if len(data) != _HEADER.size + _PAYLOAD:
        return None
    magic, crc = _HEADER.unpack_from(data)
    payload = data[_HEADER.size :]
    if magic != _MAGIC or zlib.crc32(payload) != crc:
        return None
    lower, upper = struct.unpack("<2d", payload)
    return lower, upper


def _write(path: Path, bounds: tuple[float, float]) -> None:
    payload = struct.pack("<2d", *bounds)
    with contextlib.suppress(OSError):  # an unwritable cache only costs time on the next run
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, _HEADER.pack(_MAGIC, zlib.crc32(payload)) + payload)
