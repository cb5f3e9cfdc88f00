"""Points of every response and item points p̄ (multidomain-metrics.md §1), exact.

mcq/calc: `weight` when the response is scored and correct; open: `weight` x F / 5 with F
the jury's final score (the adjudicator's mean when the jurors' range is above
`adjudicate_above`); anything else 0. p̄(m, i) is the mean over the runs (MD-I01).
"""

from __future__ import annotations

import functools
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.derive import final_score
from reportgen.kinds.multidomain.memo import RecentByIdentity
from reportgen.kinds.multidomain.model import Item, Response, ResponseKey, Round
from reportgen.kinds.multidomain.terms import is_jury_scored, is_scored_response, scored_items


@dataclass(frozen=True, slots=True)
class JuryOutcome:
    """The jury's verdict on one response (Art. 24)."""

    juror_scores: tuple[Fraction, ...]  # s_j per juror, in judge_id order
    adjudicator_score: Fraction | None
    final: Fraction
    adjudicated: bool
    criterion_ranges_above: int  # criteria whose juror range is > adjudicate_above


# The outcomes of the last rounds asked: a site build asks for each round's from the check
# across rounds, the results, the register and the jury pages, with the same tables (the
# outcomes do not depend on the ledger, which `terms.round_as_of` cuts). Shared: never
# changed by a caller.
_RECENT: RecentByIdentity[dict[ResponseKey, JuryOutcome]] = RecentByIdentity()


def jury_outcomes(round_: Round) -> dict[ResponseKey, JuryOutcome]:
    """Every jury-scored response's juror scores, final score F and counts."""
    inputs = (round_.manifest, round_.jury, round_.adjudications)
    return _RECENT.get(inputs, lambda: _jury_outcomes(round_))


def _jury_outcomes(round_: Round) -> dict[ResponseKey, JuryOutcome]:
    by_response: dict[ResponseKey, dict[str, dict[str, int]]] = defaultdict(
        lambda: defaultdict(dict)
    )
    for row in round_.jury:
        by_response[(row.item_id, row.model_id, row.run)][row.judge_id][row.criterion_id] = (
            row.score
        )
    adjudicated: dict[ResponseKey, list[int]] = defaultdict(list)
    for adjudication in round_.adjudications:
        key = (adjudication.item_id, adjudication.model_id, adjudication.run)
        adjudicated[key].append(adjudication.score)
    above = round_.manifest.jury.adjudicate_above
    limit = math.floor(above)  # an integer range is above `above` iff above its floor
    threshold = (above.numerator, above.denominator)
    outcomes: dict[ResponseKey, JuryOutcome] = {}
    for key, jurors in by_response.items():
        panel = [jurors[judge] for judge in sorted(jurors)]
        scores = adjudicated.get(key)
        juror_scores, adjudicator, final = _verdict(
            tuple((sum(rated.values()), len(rated)) for rated in panel),
            (sum(scores), len(scores)) if scores else None,
            threshold,
        )
        outcomes[key] = JuryOutcome(
            juror_scores=juror_scores,
            adjudicator_score=adjudicator,
            final=final,
            # Verify guarantees adjudication rows exactly when the range is above.
            adjudicated=adjudicator is not None,
            criterion_ranges_above=_criterion_ranges_above(panel, limit),
        )
    return outcomes


@functools.lru_cache(maxsize=65536)
def _verdict(
    totals: tuple[tuple[int, int], ...],
    adjudicator_total: tuple[int, int] | None,
    threshold: tuple[int, int],
) -> tuple[tuple[Fraction, ...], Fraction | None, Fraction]:
    """Juror scores, adjudicator score and F from each rater's (Σ scores, criteria):
    integer keys, so a round's few thousand distinct panels are each worked out once."""
    juror_scores = tuple(Fraction(total, count) for total, count in totals)
    adjudicator = Fraction(*adjudicator_total) if adjudicator_total else None
    return juror_scores, adjudicator, final_score(juror_scores, adjudicator, Fraction(*threshold))


def _criterion_ranges_above(panel: Sequence[Mapping[str, int]], limit: int) -> int:
    """Criteria whose juror range is above `limit`."""
    first = list(panel[0]) if panel else []
    if all(list(rated) == first for rated in panel):  # the usual case: same criteria, order
        columns = zip(*(rated.values() for rated in panel), strict=True)
        return sum(1 for column in columns if max(column) - min(column) > limit)
    per_criterion: dict[str, list[int]] = defaultdict(list)
    for rated in panel:
        for criterion_id, score in rated.items():
            per_criterion[criterion_id].append(score)
    return sum(1 for scores in per_criterion.values() if max(scores) - min(scores) > limit)


_ZERO = Fraction(0)


def fraction_sum(values: Iterable[Fraction]) -> Fraction:
    """Σ values, exact: numerators summed per denominator as integers (points take few
    denominators), then one Fraction per denominator; far faster than adding Fractions."""
    by_denominator: dict[int, int] = defaultdict(int)
    for value in values:
        by_denominator[value.denominator] += value.numerator
    total = _ZERO
    for denominator, numerator in by_denominator.items():
        total += Fraction(numerator, denominator)
    return total


@functools.lru_cache(maxsize=65536)
def run_mean(points: tuple[Fraction, ...], runs: int) -> Fraction:
    """p̄ = Σ points / runs, exact; a round's (model, item) pairs share a few thousand
    distinct run tuples, so each mean is worked out once."""
    return fraction_sum(points) / runs


@functools.lru_cache(maxsize=4096)
def _open_points(weight: int, final: Fraction) -> Fraction:
    return weight * final / 5


@functools.lru_cache(maxsize=64)
def _whole(weight: int) -> Fraction:
    return Fraction(weight)


def response_points(item: Item, response: Response, outcome: JuryOutcome | None) -> Fraction:
    """p(m, i, r) of one response (§1). Points take few distinct values, so each exact
    product is computed once (Fractions are immutable: sharing them is safe)."""
    if item.type == "open":
        if outcome is None or not is_jury_scored(item, response):
            return _ZERO
        return _open_points(item.weight, outcome.final)
    if is_scored_response(response) and response.correct is True:
        return _whole(item.weight)
    return _ZERO


def has_valid_score(responses: Iterable[Response]) -> bool:
    """A valid item score (§5): no run discarded without being scored first."""
    return not any(
        r.status == "discarded_personal_data" and r.scored_before_discard is not True
        for r in responses
    )


@dataclass(frozen=True)
class RoundPoints:
    """Points of every participant on every scored item, in `order`.

    `item_points[m][i]` = p̄(m, i); `run_points[m][i]` = (p(m, i, 1), ..., p(m, i, runs));
    `valid[m][i]`: m has a valid item score on i (§5). Indices follow `items` and
    `model_ids` (models.csv order).
    """

    items: tuple[Item, ...]
    model_ids: tuple[str, ...]
    runs: int
    item_points: tuple[tuple[Fraction, ...], ...]
    run_points: tuple[tuple[tuple[Fraction, ...], ...], ...]
    valid: tuple[tuple[bool, ...], ...]
    outcomes: Mapping[ResponseKey, JuryOutcome]
    responses: Mapping[tuple[str, str], tuple[Response, ...]]  # (model, item) -> runs


def _run(response: Response) -> int:
    return response.run


def round_points(
    round_: Round,
    items: Sequence[Item] | None = None,
    outcomes: Mapping[ResponseKey, JuryOutcome] | None = None,
) -> RoundPoints:
    """Points over `items` (default: the scored set, in order)."""
    chosen = tuple(scored_items(round_) if items is None else items)
    outcomes = jury_outcomes(round_) if outcomes is None else outcomes
    runs = round_.manifest.runs
    by_pair: dict[tuple[str, str], list[Response]] = defaultdict(list)
    wanted = {item.item_id for item in chosen}
    for model_id, model_rows in round_.responses.items():
        for row in model_rows:
            if row.item_id in wanted:
                by_pair[(model_id, row.item_id)].append(row)
    for pair_rows in by_pair.values():
        pair_rows.sort(key=_run)
    model_ids = tuple(model.model_id for model in round_.models)
    run_points, item_points, valid = [], [], []
    for model_id in model_ids:
        model_runs, model_means, model_valid = [], [], []
        for item in chosen:
            rows = by_pair[(model_id, item.item_id)]
            points = tuple(
                response_points(item, row, outcomes.get((item.item_id, model_id, row.run)))
                for row in rows
            )
            model_runs.append(points)
            model_means.append(run_mean(points, runs))
            model_valid.append(has_valid_score(rows))
        run_points.append(tuple(model_runs))
        item_points.append(tuple(model_means))
        valid.append(tuple(model_valid))
    return RoundPoints(
        items=chosen,
        model_ids=model_ids,
        runs=runs,
        item_points=tuple(item_points),
        run_points=tuple(run_points),
        valid=tuple(valid),
        outcomes=outcomes,
        responses={key: tuple(rows) for key, rows in by_pair.items()},
    )
