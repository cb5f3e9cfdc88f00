"""Each participant's run-averaged points on every test item, for the items pages."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.score import jury_outcomes, response_points, run_mean


def item_points(round_: Round) -> dict[tuple[str, str], Fraction]:
    """p̄(m, i) for every test item and participant (metrics §1), from the archive.

    The results object holds no per-item points; these follow metrics §1 with the same
    helpers as the statistics (score.jury_outcomes, score.response_points), over every
    response (superseded and annulled items included)."""
    items = {i.item_id: i for i in round_.items}
    outcomes = jury_outcomes(round_)
    points: dict[tuple[str, str], list[Fraction]] = defaultdict(list)
    for model_id, responses in round_.responses.items():
        for response in responses:
            outcome = outcomes.get((response.item_id, model_id, response.run))
            points[(response.item_id, model_id)].append(
                response_points(items[response.item_id], response, outcome)
            )
    runs = round_.manifest.runs
    return {key: run_mean(tuple(values), runs) for key, values in points.items()}
