"""Normalised scores S(m, X) (multidomain-metrics.md §2), exact.

S(m, X) = 100 x Σ p̄(m, i) / Σ weight_i over the scored items X; undefined (None) when X
is empty (MD-I21). The primary score is the mean of the defined domain scores (MD-I01).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from reportgen.kinds.multidomain.model import ITEM_TYPES, Manifest, Participant
from reportgen.kinds.multidomain.score import RoundPoints, fraction_sum
from reportgen.kinds.multidomain.terms import language_matches
from reportgen.stats import mean

SliceItems = dict[str, list[int]]  # slice name -> indices into RoundPoints.items


def normalised(points: Sequence[Fraction], weights: Sequence[int]) -> Fraction | None:
    """100 x Σ points / Σ weights; None when there is no weight."""
    possible = sum(weights)
    if possible == 0:
        return None
    return 100 * fraction_sum(points) / possible


def slice_score(points: RoundPoints, model: int, indices: Sequence[int]) -> Fraction | None:
    row = points.item_points[model]
    return normalised([row[i] for i in indices], [points.items[i].weight for i in indices])


def is_non_native(language: str, participant: Participant) -> bool:
    return not any(language_matches(language, tag) for tag in participant.language_affinity)


def domain_slices(points: RoundPoints, manifest: Manifest) -> SliceItems:
    """domain:<id> for every `domains` entry, in display order."""
    return {
        f"domain:{domain.id}": [
            i for i, item in enumerate(points.items) if item.domain_id == domain.id
        ]
        for domain in manifest.domains
    }


def shared_slices(points: RoundPoints, manifest: Manifest) -> SliceItems:
    """The slices that are the same for every participant, global first, then domains,
    languages, types and high grade (the order of the report's tables)."""
    items = points.items
    slices: SliceItems = {"global": list(range(len(items)))}
    slices.update(domain_slices(points, manifest))
    for language in manifest.languages:
        slices[f"language:{language}"] = [
            i for i, item in enumerate(items) if item.language == language
        ]
    for item_type in ITEM_TYPES:
        slices[f"type:{item_type}"] = [i for i, item in enumerate(items) if item.type == item_type]
    high = manifest.grade_rules.high_grade
    slices["high_grade"] = [i for i, item in enumerate(items) if item.grade >= high]
    return slices


def participant_slices(
    points: RoundPoints, manifest: Manifest, participant: Participant
) -> SliceItems:
    """The shared slices plus this participant's non-native slice."""
    slices = shared_slices(points, manifest)
    slices["non_native"] = [
        i for i, item in enumerate(points.items) if is_non_native(item.language, participant)
    ]
    return slices


def primary_score(points: RoundPoints, model: int, manifest: Manifest) -> Fraction | None:
    """Mean of the defined domain scores; None when no domain holds a scored item."""
    defined = [
        score
        for indices in domain_slices(points, manifest).values()
        if (score := slice_score(points, model, indices)) is not None
    ]
    return mean(defined)


def run_score(points: RoundPoints, model: int, run: int) -> Fraction | None:
    """The global score of one execution (run 1..runs)."""
    per_item = [runs[run - 1] for runs in points.run_points[model]]
    return normalised(per_item, [item.weight for item in points.items])
