"""The compare page's pairs read from the bootstrap replicates on demand (issue 19): the same
values as the results' all-pairs differences, bit for bit, wherever those exist; past
`ALL_PAIRS_UP_TO` models the pairs of each model and the next, both ways, with the values
of the full difference matrix at those pairs."""

from __future__ import annotations

import itertools

import pytest

from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.context import build_round_view
from reportgen.kinds.estigmas.render.site import _with_compared
from reportgen.kinds.estigmas.results import (
    ALL_PAIRS_UP_TO,
    compute_results,
    listed_pairs,
    pair_differences,
)
from reportgen.kinds.estigmas.score import build_cube
from reportgen.kinds.estigmas.stats.bootstrap import (
    ModelTables,
    difference_intervals,
    draw_replicates,
    model_replicates,
)
from tests.factories import DEMO_ROUNDS
from tests.support.synthetic import random_round


def test_up_to_the_threshold_the_listed_pairs_are_the_results_differences_exactly() -> None:
    round_ = random_round(3, models=7, stigmas=20, structures=6, cells=100, pairs=10)
    results = compute_results(round_, 500)
    pairs = listed_pairs(results.models)
    assert len(pairs) == 7 * 6
    found = pair_differences(round_, results.models, pairs, results.replicates, results.seed)
    # Same pairs, same order as the results (models order, first then second), same floats.
    assert found == results.differences


def test_past_the_threshold_each_model_and_the_next_both_ways() -> None:
    models = ALL_PAIRS_UP_TO + 3
    round_ = random_round(4, models=models, stigmas=20, structures=6, cells=100, pairs=10)
    results = compute_results(round_, 200)
    order = [m.model_id for m in results.models]  # ranked, then diagnostic cases
    pairs = listed_pairs(results.models)
    assert pairs == [p for x, y in itertools.pairwise(order) for p in ((x, y), (y, x))]
    found = pair_differences(round_, results.models, pairs, results.replicates, results.seed)
    # Where the results hold the pair (neighbours in the ranking), the same values.
    stored = {(d.model_a, d.model_b): d for d in results.differences}
    assert [d for d in found if (d.model_a, d.model_b) in stored] == [
        stored[pair] for pair in pairs if pair in stored
    ]
    # Every listed pair is the full matrix's value at that pair.
    cube = build_cube(round_)
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(results.seed, 200, *tables.scored.shape)
    lower, upper = difference_intervals(model_replicates(tables, draws).values["index"])
    column = {m: i for i, m in enumerate(cube.model_ids)}
    score = {m.model_id: m for m in results.models}
    for d in found:
        a, b = column[d.model_a], column[d.model_b]
        assert (d.lower, d.upper) == pytest.approx((lower[a, b], upper[a, b]), abs=1e-15)
        assert d.estimate == score[d.model_a].index - score[d.model_b].index


def test_a_pair_of_an_unknown_model_is_refused() -> None:
    round_ = random_round(5, models=3, stigmas=10, structures=4, cells=30, pairs=5)
    results = compute_results(round_, 50)
    first = results.models[0].model_id
    with pytest.raises(ValueError, match="no scores for nobody"):
        pair_differences(round_, results.models, [(first, "nobody")], 50, results.seed)


@pytest.mark.slow
@pytest.mark.parametrize("round_id", ["estigmas-2026-06", "idje-avalia-2026-07"])
def test_the_demonstration_rounds_compare_pages_are_what_they_were(round_id: str) -> None:
    """With the manifest's 10,000 replicates: the listed pairs' differences are the results'
    all-pairs differences, which the compare page showed before, value for value."""
    round_ = read_round(DEMO_ROUNDS / round_id, with_text=False)
    results = compute_results(round_)
    assert results.replicates == 10_000
    pairs = listed_pairs(results.models)
    assert len(pairs) == len(results.differences)  # up to 50 models: every ordered pair
    found = pair_differences(round_, results.models, pairs, results.replicates, results.seed)
    assert found == results.differences


def test_the_site_takes_the_pairs_the_results_hold_and_reads_the_others() -> None:
    """The compare page's pairs are the replicates' values for every listed pair, whether
    the results held the pair (taken from them) or not (read from the replicates)."""
    round_ = random_round(4, models=ALL_PAIRS_UP_TO + 3, stigmas=20, structures=6, cells=100)
    results = compute_results(round_, 200)
    pairs = listed_pairs(results.models)
    view = _with_compared(round_, build_round_view(round_, results))
    assert view.compared == pair_differences(round_, results.models, pairs, 200, results.seed)
    held = {(d.model_a, d.model_b) for d in results.differences}
    assert 0 < len(held & set(pairs)) < len(pairs)  # both kinds of pair are listed
