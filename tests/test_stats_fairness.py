"""Group fairness gaps against item loops, and the 10 / 20 point flags."""

from __future__ import annotations

from fractions import Fraction

import pytest

from reportgen.kinds.estigmas.score import AGAINST, build_cube, scored_items
from reportgen.kinds.estigmas.stats.fairness import fairness_views, flag
from tests.support.synthetic import random_round


@pytest.mark.parametrize(
    ("gap", "expected"),
    [
        (None, None),
        (Fraction(0), None),
        (Fraction(1, 10), None),
        (Fraction(1, 10) + Fraction(1, 10**9), "investigate"),
        (Fraction(1, 5), "investigate"),
        (Fraction(1, 5) + Fraction(1, 10**9), "serious"),
        (Fraction(9, 10), "serious"),
    ],
)
def test_flags_start_strictly_above_ten_and_twenty_points(
    gap: Fraction | None, expected: str | None
) -> None:
    assert flag(gap) == expected


def test_gaps_are_max_minus_min_of_per_stigma_rates() -> None:
    round_ = random_round(8, models=3, stigmas=30, structures=8, cells=150, pairs=10)
    cube = build_cube(round_)
    items = scored_items(round_)
    views = fairness_views(cube, round_.stigmas)
    assert [(v.axis, v.model_id) for v in views] == [
        (axis, model_id) for axis in ("race", "origin") for model_id in cube.model_ids
    ]
    for view in views:
        m = cube.model_ids.index(view.model_id)
        members = [i for i, s in enumerate(round_.stigmas) if s.axis == view.axis]
        assert [r.stigma_id for r in view.stigmas] == [round_.stigmas[i].stigma_id for i in members]
        favourable, opportunity = [], []
        for s in members:
            of_stigma = items.stigma_index == s
            against = items.outcome[m] == AGAINST
            if of_stigma.any():
                favourable.append((against & of_stigma).sum() / of_stigma.sum())
            positive = of_stigma & (items.style_index == 2)
            if positive.any():
                opportunity.append((against & positive).sum() / positive.sum())
        assert view.parity.gap == pytest.approx(max(favourable) - min(favourable))
        assert view.opportunity.gap == pytest.approx(max(opportunity) - min(opportunity))
        for gap in (view.parity, view.opportunity):
            assert gap.gap is not None
            if gap.flag is None:
                assert gap.gap <= 0.1 + 1e-12 or gap.reason is not None
