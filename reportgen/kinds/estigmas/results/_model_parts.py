"""The per-model parts of the results, each computed from one model's counts, cached per model.

Issue 19: adding one model to a 1,000-model continuous round changed the round's checksums,
so the whole results object was computed again (about 15 s). Most of that work is per model:
the crossed bootstrap's draws depend only on the seed, the replicate count and the resampled
levels, never on the models, so a model's weighted failure counts in every replicate, its
five percentile intervals, its percentiles' Monte Carlo error and its fairness gaps'
intervals depend only on its own answers and on what every model shares (the scored items,
the draws). Those parts (`ModelPart`) are kept one file per model under
`<cache>/models/<key>.bin`; what needs every model at once (ranks, neighbour differences,
tests corrected together) is computed from them in `_compute`.

Bit for bit: the weighted totals are exact integers (`bootstrap.weighted_totals`), and the
percentiles, errors and gaps are computed per column, so a model's part is the same whether
it was computed alone, beside others, or read back from its file. The key of a file is the
SHA-256 of the file format, the revision of the code that computes results, the bootstrap's
replicates and seed, everything shared (the scored items' coordinates, the stigmas and
structures with each stigma's axis) and the model's own outcome on each scored item.
A file that is absent, truncated or corrupt (its CRC-32 disagrees) is computed again and
rewritten; an unwritable cache only costs the time of computing.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import struct
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from reportgen.atomic import write_atomic
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import CountCube, ScoredItems
from reportgen.kinds.estigmas.stats.bootstrap import (
    MODEL_STATISTICS,
    FloatArray,
    ModelTables,
    ProgressCallback,
    ReplicateDraws,
    percentile_interval,
    statistics_from_totals,
    weighted_totals,
)
from reportgen.kinds.estigmas.stats.endpoint import endpoint_errors
from reportgen.kinds.estigmas.stats.fairness import GAP_VIEWS, gap_intervals
from reportgen.results._cache import _CORE_SOURCES, code_revision

# The folder of the parts in the results cache.
MODEL_PARTS_FOLDER = "models"
# Changes whenever the layout of a part file or what a part holds changes.
_FORMAT = b"reportgen-estigmas-model-part-1"
_KIND_FOLDER = Path(__file__).resolve().parents[1]
# File layout: magic, CRC-32 of the payload, the failure counts' storage type, payload.
_MAGIC = b"RGMP1\n"
_HEADER = struct.Struct("<6sIB")
# The failure counts are exact integers: stored in the smallest exact type (a 10,000
# replicate model is 20 kB as uint16, not 80 kB as float64; the file per model is read
# back at every warm build).
_COUNT_TYPES: tuple[np.dtype[Any], ...] = (np.dtype("<u2"), np.dtype("<u4"), np.dtype("<f8"))
_COUNT_LIMITS = (2.0**16 - 1, 2.0**32 - 1, math.inf)  # the largest value each holds exactly
_SMALL = 1 + 2 * len(MODEL_STATISTICS) + 2 * len(GAP_VIEWS)  # error, bounds, gap bounds


@dataclass(frozen=True)
class ModelPart:
    """What the results take from one model's counts alone."""

    failure_counts: FloatArray  # (R,) weighted biased + omissions (exact integers)
    bounds: FloatArray  # (len(MODEL_STATISTICS), 2): 2.5th, 97.5th percentile (NaN: none)
    endpoint_error: float  # largest percentile error of its columns (NaN: none)
    gap_bounds: FloatArray  # (len(GAP_VIEWS), 2): fairness gaps' intervals (NaN: none)


# Columns copied into the (R, M) failure counts at a time: a block of parts is stacked
# (rows contiguous) and written transposed, instead of one strided column per model.
_BLOCK = 128


@dataclass(frozen=True)
class RoundParts:
    """Every model's part (cube order) and the shared weighted totals of N and n (R, 2)."""

    parts: tuple[ModelPart, ...]
    shared_totals: FloatArray
    computed: FloatArray | None  # (R, M) failure counts, where every part was computed
    keys: tuple[str, ...] | None  # each part's key in the cache (None: no cache)

    def failure_counts(self, order: Sequence[int]) -> FloatArray:
        """(R, len(order)): the failure counts of the models at `order` (cube positions)."""
        if self.computed is not None:
            return self.computed[:, list(order)]
        out = np.empty((len(self.shared_totals), len(order)))
        for start in range(0, len(order), _BLOCK):
            chosen = order[start : start + _BLOCK]
            block = np.stack([self.parts[m].failure_counts for m in chosen])
            out[:, start : start + len(chosen)] = block.T
        return out


def round_parts(
    round: Round,
    context: tuple[CountCube, ScoredItems, ModelTables, ReplicateDraws],
    cache_dir: Path | None,
    on_progress: ProgressCallback | None = None,
) -> RoundParts:
    """Every model's part: read from `cache_dir` where a valid file exists, else computed
    (all missing models in one pass) and stored there. `cache_dir=None`: no cache."""
    cube, scored, tables, draws = context
    models = len(cube.model_ids)
    keys = _keys(round, scored, draws) if cache_dir is not None else [""] * models
    found: list[ModelPart | None] = [None] * models
    if cache_dir is not None:
        found = [_read(cache_dir / f"{key}.bin", draws.replicates) for key in keys]
    missing = [m for m in range(models) if found[m] is None]
    weights = _cube_weights(cube, tables, draws)
    computed, shared, block = _compute(round, (cube, tables, draws), weights, missing, on_progress)
    for m, part in zip(missing, computed, strict=True):
        found[m] = part
        if cache_dir is not None:
            _write(cache_dir / f"{keys[m]}.bin", part)
    parts = tuple(part for part in found if part is not None)
    every = block if len(missing) == models else None
    return RoundParts(parts, shared, every, None if cache_dir is None else tuple(keys))


def _compute(
    round: Round,
    context: tuple[CountCube, ModelTables, ReplicateDraws],
    weights: tuple[FloatArray, FloatArray],
    missing: Sequence[int],
    on_progress: ProgressCallback | None,
) -> tuple[list[ModelPart], FloatArray, FloatArray]:
    """The parts of the `missing` models, the shared (R, 2) totals, the (R, k) failures.

    The shared totals are weighted every time (two tables, cheap), which also runs every
    replicate through `on_progress` once, however many models were read from the cache.
    """
    cube, tables, draws = context
    chosen = list(missing)
    stacked = np.concatenate(
        [
            tables.biased[chosen],
            tables.omissions[chosen],
            tables.correct[chosen],
            tables.scored[None],
            tables.positive[None],
        ]
    )
    totals = weighted_totals(
        stacked, draws.stigma_weights(), draws.structure_weights(), on_progress
    )
    count = len(chosen)
    shared = totals[:, 3 * count :]
    if not chosen:
        return [], shared, np.empty((draws.replicates, 0))
    replicated = statistics_from_totals(totals, count)
    bounds = np.stack(
        [np.stack(percentile_interval(replicated.values[n]), axis=1) for n in MODEL_STATISTICS],
        axis=1,
    )  # (k, statistics, 2)
    errors = np.fmax.reduce([endpoint_errors(replicated.values[n]) for n in MODEL_STATISTICS])
    gaps = gap_intervals(cube, round.stigmas, weights, chosen)  # (k, views, 2)
    failures = replicated.failure_counts
    parts = [ModelPart(failures[:, j], bounds[j], float(errors[j]), gaps[j]) for j in range(count)]
    return parts, shared, failures


def _cube_weights(
    cube: CountCube, tables: ModelTables, draws: ReplicateDraws
) -> tuple[FloatArray, FloatArray]:
    """The replicates' weights over every stigma and structure of the cube.

    The fairness gaps resample the same levels as the intervals; a level outside the
    resampling (no scored item) weighs zero. Where every level is resampled (a full round),
    the weights are the draws' own (read-only), not a copy.
    """
    return (
        _every_level(draws.stigma_weights(), tables.stigma_positions, len(cube.stigma_ids)),
        _every_level(
            draws.structure_weights(), tables.structure_positions, len(cube.structure_ids)
        ),
    )


def _every_level(weights: FloatArray, positions: Sequence[int], levels: int) -> FloatArray:
    """(R, levels): `weights` (R, len(positions)) at `positions`, zero elsewhere."""
    if len(positions) == levels:  # positions are increasing indexes: all of them, in order
        return weights
    spread = np.zeros((weights.shape[0], levels))
    spread[:, list(positions)] = weights
    return spread


def _keys(round: Round, scored: ScoredItems, draws: ReplicateDraws) -> list[str]:
    """One key per model (cube order): what is shared, then the model's own outcomes."""
    shared = hashlib.sha256()
    revision = code_revision(*_CORE_SOURCES, _KIND_FOLDER)
    replicates, stigmas, structures = draws.shape
    header = [_FORMAT, revision.encode(), str(draws.seed).encode()]
    header.append(f"{replicates}/{stigmas}/{structures}".encode())
    header += [f"{s.stigma_id}\t{s.axis}".encode() for s in round.stigmas]
    header += [s.structure_id.encode() for s in round.structures]
    coordinates = (scored.stigma_index, scored.structure_index, scored.style_index)
    header += [np.ascontiguousarray(a).tobytes() for a in (*coordinates, scored.gender_index)]
    for part in header:  # length-prefixed, so that no two part lists give the same bytes
        shared.update(len(part).to_bytes(8, "big") + part)
    keys = []
    for row in scored.outcome:
        digest = shared.copy()
        digest.update(np.ascontiguousarray(row, dtype=np.int8).tobytes())
        keys.append(digest.hexdigest())
    return keys


def _encode(part: ModelPart) -> bytes:
    counts = part.failure_counts
    largest = float(counts.max(initial=0))
    code = next(i for i, limit in enumerate(_COUNT_LIMITS) if largest <= limit)
    small = np.concatenate([[part.endpoint_error], part.bounds.ravel(), part.gap_bounds.ravel()])
    payload = small.astype("<f8").tobytes() + counts.astype(_COUNT_TYPES[code]).tobytes()
    return _HEADER.pack(_MAGIC, zlib.crc32(payload), code) + payload


def _decode(data: bytes, replicates: int) -> ModelPart | None:
    """The part in `data`, None unless it is whole (magic, type, length and CRC-32)."""
    if len(data) < _HEADER.size:
        return None
    magic, crc, code = _HEADER.unpack_from(data)
    if magic != _MAGIC or code >= len(_COUNT_TYPES):
        return None
    payload = data[_HEADER.size :]
    if len(payload) != 8 * _SMALL + _COUNT_TYPES[code].itemsize * replicates:
        return None
    if zlib.crc32(payload) != crc:
        return None
    small = np.frombuffer(payload, dtype="<f8", count=_SMALL).astype(np.float64)
    counts = np.frombuffer(payload, dtype=_COUNT_TYPES[code], offset=8 * _SMALL)
    statistics = 2 * len(MODEL_STATISTICS)
    return ModelPart(
        failure_counts=counts.astype(np.float64),
        bounds=small[1 : 1 + statistics].reshape(-1, 2),
        endpoint_error=float(small[0]),
        gap_bounds=small[1 + statistics :].reshape(-1, 2),
    )


def _read(path: Path, replicates: int) -> ModelPart | None:
    try:
        data = path.read_bytes()
    except OSError:  # absent (or unreadable): computed again
        return None
    return _decode(data, replicates)


def _write(path: Path, part: ModelPart) -> None:
    with contextlib.suppress(OSError):  # an unwritable cache only costs time on the next run
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, _encode(part))
