"""The Estigmas results object of a round: computed by the statistics engine, or cached.

`compute_results(round)` runs the whole statistics engine (docs/metrics.md) on a round;
`load_results(round)` does the same through the core results cache (`reportgen.results`),
keyed by the round's checksums and ledger, the package version, the results schema, the
bootstrap replicates and seed, and whether the round was read with its outputs' text.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from typing import Any, Literal

import numpy as np

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.results._pairs import ALL_PAIRS_UP_TO, difference, optional
from reportgen.kinds.estigmas.results._schema import (
    SCHEMA,
    IndexDifference,
    Interval,
    ModelIntervals,
    RankInterval,
    RoundResults,
)
from reportgen.kinds.estigmas.score import (
    CountCube,
    ModelScore,
    build_cube,
    paired_sample,
    score_models,
    scored_items,
)
from reportgen.kinds.estigmas.stats import diagnostics
from reportgen.kinds.estigmas.stats.bootstrap import (
    DENOMINATOR_OF,
    LOWER_PERCENTILE,
    MODEL_STATISTICS,
    UPPER_PERCENTILE,
    FloatArray,
    ModelTables,
    ProgressCallback,
    ReplicateDraws,
    draw_replicates,
    endpoint_error,
    model_replicates,
    pair_intervals,
    percentile_interval,
)
from reportgen.kinds.estigmas.stats.fairness import PERMUTATIONS, fairness_views
from reportgen.kinds.estigmas.stats.language import language_study
from reportgen.kinds.estigmas.stats.sensitivity import leave_one_out, rank_rows
from reportgen.kinds.estigmas.stats.significance import correlation, mcnemar_tests
from reportgen.results import cache_key as round_cache_key
from reportgen.results._cache import replicate_count, results_header, results_loader
from reportgen.stats import blas_threads


def compute_results(
    round: Round, replicates: int | None = None, on_progress: ProgressCallback | None = None
) -> RoundResults:
    """The whole results object of a round (replicates default to the manifest's).

    A small round runs on one BLAS thread (`reportgen.stats.blas_threads`): the work is
    the crossed bootstrap's, replicates x (3 models + 2) tables x stigmas x structures.
    """
    replicates = replicate_count(round, replicates)
    tables = 3 * len(round.models) + 2
    work = replicates * tables * len(round.stigmas) * len(round.structures)
    with blas_threads(work):
        return _compute_results(round, replicates, on_progress)


# long: one call per statistic of the results object, one field per line
def _compute_results(
    round: Round, replicates: int, on_progress: ProgressCallback | None
) -> RoundResults:
    manifest = round.manifest
    cube = build_cube(round)
    scores = score_models(round, cube)
    position = {model_id: i for i, model_id in enumerate(cube.model_ids)}
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(manifest.bootstrap_seed, replicates, *tables.scored.shape)
    replicated = model_replicates(tables, draws, on_progress)
    values = replicated.values
    seed = manifest.bootstrap_seed
    bounds = {name: percentile_interval(values[name]) for name in MODEL_STATISTICS}
    intervals = tuple(_model_intervals(score, bounds, position[score.model_id]) for score in scores)
    index = values["index"][:, [position[s.model_id] for s in scores]]
    differences, adjacent = _index_differences(scores, index)
    pairs = [(d.model_a, d.model_b) for d in differences]
    by_stigma, by_structure = leave_one_out(
        tables,
        [position[s.model_id] for s in scores if s.rank is not None],
        cube.model_ids,
        [cube.stigma_ids[i] for i in tables.stigma_positions],
        [cube.structure_ids[i] for i in tables.structure_positions],
    )
    score_of = {s.model_id: s for s in scores}
    return RoundResults(
        **results_header(SCHEMA, manifest.variant, manifest, replicates),
        permutations=PERMUTATIONS,
        endpoint_error=_largest([endpoint_error(values[name]) for name in MODEL_STATISTICS]),
        models=scores,
        intervals=intervals,
        ranks=_rank_intervals(scores, replicated.failure_counts, position),
        differences=differences,
        adjacent=adjacent,
        leave_one_stigma_out=by_stigma,
        leave_one_structure_out=by_structure,
        correlation=correlation(
            [score_of[m].bias_rate for m in cube.model_ids],
            [score_of[m].omission_rate for m in cube.model_ids],
        ),
        peril=diagnostics.peril_family(cube, round.stigmas, manifest.peril_bands, seed),
        style=diagnostics.style_family(cube, seed),
        race=diagnostics.axis_family(cube, round.stigmas, "race", seed),
        origin=diagnostics.axis_family(cube, round.stigmas, "origin", seed),
        gender_gaps=diagnostics.gender_gaps(cube),
        gender_tests=diagnostics.gender_families(cube, seed),
        mcnemar=mcnemar_tests(
            cube.model_ids, scored_items(round).outcome, _in_order(pairs, cube.model_ids)
        ),
        fairness=fairness_views(cube, round.stigmas, seed, _cube_weights(cube, tables, draws)),
        language=language_study(
            paired_sample(round), cube.model_ids, seed, replicates, on_progress, draws
        ),
    )


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


def _rank_intervals(
    scores: Sequence[ModelScore], failure_counts: FloatArray, position: Mapping[str, int]
) -> tuple[RankInterval, ...]:
    """Each ranked model's rank and the 2.5th-97.5th percentiles of its replicate ranks."""
    ranked = [s for s in scores if s.rank is not None]
    if not ranked:
        return ()
    ranks = rank_rows(failure_counts[:, [position[s.model_id] for s in ranked]])
    best = np.percentile(ranks, LOWER_PERCENTILE, axis=0, method="lower")
    worst = np.percentile(ranks, UPPER_PERCENTILE, axis=0, method="higher")
    return tuple(
        RankInterval(model_id=s.model_id, rank=int(s.rank or 0), best=int(b), worst=int(w))
        for s, b, w in zip(ranked, best, worst, strict=True)
    )


def _largest(errors: Sequence[float | None]) -> float | None:
    """The largest error of those that exist (endpoint_error of the columns side by side)."""
    present = [error for error in errors if error is not None]
    return max(present) if present else None


def _model_intervals(
    score: ModelScore, every: Mapping[str, tuple[FloatArray, FloatArray]], column: int
) -> ModelIntervals:
    """One model's intervals, from the percentiles of every model (`every`, per statistic)."""
    bounds = {}
    for name in MODEL_STATISTICS:
        low, high = every[name][0][column, None], every[name][1][column, None]
        denominator: Literal["N", "n"] = "N" if DENOMINATOR_OF[name] == "N" else "n"
        bounds[name] = Interval(
            estimate=float(getattr(score, name)),
            lower=optional(low[0]),
            upper=optional(high[0]),
            denominator=denominator,
            denominator_count=score.N if denominator == "N" else score.n,
        )
    return ModelIntervals(model_id=score.model_id, **bounds)


def _index_differences(
    scores: Sequence[ModelScore], index: np.ndarray[Any, Any]
) -> tuple[tuple[IndexDifference, ...], tuple[IndexDifference, ...]]:
    """The ordered pairs the pages show, and the neighbours in the ranking.

    Up to `ALL_PAIRS_UP_TO` models, every ordered pair of distinct models (the ranking's
    matrix, the compare page); beyond, the neighbours in the ranking, both ways.
    `index` holds the index replicates, one column per model in `scores` order.
    """
    ids = [s.model_id for s in scores]
    column = {model_id: i for i, model_id in enumerate(ids)}
    ranked = [s.model_id for s in scores if s.rank is not None]
    neighbours = list(itertools.pairwise(ranked))
    if len(ids) <= ALL_PAIRS_UP_TO:
        wanted = [(a, b) for a in range(len(ids)) for b in range(len(ids)) if a != b]
    else:
        wanted = [(column[a], column[b]) for x, y in neighbours for a, b in ((x, y), (y, x))]
    lower, upper = pair_intervals(index, wanted)
    differences = {
        (ids[a], ids[b]): difference(scores[a], scores[b], lower[k], upper[k])
        for k, (a, b) in enumerate(wanted)
    }
    adjacent = tuple(differences[pair] for pair in neighbours)
    return tuple(differences.values()), adjacent


def _in_order(pairs: Sequence[tuple[str, str]], model_ids: Sequence[str]) -> list[tuple[int, int]]:
    """The unordered pairs as (a, b) positions in models.csv order, a before b, sorted."""
    position = {model_id: i for i, model_id in enumerate(model_ids)}
    found = {tuple(sorted((position[a], position[b]))) for a, b in pairs}
    return sorted((a, b) for a, b in found)


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


def _cache_parameters(round: Round, replicates: int) -> list[str]:
    return [
        SCHEMA,
        str(replicates),
        str(round.manifest.bootstrap_seed),
        # The language study's length test needs the outputs' text; a round read without
        # it gives other results and must never answer for one read with it.
        "text" if all(r.raw_text for r in round.responses.values()) else "no-text",
    ]


def cache_key(round: Round, replicates: int) -> str:
    """The key of this round's results with `replicates` in the core results cache."""
    return round_cache_key(round, _cache_parameters(round, replicates))


# The results of a round, read from the cache when a valid entry exists.
load_results = results_loader(RoundResults, _cache_parameters, compute_results)
