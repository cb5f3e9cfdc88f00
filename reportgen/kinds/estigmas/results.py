"""One plain, JSON-serialisable results object per round: everything any page shows.

`compute_results(round)` runs the whole statistics engine (metrics.md) on a round;
`load_results(round)` does the same through an on-disk cache. The JSON form
(`RoundResults.to_json_dict()`, written by `reportgen stats ROUND --out results.json`) is
the dataclasses below, field for field: a dataclass is an object with its fields in
declaration order, a tuple is a list, `None` is `null`. `schema` names the version of
that form and changes whenever a field does. Top-level keys: schema, round_id, kind,
synthetic, package_version, replicates, seed; models (ModelScore, ranking order);
intervals (per model: failure, index, bias_rate, omission_rate, correct_rate, each
{estimate, lower, upper, denominator, denominator_count}); differences (index difference
with interval for every ordered pair) and adjacent (neighbours in the ranking);
leave_one_stigma_out and leave_one_structure_out; correlation; peril, style, race,
origin (test families); gender_gaps and gender_tests (one family per model); mcnemar;
fairness; language. Rates and p-values are unrounded floats.

Cache: one file per (archive, ledger, package version, replicates, seed), named after the
SHA-256 of the SHA256SUMS bytes, the ledger's SHA-256, the package version, the schema and
the bootstrap settings. The directory is `--cache-dir`, else `$REPORTGEN_CACHE_DIR`, else
`~/.cache/reportgen`. A cache file that cannot be read back is ignored and recomputed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import itertools
import json
import os
import tempfile
import types
import typing
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from reportgen import __version__
from reportgen.errors import InputError
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import (
    ModelScore,
    build_cube,
    paired_sample,
    score_models,
    scored_items,
)
from reportgen.kinds.estigmas.stats import diagnostics
from reportgen.kinds.estigmas.stats.bootstrap import (
    DENOMINATOR_OF,
    MODEL_STATISTICS,
    ModelTables,
    ProgressCallback,
    difference_intervals,
    draw_replicates,
    model_replicates,
    percentile_interval,
)
from reportgen.kinds.estigmas.stats.fairness import FairnessGaps, fairness_views
from reportgen.kinds.estigmas.stats.language import LanguageStudy, language_study
from reportgen.kinds.estigmas.stats.sensitivity import LeaveOneOut, leave_one_out
from reportgen.kinds.estigmas.stats.significance import (
    Correlation,
    McNemarTest,
    TestFamily,
    correlation,
    mcnemar_tests,
)

SCHEMA = "reportgen-results/1"
CACHE_ENV = "REPORTGEN_CACHE_DIR"


@dataclass(frozen=True)
class Interval:
    """A point estimate with its 95% crossed-bootstrap percentile interval."""

    estimate: float
    lower: float | None  # None only when no replicate had a non-zero denominator
    upper: float | None
    denominator: str  # "N" (scored items) or "n" (scored items of style positive)
    denominator_count: int


@dataclass(frozen=True)
class ModelIntervals:
    model_id: str
    failure: Interval
    index: Interval
    bias_rate: Interval
    omission_rate: Interval
    correct_rate: Interval


@dataclass(frozen=True)
class IndexDifference:
    """index(model_a) - index(model_b) with its interval from the same replicates."""

    model_a: str
    model_b: str
    estimate: float
    lower: float | None
    upper: float | None
    separated: bool  # the interval excludes zero


@dataclass(frozen=True)
class RoundResults:
    schema: str
    round_id: str
    kind: str
    synthetic: bool
    package_version: str
    replicates: int
    seed: int
    models: tuple[ModelScore, ...]  # score_models order: ranked, then diagnostic cases
    intervals: tuple[ModelIntervals, ...]  # same order
    differences: tuple[IndexDifference, ...]  # every ordered pair of distinct models
    adjacent: tuple[IndexDifference, ...]  # neighbours in the ranking, best first
    leave_one_stigma_out: LeaveOneOut
    leave_one_structure_out: LeaveOneOut
    correlation: Correlation
    peril: TestFamily
    style: TestFamily
    race: TestFamily
    origin: TestFamily
    gender_gaps: tuple[diagnostics.GenderGap, ...]
    gender_tests: tuple[TestFamily, ...]  # one family per model
    mcnemar: tuple[McNemarTest, ...]
    fairness: tuple[FairnessGaps, ...]
    language: LanguageStudy

    def to_json_dict(self) -> dict[str, Any]:
        converted: dict[str, Any] = _to_json(self)
        return converted

    @classmethod
    def from_json_dict(cls, data: Mapping[str, Any]) -> RoundResults:
        if data.get("schema") != SCHEMA:
            raise ValueError(f"results schema {data.get('schema')!r}, expected {SCHEMA!r}")
        results: RoundResults = _from_json(cls, data)
        return results


def compute_results(
    round: Round, replicates: int | None = None, on_progress: ProgressCallback | None = None
) -> RoundResults:
    """The whole results object of a round (replicates default to the manifest's)."""
    manifest = round.manifest
    replicates = manifest.bootstrap_replicates if replicates is None else replicates
    if replicates < 1:
        raise InputError(
            f"{round.path / 'round.json'}: bootstrap.replicates must be at least 1,"
            f" got {replicates}"
        )
    cube = build_cube(round)
    scores = score_models(round, cube)
    position = {model_id: i for i, model_id in enumerate(cube.model_ids)}
    order = [position[s.model_id] for s in scores]
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(manifest.bootstrap_seed, replicates, *tables.scored.shape)
    values = model_replicates(tables, draws, on_progress).values
    intervals = tuple(_model_intervals(score, values, position[score.model_id]) for score in scores)
    index = values["index"][:, order]
    lower, upper = difference_intervals(index)
    ids = [s.model_id for s in scores]
    differences = {
        (ids[a], ids[b]): _difference(scores[a], scores[b], lower[a, b], upper[a, b])
        for a in range(len(ids))
        for b in range(len(ids))
        if a != b
    }
    ranked = [s for s in scores if s.rank is not None]
    ranked_positions = [position[s.model_id] for s in ranked]
    by_stigma, by_structure = leave_one_out(
        tables,
        ranked_positions,
        cube.model_ids,
        [cube.stigma_ids[i] for i in tables.stigma_positions],
        [cube.structure_ids[i] for i in tables.structure_positions],
    )
    items = scored_items(round)
    score_of = {s.model_id: s for s in scores}
    return RoundResults(
        schema=SCHEMA,
        round_id=manifest.round_id,
        kind=manifest.variant,
        synthetic=manifest.synthetic,
        package_version=__version__,
        replicates=replicates,
        seed=manifest.bootstrap_seed,
        models=scores,
        intervals=intervals,
        differences=tuple(differences.values()),
        adjacent=tuple(differences[a.model_id, b.model_id] for a, b in itertools.pairwise(ranked)),
        leave_one_stigma_out=by_stigma,
        leave_one_structure_out=by_structure,
        correlation=correlation(
            [score_of[m].bias_rate for m in cube.model_ids],
            [score_of[m].omission_rate for m in cube.model_ids],
        ),
        peril=diagnostics.peril_family(cube, round.stigmas, manifest.peril_bands),
        style=diagnostics.style_family(cube),
        race=diagnostics.axis_family(cube, round.stigmas, "race"),
        origin=diagnostics.axis_family(cube, round.stigmas, "origin"),
        gender_gaps=diagnostics.gender_gaps(cube),
        gender_tests=diagnostics.gender_families(cube),
        mcnemar=mcnemar_tests(cube.model_ids, items.outcome),
        fairness=fairness_views(cube, round.stigmas),
        language=language_study(
            paired_sample(round), cube.model_ids, manifest.bootstrap_seed, replicates, on_progress
        ),
    )


def _optional(value: np.floating[Any]) -> float | None:
    return None if np.isnan(value) else float(value)


def _model_intervals(
    score: ModelScore, values: Mapping[str, np.ndarray[Any, Any]], column: int
) -> ModelIntervals:
    bounds = {}
    for name in MODEL_STATISTICS:
        low, high = percentile_interval(values[name][:, column, None])
        denominator = DENOMINATOR_OF[name]
        bounds[name] = Interval(
            estimate=float(getattr(score, name)),
            lower=_optional(low[0]),
            upper=_optional(high[0]),
            denominator=denominator,
            denominator_count=score.N if denominator == "N" else score.n,
        )
    return ModelIntervals(model_id=score.model_id, **bounds)


def _difference(
    a: ModelScore, b: ModelScore, lower: np.floating[Any], upper: np.floating[Any]
) -> IndexDifference:
    low, high = _optional(lower), _optional(upper)
    return IndexDifference(
        model_a=a.model_id,
        model_b=b.model_id,
        estimate=a.index - b.index,
        lower=low,
        upper=high,
        separated=low is not None and high is not None and (low > 0 or high < 0),
    )


def model_intervals(results: RoundResults) -> dict[str, dict[str, tuple[float, float]]]:
    """model_id -> statistic -> (lower, upper), for `summary --json` ("ci").

    A statistic without an interval (no replicate had a non-zero denominator) is left out.
    """
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for entry in results.intervals:
        per_statistic: dict[str, tuple[float, float]] = {}
        for name in MODEL_STATISTICS:
            interval: Interval = getattr(entry, name)
            if interval.lower is not None and interval.upper is not None:
                per_statistic[name] = (interval.lower, interval.upper)
        out[entry.model_id] = per_statistic
    return out


# --- the on-disk cache -------------------------------------------------------------------


def default_cache_dir() -> Path:
    configured = os.environ.get(CACHE_ENV)
    return Path(configured) if configured else Path.home() / ".cache" / "reportgen"


def cache_key(round: Round, replicates: int) -> str:
    sums_path = round.path / "SHA256SUMS"
    sums = sums_path.read_bytes() if sums_path.is_file() else b""
    digest = hashlib.sha256()
    parts = [
        hashlib.sha256(sums).hexdigest(),
        round.ledger_sha256,
        __version__,
        SCHEMA,
        str(replicates),
        str(round.manifest.bootstrap_seed),
        # The language study's length test needs the outputs' text; a round read without
        # it gives other results and must never answer for one read with it.
        "text" if all(r.raw_text for r in round.responses.values()) else "no-text",
    ]
    for part in parts:  # length-prefixed, so that no two part lists give the same bytes
        encoded = part.encode()
        digest.update(len(encoded).to_bytes(8, "big") + encoded)
    return digest.hexdigest()


def load_results(
    round: Round,
    replicates: int | None = None,
    cache_dir: Path | None = None,
    on_progress: ProgressCallback | None = None,
) -> RoundResults:
    """The results of `round`, read from the cache when a valid entry exists."""
    replicates = round.manifest.bootstrap_replicates if replicates is None else replicates
    directory = default_cache_dir() if cache_dir is None else cache_dir
    path = directory / f"results-{cache_key(round, replicates)}.json"
    try:
        return RoundResults.from_json_dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass  # absent or corrupt: recompute and overwrite
    results = compute_results(round, replicates, on_progress)
    with contextlib.suppress(OSError):  # an unwritable cache only costs time on the next run
        write_json(path, results.to_json_dict())
    return results


def write_json(path: Path, data: Mapping[str, Any]) -> None:
    """Write atomically: a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(temporary, 0o644)  # mkstemp makes it private; results are plain public data
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, ensure_ascii=False, indent=1, allow_nan=False)
            stream.write("\n")
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


# --- the JSON form -----------------------------------------------------------------------

_T = TypeVar("_T")


def _to_json(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _to_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, tuple | list):
        return [_to_json(v) for v in value]
    return value


def _from_json(kind: Any, data: Any) -> Any:
    """Rebuild a value of type `kind` from its JSON form, checking every type on the way."""
    origin = typing.get_origin(kind)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        if not isinstance(data, dict):
            raise TypeError(f"expected an object for {kind.__name__}")
        hints = typing.get_type_hints(kind)
        names = [f.name for f in dataclasses.fields(kind)]
        if set(data) != set(names):
            raise KeyError(f"{kind.__name__}: fields {sorted(data)}, expected {sorted(names)}")
        return kind(**{name: _from_json(hints[name], data[name]) for name in names})
    if origin is tuple:
        arguments = typing.get_args(kind)
        if not isinstance(data, list):
            raise TypeError(f"expected a list for {kind}")
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return tuple(_from_json(arguments[0], v) for v in data)
        return tuple(_from_json(a, v) for a, v in zip(arguments, data, strict=True))
    if origin is types.UnionType or origin is typing.Union:
        if data is None and type(None) in typing.get_args(kind):
            return None
        (inner,) = (a for a in typing.get_args(kind) if a is not type(None))
        return _from_json(inner, data)
    if kind is float and isinstance(data, int | float) and not isinstance(data, bool):
        return float(data)
    if kind in (int, str, bool) and type(data) is kind:
        return data
    raise TypeError(f"expected {kind}, found {type(data).__name__}")
