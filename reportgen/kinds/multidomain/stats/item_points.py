"""Each participant's run-averaged points on every test item, for the items pages."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from reportgen.kinds.multidomain.derive import final_score, mean_score
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.terms import is_jury_scored, is_scored_response


def item_points(round_: Round) -> dict[tuple[str, str], Fraction]:
    """p̄(m, i) for every test item and participant (metrics §1), from the archive.

    The results object holds no per-item points; these follow metrics §1 with the same
    helpers as the statistics (derive.final_score)."""
    items = {i.item_id: i for i in round_.items}
    scores: dict[tuple[str, str, int], dict[str, list[int]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for row in round_.jury:
        scores[(row.item_id, row.model_id, row.run)][row.judge_id].append(row.score)
    adjudicated: dict[tuple[str, str, int], list[int]] = defaultdict(list)
    for adjudication in round_.adjudications:
        key = (adjudication.item_id, adjudication.model_id, adjudication.run)
        adjudicated[key].append(adjudication.score)
    above = round_.manifest.jury.adjudicate_above
    totals: dict[tuple[str, str], Fraction] = defaultdict(Fraction)
    for model_id, responses in round_.responses.items():
        for response in responses:
            item = items[response.item_id]
            key = (response.item_id, model_id, response.run)
            points = Fraction(0)
            if is_jury_scored(item, response) and scores.get(key):
                jurors = [mean_score(s) for s in scores[key].values()]
                adjudicator = mean_score(adjudicated[key]) if adjudicated.get(key) else None
                points = item.weight * final_score(jurors, adjudicator, above) / 5
            elif item.type != "open" and is_scored_response(response) and response.correct:
                points = Fraction(item.weight)
            totals[(response.item_id, model_id)] += points
    runs = round_.manifest.runs
    return {key: value / runs for key, value in totals.items()}
