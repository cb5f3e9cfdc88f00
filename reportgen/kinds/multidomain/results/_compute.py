"""The multidomain results object of a round: computed, or read from the core cache.

`build_results(round_)` runs every computation of multidomain-metrics.md; `load_results`
does the same through the core results cache (`reportgen.results`), keyed by the round's
checksums and ledger, the package version, the results schema and the bootstrap settings.
A site build computes them on the round as of its date (`terms.round_as_of`): the key
holds the ledger lines in effect, so builds for dates on either side of a decision never
share an entry.
"""

from __future__ import annotations

import contextlib
import gc
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import _sections as sections
from reportgen.kinds.multidomain.results._participants import (
    adjacent_pairs,
    primary_slice,
    score_tables,
    tie_groups_of,
    tied_pairs,
)
from reportgen.kinds.multidomain.results._schema import (
    SCHEMA,
    Counts,
    Exact,
    ParticipantResults,
    Results,
)
from reportgen.kinds.multidomain.score import RoundPoints, jury_outcomes, round_points
from reportgen.kinds.multidomain.stats.bootstrap import draw_weights
from reportgen.kinds.multidomain.stats.process import process_metrics
from reportgen.kinds.multidomain.terms import (
    active_items,
    ledger_digest,
    superseded_ids,
    test_items,
)
from reportgen.results import cache_key as round_cache_key
from reportgen.results._cache import replicate_count, results_header, results_loader
from reportgen.stats import blas_threads

Advance = Callable[[int], None]


def build_results(
    round_: Round, *, replicates: int | None = None, advance: Advance | None = None
) -> Results:
    """Every computation of multidomain-metrics.md on `round_` (replicates default to the
    manifest's `bootstrap.replicates`). A small round runs on one BLAS thread
    (`reportgen.stats.blas_threads`): the work is the win masses' product, replicates x
    items x participants²."""
    count = replicate_count(round_, replicates)
    work = count * len(round_.items) * len(round_.models) ** 2
    with blas_threads(work), _heap_frozen():
        return _build_results(round_, count, advance)


@contextlib.contextmanager
def _heap_frozen() -> Iterator[None]:
    """The garbage collector leaves the objects that exist now (the round: millions at 60
    x 2,100 x 3) out of its collections while the results are computed; its full
    collections would walk them all again and again (about a tenth of the integrity and
    jury sections' time there). Nothing is changed when something else froze the heap."""
    if gc.get_freeze_count():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


# long: one computation per section of the results object, one field per line
def _build_results(round_: Round, count: int, advance: Advance | None) -> Results:
    manifest = round_.manifest
    outcomes = jury_outcomes(round_)
    points = round_points(round_, outcomes=outcomes)
    weights = draw_weights(points.items, manifest.bootstrap_seed, count)
    # The head-to-head matrix runs beside the rest: its Elo kernel (at scale) releases
    # the interpreter lock, so the two cores share the round's two largest computations.
    with ThreadPoolExecutor(max_workers=1) as beside:
        pending = beside.submit(sections.pairwise_section, points, manifest.pairwise, weights)
        tables = score_tables(round_, points, weights)
        if advance is not None:
            advance(count)
        jury = sections.jury_section(outcomes)
        audit = sections.audit_section(round_, outcomes)
        calibration = sections.calibration_section(round_)
        contamination = sections.contamination_section(round_)
        dates = sections.dates_section(round_)
        duel = pending.result()
    if advance is not None:
        advance(count)
    tied = tied_pairs(tables, points.model_ids)
    position = {model_id: i for i, model_id in enumerate(points.model_ids)}
    scored = frozenset(item.item_id for item in points.items)
    jury_scored: Counter[str] = Counter()
    adjudicated: Counter[str] = Counter()
    for (item_id, model_id, _run), outcome in outcomes.items():
        if item_id in scored:
            jury_scored[model_id] += 1
            adjudicated[model_id] += outcome.adjudicated
    participants = []
    for model_id in tables.classification.order:
        model = position[model_id]
        participant = round_.models[model]
        slices = tables.slice_scores[model]
        process = process_metrics(points, model)
        values = tables.values[model_id]
        participants.append(
            ParticipantResults(
                model_id=model_id,
                display_name=participant.display_name,
                rank=tables.classification.ranks[model_id],
                points=Exact.of(sum(points.item_points[model], Fraction(0))),
                possible=sum(item.weight for item in points.items),
                primary=primary_slice(tables, model, points),
                global_score=slices[0],
                slices=slices[1:],
                judge_variance=_exact(values["judge_variance"]),
                cost_per_point=_exact(values["cost_per_point"]),
                elo=float(duel.elo[model]),
                elo_lo=float(duel.elo_bounds[0][model]),
                elo_hi=float(duel.elo_bounds[1][model]),
                bt=None if duel.bt is None else float(duel.bt[model]),
                bt_lo=None if duel.bt_bounds is None else float(duel.bt_bounds[0][model]),
                bt_hi=None if duel.bt_bounds is None else float(duel.bt_bounds[1][model]),
                process=sections.process_model(process),
                jury_scored=jury_scored[model_id],
                adjudicated=adjudicated[model_id],
            )
        )
    return Results(
        **results_header(SCHEMA, "multidomain", manifest, count),
        counts=_counts(round_, points),
        participants=tuple(participants),
        adjacent=adjacent_pairs(tables, points.model_ids, tied),
        tie_groups=tie_groups_of(tables, tied),
        pairwise=duel.section,
        jury=jury,
        audit=audit,
        calibration=calibration,
        contamination=contamination,
        dates=dates,
    )


def participant_ranks(round_: Round) -> dict[str, int]:
    """model_id -> rank (§3), as `build_results` gives it, without the other sections: the
    classification does not depend on the bootstrap, so one replicate is enough."""
    points = round_points(round_, outcomes=jury_outcomes(round_))
    weights = draw_weights(points.items, round_.manifest.bootstrap_seed, 1)
    return dict(score_tables(round_, points, weights).classification.ranks)


def _exact(value: Fraction | None) -> Exact | None:
    return None if value is None else Exact.of(value)


def _counts(round_: Round, points: RoundPoints) -> Counts:
    tests = test_items(round_.items)
    active = active_items(round_.items)
    active_ids = {item.item_id for item in active}
    annulled = [a for a in round_.annulments if a.item_id in active_ids]
    scored = {item.item_id for item in points.items}
    return Counts(
        test_items=len(tests),
        active_items=len(active),
        superseded_items=len(superseded_ids(round_.items)),
        annulled_items=len(annulled),
        scored_items=len(points.items),
        possible=sum(item.weight for item in active if item.item_id in scored),
        annulled_by_source=dict(sorted(Counter(a.source for a in annulled).items())),
    )


def _cache_parameters(round_: Round, replicates: int) -> list[str]:
    # "texts": results computed since the kind always reads the answers (the integrity
    # checks need them); entries made from a round read without them are not reused.
    # The ledger in effect: the core key hashes the ledger file, but a build as of a date
    # reads only the lines decided by then (terms.round_as_of).
    seed = str(round_.manifest.bootstrap_seed)
    return [SCHEMA, str(replicates), seed, "texts", f"ledger:{ledger_digest(round_)}"]


def cache_key(round_: Round, replicates: int) -> str:
    return round_cache_key(round_, _cache_parameters(round_, replicates))


# The results of a round, read from the cache when a valid entry exists.
load_results = results_loader(
    Results,
    _cache_parameters,
    lambda round_, count, advance: build_results(round_, replicates=count, advance=advance),
)
