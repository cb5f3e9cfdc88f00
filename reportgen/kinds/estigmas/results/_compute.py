"""The Estigmas results object of a round: computed by the statistics engine, or cached.

`compute_results(round)` runs the whole statistics engine (docs/metrics.md) on a round;
`load_results(round)` does the same through the core results cache (`reportgen.results`),
keyed by the round's checksums and ledger, the package version, the results schema, the
bootstrap replicates and seed, and whether the round was read with its outputs' text.
Where that entry misses (a round that gained a model changes its checksums), the per-model
parts in the same cache (`_model_parts`) spare every model already bootstrapped.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Literal

import numpy as np

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.results._model_parts import MODEL_PARTS_FOLDER, round_parts
from reportgen.kinds.estigmas.results._pair_parts import cached_pair_intervals
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
    draw_replicates,
)
from reportgen.kinds.estigmas.stats.fairness import PERMUTATIONS, fairness_views
from reportgen.kinds.estigmas.stats.language import language_study
from reportgen.kinds.estigmas.stats.sensitivity import leave_one_out, rank_rows
from reportgen.kinds.estigmas.stats.significance import correlation, mcnemar_tests
from reportgen.results import cache_key as round_cache_key
from reportgen.results import cached_results, default_cache_dir
from reportgen.results._cache import replicate_count, results_header
from reportgen.stats import blas_threads


def compute_results(
    round: Round,
    replicates: int | None = None,
    on_progress: ProgressCallback | None = None,
    model_cache: Path | None = None,
) -> RoundResults:
    """The whole results object of a round (replicates default to the manifest's).

    `model_cache`, where given, is the folder of the per-model parts (`_model_parts`): a
    model whose part is there is not bootstrapped again (the results are the same, bit for
    bit). A small round runs on one BLAS thread (`reportgen.stats.blas_threads`): the work
    is the crossed bootstrap's, replicates x (3 models + 2) tables x stigmas x structures.
    """
    replicates = replicate_count(round, replicates)
    tables = 3 * len(round.models) + 2
    work = replicates * tables * len(round.stigmas) * len(round.structures)
    with blas_threads(work):
        return _compute_results(round, replicates, on_progress, model_cache)


# long: one call per statistic of the results object, one field per line
def _compute_results(
    round: Round, replicates: int, on_progress: ProgressCallback | None, model_cache: Path | None
) -> RoundResults:
    manifest = round.manifest
    cube = build_cube(round)
    scored = scored_items(round)
    scores = score_models(round, cube)
    position = {model_id: i for i, model_id in enumerate(cube.model_ids)}
    tables = ModelTables.from_items(cube, scored)
    draws = draw_replicates(manifest.bootstrap_seed, replicates, *tables.scored.shape)
    found = round_parts(round, (cube, scored, tables, draws), model_cache, on_progress)
    seed = manifest.bootstrap_seed
    parts = found.parts
    intervals = tuple(_model_intervals(s, parts[position[s.model_id]].bounds) for s in scores)
    # The failure counts in `scores` order: the ranked models first, in ranking order.
    order = [position[s.model_id] for s in scores]
    failure_counts = found.failure_counts(order)
    keys = None if found.keys is None else [found.keys[m] for m in order]
    differences, adjacent = _index_differences(
        scores,
        lambda wanted: cached_pair_intervals(
            failure_counts, found.shared_totals[:, 0], wanted, keys, model_cache
        ),
    )
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
        endpoint_error=_largest([part.endpoint_error for part in parts]),
        models=scores,
        intervals=intervals,
        ranks=_rank_intervals(scores, failure_counts),
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
        mcnemar=mcnemar_tests(cube.model_ids, scored.outcome, _in_order(pairs, cube.model_ids)),
        fairness=fairness_views(
            cube, round.stigmas, seed, intervals=np.stack([p.gap_bounds for p in parts])
        ),
        language=language_study(
            paired_sample(round), cube.model_ids, seed, replicates, on_progress, draws
        ),
    )


def _rank_intervals(
    scores: Sequence[ModelScore], failure_counts: FloatArray
) -> tuple[RankInterval, ...]:
    """Each ranked model's rank and the 2.5th-97.5th percentiles of its replicate ranks;
    `failure_counts` (R, M) in `scores` order, whose ranked models come first."""
    ranked = [s for s in scores if s.rank is not None]
    if not ranked:
        return ()
    ranks = rank_rows(failure_counts[:, : len(ranked)])
    # np.percentile(ranks, ..., method="lower" / "higher"), with numpy's own index arithmetic,
    # from one partition in place (two percentiles copied and partitioned 80 MB each).
    count = len(ranks)
    low = int(np.floor((count - 1) * (np.float64(LOWER_PERCENTILE) / 100)))
    high = int(np.ceil((count - 1) * (np.float64(UPPER_PERCENTILE) / 100)))
    ranks.partition(sorted({low, high}), axis=0)
    best, worst = ranks[low], ranks[high]
    return tuple(
        RankInterval(model_id=s.model_id, rank=int(s.rank or 0), best=int(b), worst=int(w))
        for s, b, w in zip(ranked, best, worst, strict=True)
    )


def _largest(errors: Sequence[float]) -> float | None:
    """The largest error of those that exist (NaN: none), as `endpoint_error` of every
    column side by side."""
    present = [error for error in errors if not np.isnan(error)]
    return max(present) if present else None


def _model_intervals(score: ModelScore, bounds: FloatArray) -> ModelIntervals:
    """One model's intervals, from its (statistics, 2) percentile bounds (NaN: none)."""
    intervals = {}
    for k, name in enumerate(MODEL_STATISTICS):
        denominator: Literal["N", "n"] = "N" if DENOMINATOR_OF[name] == "N" else "n"
        intervals[name] = Interval(
            estimate=float(getattr(score, name)),
            lower=optional(bounds[k, 0]),
            upper=optional(bounds[k, 1]),
            denominator=denominator,
            denominator_count=score.N if denominator == "N" else score.n,
        )
    return ModelIntervals(model_id=score.model_id, **intervals)


def _index_differences(
    scores: Sequence[ModelScore],
    intervals_of: Callable[[Sequence[tuple[int, int]]], tuple[FloatArray, FloatArray]],
) -> tuple[tuple[IndexDifference, ...], tuple[IndexDifference, ...]]:
    """The ordered pairs the pages show, and the neighbours in the ranking.

    Up to `ALL_PAIRS_UP_TO` models, every ordered pair of distinct models (the ranking's
    matrix, the compare page); beyond, the neighbours in the ranking, both ways.
    `intervals_of(pairs)` gives the intervals of index(a) - index(b) of (a, b) positions in
    `scores` (`_pair_parts.cached_pair_intervals`).
    """
    ids = [s.model_id for s in scores]
    column = {model_id: i for i, model_id in enumerate(ids)}
    ranked = [s.model_id for s in scores if s.rank is not None]
    neighbours = list(itertools.pairwise(ranked))
    if len(ids) <= ALL_PAIRS_UP_TO:
        wanted = [(a, b) for a in range(len(ids)) for b in range(len(ids)) if a != b]
    else:
        wanted = [(column[a], column[b]) for x, y in neighbours for a, b in ((x, y), (y, x))]
    lower, upper = intervals_of(wanted)
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


def load_results(
    round_: Round,
    replicates: int | None = None,
    cache_dir: Path | None = None,
    advance: ProgressCallback | None = None,
) -> RoundResults:
    """The results of a round, read from the cache when a valid entry exists; else computed
    with the per-model parts of the same cache (`<cache>/models/`), so that a round that
    only gained a model bootstraps that model alone."""
    count = round_.manifest.bootstrap_replicates if replicates is None else replicates
    parts = (default_cache_dir() if cache_dir is None else cache_dir) / MODEL_PARTS_FOLDER
    return cached_results(
        RoundResults,
        round_,
        _cache_parameters(round_, count),
        lambda: compute_results(round_, count, advance, parts),
        cache_dir,
    )
