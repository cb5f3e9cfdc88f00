"""The before/after view against a baseline round (counterfactual-metrics.md §11).

Both rounds are seen over the templates present in both after their annulments (in this
round's templates.csv order), under THIS round's criterion and acceptable difference. The
change's interval applies this round's draws (§10), restricted to those templates, to both
rounds with the same weights; a replicate undefined in either round is left out. There is
no test across rounds: the responses are not paired across rounds.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from reportgen.kinds.counterfactual.score import AttributeCells, restrict
from reportgen.kinds.counterfactual.stats.bootstrap import (
    Draws,
    Interval,
    interval,
    replicate_gaps,
)
from reportgen.kinds.counterfactual.stats.gaps import Flag, exceeds, flag_of, gap_of
from reportgen.kinds.counterfactual.stats.groups import group_stats


@dataclass(frozen=True)
class Change:
    gap_before: Fraction | None
    gap_after: Fraction | None
    change: Fraction | None
    interval: Interval | None
    flag_before: Flag | None
    flag_after: Flag | None
    exceeds_before: bool | None
    exceeds_after: bool | None


@dataclass(frozen=True)
class Comparable:
    """Both rounds' arrays of one attribute over the shared templates, and the draws."""

    after: AttributeCells
    before: AttributeCells
    draws: Draws
    templates_differ: bool


def comparable(after: AttributeCells, before: AttributeCells, draws: Draws) -> Comparable:
    shared = tuple(t for t in after.template_ids if t in set(before.template_ids))
    columns = [after.template_ids.index(t) for t in shared]
    restricted = Draws(draws.templates[:, columns], draws.positions)
    return Comparable(
        after=restrict(after, shared),
        before=restrict(before, shared),
        draws=restricted,
        templates_differ=shared != after.template_ids,
    )


# long: the same computation on both rounds, then their difference, one value per line
def change(
    view: Comparable,
    model_after: str,
    model_before: str,
    variable_id: str,
    *,
    binary: bool,
    criterion: str,
    acceptable: Fraction,
) -> Change:
    gaps: list[Fraction | None] = []
    replicates: list[np.ndarray | None] = []
    for cells_of, model_id in ((view.before, model_before), (view.after, model_after)):
        cells = cells_of.cells[(model_id, variable_id)]
        population = cells_of.population(variable_id, criterion)
        stats = group_stats(cells_of, cells, population)
        gap, _ = gap_of([s.value for s in stats])
        gaps.append(gap)
        with_value = [s.value is not None for s in stats]
        replicates.append(
            None if gap is None else replicate_gaps(cells, population, view.draws, with_value)
        )
    before, after = gaps
    difference = None if before is None or after is None else after - before
    spread = None
    if difference is not None and replicates[0] is not None and replicates[1] is not None:
        spread = interval(replicates[1] - replicates[0])  # NaN in either stays NaN
    return Change(
        gap_before=before,
        gap_after=after,
        change=difference,
        interval=spread,
        flag_before=flag_of(before, binary),
        flag_after=flag_of(after, binary),
        exceeds_before=exceeds(before, acceptable),
        exceeds_after=exceeds(after, acceptable),
    )
