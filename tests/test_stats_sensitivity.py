"""Leave-one-out re-rankings against rescoring the round without the left-out ids."""

from __future__ import annotations

import pytest

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import BIASED, build_cube, score_models, scored_items
from reportgen.kinds.estigmas.stats.bootstrap import ModelTables
from reportgen.kinds.estigmas.stats.sensitivity import competition_ranks, leave_one_out
from tests.support.synthetic import random_round


@pytest.mark.parametrize(
    ("failures", "ranks"),
    [([3, 1, 2], (3, 1, 2)), ([5, 7, 7, 9], (1, 2, 2, 4)), ([4, 4], (1, 1)), ([], ())],
)
def test_competition_ranks_share_ties(failures: list[float], ranks: tuple[int, ...]) -> None:
    assert competition_ranks(failures) == ranks


def _naive_ranks(round_: Round, ranked: list[int], keep: list[bool]) -> tuple[int, ...]:
    """Ranks of the `ranked` models on the kept scored items, counted item by item."""
    items = scored_items(round_)
    failures = []
    for m in ranked:
        count = 0
        for position, kept in enumerate(keep):
            outcome = int(items.outcome[m, position])
            omitted = items.style_index[position] == 2 and outcome >= 2
            count += kept and (outcome == BIASED or omitted)
        failures.append(count)
    return competition_ranks(failures)


def test_leave_one_out_matches_rescoring_without_each_id() -> None:
    round_ = random_round(13, models=5, stigmas=9, structures=5, cells=30, pairs=5)
    cube = build_cube(round_)
    scores = score_models(round_, cube)
    ranked = [cube.model_ids.index(s.model_id) for s in scores if s.rank is not None]
    assert len(ranked) >= 3
    tables = ModelTables.from_cube(cube)
    stigma_ids = [cube.stigma_ids[i] for i in tables.stigma_positions]
    structure_ids = [cube.structure_ids[i] for i in tables.structure_positions]
    by_stigma, by_structure = leave_one_out(
        tables, ranked, cube.model_ids, stigma_ids, structure_ids
    )
    items = scored_items(round_)
    full = _naive_ranks(round_, ranked, [True] * len(items.item_ids))
    assert full == tuple(s.rank for s in scores if s.rank is not None)
    for family, index, positions, ids in (
        (by_stigma, items.stigma_index, tables.stigma_positions, stigma_ids),
        (by_structure, items.structure_index, tables.structure_positions, structure_ids),
    ):
        assert family.analyses == len(ids) == len({int(i) for i in index})
        rank_lists = [
            _naive_ranks(round_, ranked, [int(i) != left_out for i in index])
            for left_out in positions
        ]
        changed = [ids[k] for k, ranks in enumerate(rank_lists) if ranks != full]
        assert family.changed == tuple(changed)
        assert family.preserved == len(ids) - len(changed)
        for position, rank_range in enumerate(family.ranges):
            reached = [full[position]] + [ranks[position] for ranks in rank_lists]
            assert rank_range.model_id == cube.model_ids[ranked[position]]
            assert (rank_range.best, rank_range.worst) == (min(reached), max(reached))
