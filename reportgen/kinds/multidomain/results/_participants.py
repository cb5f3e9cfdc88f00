"""Per-participant parts of the results object: slice scores with intervals, the
classification values, the technical ties and adjacent pairs (metrics §2-§4)."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results._schema import AdjacentPair, SliceScore, exact
from reportgen.kinds.multidomain.score import RoundPoints
from reportgen.kinds.multidomain.stats import bootstrap as bs
from reportgen.kinds.multidomain.stats import scores
from reportgen.kinds.multidomain.stats.classify import (
    Classification,
    Values,
    classify,
    cost_per_point,
    judge_variance,
)

# Slices with a bootstrap interval (§4); types and runs are shown without one.
WITH_INTERVAL = ("global", "domain:", "language:", "high_grade", "non_native")


@dataclass(frozen=True)
class ScoreTables:
    """Every participant's slices, scores and intervals, and the classification."""

    slices: Sequence[Mapping[str, list[int]]]  # per model (index), in models.csv order
    values: Mapping[str, Values]  # model id -> criterion -> value
    primary: Sequence[Fraction | None]
    primary_intervals: Sequence[bs.Interval]
    primary_replicates: bs.PrimaryReplicates
    slice_scores: Sequence[tuple[SliceScore, ...]]  # per model: global, then the others
    classification: Classification


def _has_interval(name: str) -> bool:
    return any(
        name == prefix or (prefix.endswith(":") and name.startswith(prefix))
        for prefix in WITH_INTERVAL
    )


# long: one slice score per slice, intervals only where §4 gives them
def score_tables(round_: Round, points: RoundPoints, weights: bs.IntArray) -> ScoreTables:
    manifest = round_.manifest
    scaled = bs.ScaledPoints.of(points)
    cache: dict[tuple[int, ...], bs.SliceReplicates] = {}

    def replicates_of(indices: Sequence[int]) -> bs.SliceReplicates:
        key = tuple(indices)
        if key not in cache:
            cache[key] = bs.slice_replicates(scaled, weights, indices)
        return cache[key]

    domains = scores.domain_slices(points, manifest)
    primary_replicates = bs.PrimaryReplicates(
        tuple(replicates_of(indices) for indices in domains.values())
    )
    all_slices, values, primary, intervals, tables = [], {}, [], [], []
    for model, participant in enumerate(round_.models):
        slices = scores.participant_slices(points, manifest, participant)
        all_slices.append(slices)
        entries = []
        for name, indices in slices.items():
            score = scaled.score(model, indices)
            interval = (
                replicates_of(indices).interval(model)
                if _has_interval(name) and indices
                else bs.Interval(None, None, 0)
            )
            entries.append(_slice(name, score, interval, points, indices))
        for run in range(1, points.runs + 1):
            everything = list(range(len(points.items)))
            entries.append(
                _slice(
                    f"run:{run}",
                    scores.run_score(points, model, run),
                    bs.Interval(None, None, 0),
                    points,
                    everything,
                )
            )
        tables.append(tuple(entries))
        main = scaled.primary(model, list(domains.values()))
        primary.append(main)
        intervals.append(primary_replicates.interval(model))
        by_name = {entry.slice: entry for entry in entries}
        values[participant.model_id] = {
            "primary": main,
            "global": _fraction(by_name["global"]),
            "high_grade": _fraction(by_name["high_grade"]),
            "non_native": _fraction(by_name["non_native"]),
            "judge_variance": judge_variance(points, model),
            "cost_per_point": cost_per_point(points, model),
        }
    return ScoreTables(
        slices=all_slices,
        values=values,
        primary=primary,
        primary_intervals=intervals,
        primary_replicates=primary_replicates,
        slice_scores=tables,
        classification=classify(points.model_ids, values),
    )


def _fraction(entry: SliceScore) -> Fraction | None:
    return None if entry.score is None else entry.score.fraction


def _slice(
    name: str,
    score: Fraction | None,
    interval: bs.Interval,
    points: RoundPoints,
    indices: Sequence[int],
) -> SliceScore:
    return SliceScore(
        slice=name,
        score=exact(score),
        lo=exact(interval.lo),
        hi=exact(interval.hi),
        n=len(indices),
        possible=sum(points.items[i].weight for i in indices),
        undefined_replicates=interval.undefined,
    )


def primary_slice(tables: ScoreTables, model: int, points: RoundPoints) -> SliceScore:
    everything = [i for indices in tables.slices[model].values() for i in indices]
    scored = sorted(set(everything))
    return _slice("primary", tables.primary[model], tables.primary_intervals[model], points, scored)


def tied_pairs(tables: ScoreTables, model_ids: Sequence[str]) -> dict[tuple[str, str], bool]:
    """R2 technical ties on the primary score for every pair of participants."""
    position = {model_id: i for i, model_id in enumerate(model_ids)}
    tied: dict[tuple[str, str], bool] = {}
    for a, b in itertools.combinations(tables.classification.order, 2):
        sa, sb = tables.primary[position[a]], tables.primary[position[b]]
        tied[(a, b)] = (
            sa is not None
            and sb is not None
            and bs.technically_tied(
                sa, tables.primary_intervals[position[a]], sb, tables.primary_intervals[position[b]]
            )
        )
    return tied


def adjacent_pairs(
    tables: ScoreTables, model_ids: Sequence[str], tied: Mapping[tuple[str, str], bool]
) -> tuple[AdjacentPair, ...]:
    position = {model_id: i for i, model_id in enumerate(model_ids)}
    order = tables.classification.order
    pairs = []
    for (a, b), decided_by in zip(
        itertools.pairwise(order), tables.classification.decided_by, strict=True
    ):
        sa, sb = tables.primary[position[a]], tables.primary[position[b]]
        difference = None if sa is None or sb is None else sa - sb
        interval = (
            tables.primary_replicates.difference_interval(position[a], position[b])
            if difference is not None
            else bs.Interval(None, None, 0)
        )
        separated = (
            interval.lo is not None
            and interval.hi is not None
            and (interval.lo > 0 or interval.hi < 0)
        )
        pairs.append(
            AdjacentPair(
                a=a,
                b=b,
                decided_by=decided_by,
                difference=exact(difference),
                lo=exact(interval.lo),
                hi=exact(interval.hi),
                separated=separated,
                technical_tie=tied.get((a, b), False),
            )
        )
    return tuple(pairs)


def tie_groups_of(
    tables: ScoreTables, tied: Mapping[tuple[str, str], bool]
) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(group) for group in bs.tie_groups(tables.classification.order, tied))
