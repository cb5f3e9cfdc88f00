"""What the jury did to the scores (Art. 24; MD-I04, MD-I05), for the report's readers.

Over the jury-scored responses to the scored items (all runs), the same responses as the
results' `jury_scored` and `adjudicated` counts:

- per participant: the mean range of the three juror scores (max − min, 0–5 scale), and
  the points the Adjudicator moved: Σ weight × (F − juror mean) / 5 over its adjudicated
  responses, divided by the runs (the same scale as the participant's `points`);
- per judge: the responses it scored and its mean score, aggregated (report spec: a
  judge's scores appear only aggregated, never per response).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.derive import mean_score
from reportgen.kinds.multidomain.model import Adjudication, JuryScore, ResponseKey, Round
from reportgen.kinds.multidomain.score import JuryOutcome, fraction_sum, jury_outcomes
from reportgen.kinds.multidomain.terms import scored_items


@dataclass(frozen=True)
class ParticipantJury:
    scored: int  # jury-scored responses to scored items, all runs
    adjudicated: int  # of those, re-scored by the Adjudicator
    mean_range: Fraction | None  # mean of max − min of the juror scores; None without any
    points_moved: Fraction  # Σ weight × (F − juror mean) / 5 over adjudicated, ÷ runs


@dataclass(frozen=True)
class JudgeWork:
    responses: int  # responses to scored items this judge scored
    mean: Fraction | None  # its mean score (0–5); None without any


@dataclass(frozen=True)
class JuryEffect:
    participants: Mapping[str, ParticipantJury]  # by model_id (every participant)
    judges: Mapping[str, JudgeWork]  # by judge_id (jurors and adjudicators that scored)


def _participant(
    outcomes: Mapping[ResponseKey, JuryOutcome], weights: Mapping[str, int], runs: int
) -> ParticipantJury:
    ranges = [max(o.juror_scores) - min(o.juror_scores) for o in outcomes.values()]
    moves = []
    for (item_id, _, _), outcome in outcomes.items():
        if outcome.adjudicated:
            juror_mean = fraction_sum(outcome.juror_scores) / len(outcome.juror_scores)
            moves.append(weights[item_id] * (outcome.final - juror_mean) / 5)
    return ParticipantJury(
        scored=len(outcomes),
        adjudicated=sum(1 for o in outcomes.values() if o.adjudicated),
        mean_range=fraction_sum(ranges) / len(ranges) if ranges else None,
        points_moved=fraction_sum(moves) / runs,
    )


def _judges(round_: Round, scored: Mapping[ResponseKey, JuryOutcome]) -> dict[str, JudgeWork]:
    """Each judge's mean over the responses it scored (its score of one response is the
    mean of its criterion scores, as for the jury)."""
    per_response: dict[tuple[str, ResponseKey], list[int]] = defaultdict(list)
    rows: list[JuryScore | Adjudication] = [*round_.jury, *round_.adjudications]
    for row in rows:
        per_response[(row.judge_id, (row.item_id, row.model_id, row.run))].append(row.score)
    by_judge: dict[str, list[Fraction]] = defaultdict(list)
    for (judge_id, key), scores in per_response.items():
        if key in scored:
            by_judge[judge_id].append(mean_score(scores))
    return {
        judge_id: JudgeWork(len(values), fraction_sum(values) / len(values))
        for judge_id, values in by_judge.items()
    }


def jury_effect(round_: Round) -> JuryEffect:
    items = {item.item_id: item for item in scored_items(round_)}
    outcomes = {key: o for key, o in jury_outcomes(round_).items() if key[0] in items}
    by_model: dict[str, dict[ResponseKey, JuryOutcome]] = defaultdict(dict)
    for key, outcome in outcomes.items():
        by_model[key[1]][key] = outcome
    weights = {item_id: item.weight for item_id, item in items.items()}
    runs = round_.manifest.runs
    participants = {
        m.model_id: _participant(by_model.get(m.model_id, {}), weights, runs) for m in round_.models
    }
    return JuryEffect(participants, _judges(round_, outcomes))
