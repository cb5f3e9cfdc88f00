"""Values the spec derives from the archive alone: the seeded item order, the jury's
presentation ranks, juror and final scores, the audit draw, the embargo dates.

Verify re-derives them to check the archive; the statistics and the demonstration
generator use the same functions, so that the three can never disagree.
"""

from __future__ import annotations

import calendar
import functools
import math
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, timedelta
from fractions import Fraction

from reportgen.kinds.multidomain.model import CalibrationScore, Item, Manifest
from reportgen.kinds.multidomain.terms import active_items, rank_key, seeded_order


def item_orders(items: Sequence[Item], seed: int) -> dict[str, int]:
    """`order` of every test item (Art. 21): bank items by (rk(seed, id), id) get 1..n;
    variants then n+1, ... by (order of the item they replace, item_id); a variant of a
    variant is numbered after its target."""
    tests = [item for item in items if not item.calibration]
    bank = seeded_order(seed, ((item.item_id,) for item in tests if item.variant_of is None))
    orders = {key[0]: position for position, key in enumerate(bank, start=1)}
    pending = [item for item in tests if item.variant_of is not None]
    while pending:
        ready = sorted(
            (orders[item.variant_of], item.item_id) for item in pending if item.variant_of in orders
        )
        if not ready:  # a variant of an unknown item: verify reports it elsewhere
            break
        for _, item_id in ready:
            orders[item_id] = len(orders) + 1
        pending = [item for item in pending if item.item_id not in orders]
    return orders


def presentation_ranks(
    seed: int, keys: Iterable[tuple[str, str, str, int]]
) -> dict[tuple[str, str, str, int], int]:
    """Jury `position` of each (judge_id, item_id, model_id, run): the 1-based rank of the
    response among that judge's, by rk(seed, judge_id, item_id, model_id, str(run))."""
    by_judge: dict[str, list[tuple[str, str, str, int]]] = defaultdict(list)
    for key in keys:
        by_judge[key[0]].append(key)
    ranks: dict[tuple[str, str, str, int], int] = {}
    for judge_keys in by_judge.values():
        ordered = sorted(
            judge_keys,
            key=lambda k: (rank_key(seed, k[0], k[1], k[2], str(k[3])), k[1], k[2], k[3]),
        )
        for rank, key in enumerate(ordered, start=1):
            ranks[key] = rank
    return ranks


# Scores are small integers, so a round holds few distinct (sum, count) pairs and juror
# triples: the exact Fraction arithmetic is done once per distinct value (Fractions are
# immutable, so sharing them is safe). A round of 100,000 jury scores makes a few
# thousand entries.


@functools.lru_cache(maxsize=4096)
def _fraction(numerator: int, denominator: int) -> Fraction:
    return Fraction(numerator, denominator)


def mean_score(criterion_scores: Iterable[int]) -> Fraction:
    """A rater's score of one response: the mean of its criterion scores, exact."""
    scores = list(criterion_scores)
    return _fraction(sum(scores), len(scores))


@functools.lru_cache(maxsize=65536)
def _range_above(juror_scores: tuple[Fraction, ...], above: Fraction) -> bool:
    return max(juror_scores) - min(juror_scores) > above


def calibration_hit_rates(
    rows: Iterable[CalibrationScore], top: int
) -> dict[str, tuple[Fraction, int]]:
    """Each rater's Art. 16 hit rate in the calibration test, with the number of
    responses it scored: Σ its score of each response (mean of criteria) ÷ (top x n)."""
    by_rater: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for row in rows:
        by_rater[row.rater_id][row.response_id].append(row.score)
    rates = {}
    for rater_id, responses in by_rater.items():
        total = sum((mean_score(scores) for scores in responses.values()), Fraction(0))
        rates[rater_id] = (total / (top * len(responses)), len(responses))
    return rates


def needs_adjudication(juror_scores: Sequence[Fraction], above: Fraction) -> bool:
    """Art. 24 (MD-I04): the range of the juror scores is strictly above the threshold."""
    return _range_above(tuple(juror_scores), above)


@functools.lru_cache(maxsize=65536)
def _mean(juror_scores: tuple[Fraction, ...]) -> Fraction:
    return sum(juror_scores, Fraction(0)) / len(juror_scores)


def final_score(
    juror_scores: Sequence[Fraction], adjudicator_score: Fraction | None, above: Fraction
) -> Fraction:
    """F: the adjudicator's score when the range is above `above`, else the jurors' mean."""
    scores = tuple(juror_scores)
    if adjudicator_score is not None and _range_above(scores, above):
        return adjudicator_score
    return _mean(scores)


def audit_sample_size(size: int, fraction: Fraction, minimum: int) -> int:
    """n = min(size, max(minimum, ceil(fraction x size)))."""
    return min(size, max(minimum, math.ceil(fraction * size)))


def audit_draw(items: Sequence[Item], manifest: Manifest) -> dict[tuple[str, str], list[str]]:
    """The Art. 26 draw (metrics §7, MD-I06): per (domain, language) stratum of active open
    test items (ledger ignored), the first n by (rk(audit.seed, item_id), item_id)."""
    strata: dict[tuple[str, str], list[str]] = defaultdict(list)
    for item in active_items(items):
        if item.type == "open":
            strata[(item.domain_id, item.language)].append(item.item_id)
    rules = manifest.audit
    drawn: dict[tuple[str, str], list[str]] = {}
    for stratum in sorted(strata):
        members = seeded_order(rules.seed, ((item_id,) for item_id in strata[stratum]))
        n = audit_sample_size(len(members), rules.fraction, rules.min_per_stratum)
        drawn[stratum] = [key[0] for key in members[:n]]
    return drawn


def add_months(day: date, months: int) -> date:
    """`day` plus calendar months, the day clamped to the month's end."""
    month_index = day.month - 1 + months
    year, month = day.year + month_index // 12, month_index % 12 + 1
    return date(year, month, min(day.day, calendar.monthrange(year, month)[1]))


def embargo_end(manifest: Manifest) -> date:
    """E = ended_on + embargo_days: from this date test items may be published."""
    assert manifest.ended_on is not None  # required for this kind
    return embargo_end_of(manifest.ended_on, manifest.embargo_days)


def embargo_end_of(ended_on: date, embargo_days: int) -> date:
    """E from the round's two values (the review app reads them from round.json alone)."""
    return ended_on + timedelta(days=embargo_days)


def provisional_until(manifest: Manifest) -> date:
    """Results are provisional while as_of < ended_on + embargo + window + reply days."""
    return embargo_end(manifest) + timedelta(
        days=manifest.contest_window_days + manifest.reply_days
    )


def counts_by(values: Iterable[str]) -> Mapping[str, int]:
    counted: dict[str, int] = defaultdict(int)
    for value in values:
        counted[value] += 1
    return dict(counted)
