"""The fast crossed bootstrap against definitions and a slow reference implementation."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import build_cube, score_models, scored_items
from reportgen.kinds.estigmas.stats.bootstrap import (
    MODEL_STATISTICS,
    ModelTables,
    difference_intervals,
    draw_replicates,
    model_replicates,
    percentile_interval,
    point_statistics,
    weighted_totals,
)
from tests.support.reference import reference_replicates
from tests.support.synthetic import random_round


def small_round(seed: int, models: int = 3) -> Round:
    return random_round(seed, models=models, stigmas=12, structures=6, cells=50, pairs=40)


@given(seed=st.integers(0, 2**32 - 1), replicates=st.integers(1, 40), stigmas=st.integers(1, 9))
@settings(max_examples=30, deadline=None)
def test_draws_are_reproducible_and_weights_count_the_draws(
    seed: int, replicates: int, stigmas: int
) -> None:
    first = draw_replicates(seed, replicates, stigmas, 4)
    second = draw_replicates(seed, replicates, stigmas, 4)
    assert np.array_equal(first.stigma_draws, second.stigma_draws)
    assert np.array_equal(first.structure_draws, second.structure_draws)
    weights = first.stigma_weights()
    assert weights.shape == (replicates, stigmas)
    assert (weights.sum(axis=1) == stigmas).all()
    for r in range(replicates):
        expected = np.bincount(first.stigma_draws[r], minlength=stigmas)
        assert np.array_equal(weights[r], expected)


def test_draw_order_is_stigmas_then_structures() -> None:
    draws = draw_replicates(7, 5, 4, 3)
    generator = np.random.Generator(np.random.PCG64(7))
    assert np.array_equal(draws.stigma_draws, generator.integers(0, 4, size=(5, 4)))
    assert np.array_equal(draws.structure_draws, generator.integers(0, 3, size=(5, 3)))


@given(
    seed=st.integers(0, 2**16),
    tables=st.integers(1, 5),
    stigmas=st.integers(1, 6),
    structures=st.integers(1, 6),
    replicates=st.integers(1, 1200),
)
@settings(max_examples=25, deadline=None)
def test_weighted_totals_equal_the_bilinear_form(
    seed: int, tables: int, stigmas: int, structures: int, replicates: int
) -> None:
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 50, size=(tables, stigmas, structures)).astype(np.float64)
    draws = draw_replicates(seed, replicates, stigmas, structures)
    ws, wt = draws.stigma_weights(), draws.structure_weights()
    done: list[int] = []
    totals = weighted_totals(counts, ws, wt, done.append)
    expected = np.einsum("rs,kst,rt->rk", ws, counts, wt)
    assert np.array_equal(totals, expected)
    assert sum(done) == replicates


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_fast_bootstrap_equals_reference_on_the_same_draws(seed: int) -> None:
    # 50 of 72 cells: some stigmas or structures may have no scored item at all.
    round_ = small_round(seed)
    cube = build_cube(round_)
    items = scored_items(round_)
    tables = ModelTables.from_cube(cube)
    draws = draw_replicates(seed, 150, *tables.scored.shape)
    fast = model_replicates(tables, draws).values
    slow = reference_replicates(items, draws)
    for name in MODEL_STATISTICS:
        # Exact integers on both sides: the same draws must give the same floats, bit for bit.
        assert np.array_equal(fast[name], slow[name], equal_nan=True), name


def test_fast_intervals_agree_with_reference_within_monte_carlo_error() -> None:
    round_ = small_round(11)
    cube = build_cube(round_)
    items = scored_items(round_)
    tables = ModelTables.from_cube(cube)
    shape = tables.scored.shape
    fast = model_replicates(tables, draw_replicates(1, 4000, *shape)).values
    # Independent draws for the reference, so this compares two Monte Carlo estimates.
    slow = reference_replicates(items, draw_replicates(2, 1500, *shape))
    for name in MODEL_STATISTICS:
        fast_low, fast_high = percentile_interval(fast[name])
        slow_low, slow_high = percentile_interval(slow[name])
        width = fast_high - fast_low
        assert (width > 0).all()
        # Per model, both ends within a quarter of the interval's width (several standard
        # errors of a percentile estimated from 1,500 replicates).
        assert (np.abs(fast_low - slow_low) < 0.25 * width).all(), name
        assert (np.abs(fast_high - slow_high) < 0.25 * width).all(), name


def test_point_statistics_equal_score_models() -> None:
    round_ = small_round(5, models=4)
    cube = build_cube(round_)
    point = point_statistics(ModelTables.from_cube(cube)).values
    for score in score_models(round_, cube):
        column = cube.model_ids.index(score.model_id)
        for name in MODEL_STATISTICS:
            assert point[name][0, column] == pytest.approx(getattr(score, name), abs=1e-15)


@given(seed=st.integers(0, 2**16), replicates=st.integers(2, 300))
@settings(max_examples=25, deadline=None)
def test_percentile_interval_is_numpy_linear_and_skips_nan(seed: int, replicates: int) -> None:
    rng = np.random.default_rng(seed)
    values = rng.normal(size=(replicates, 3))
    low, high = percentile_interval(values)
    assert np.array_equal(low, np.percentile(values, 2.5, axis=0, method="linear"))
    assert np.array_equal(high, np.percentile(values, 97.5, axis=0, method="linear"))
    holed = values.copy()
    holed[::3, 1] = np.nan
    holed[:, 2] = np.nan
    low, high = percentile_interval(holed)
    kept = values[:, 1][~np.isnan(holed[:, 1])]
    assert low[1] == np.percentile(kept, 2.5, method="linear")
    assert high[1] == np.percentile(kept, 97.5, method="linear")
    assert np.isnan(low[2])
    assert np.isnan(high[2])


def test_difference_matrix_is_the_interval_of_every_pairwise_difference() -> None:
    rng = np.random.default_rng(3)
    index = rng.normal(size=(999, 4))
    lower, upper = difference_intervals(index)
    for a in range(4):
        assert lower[a, a] == 0
        for b in range(4):
            if a == b:
                continue
            differences = index[:, a] - index[:, b]
            assert lower[a, b] == pytest.approx(np.percentile(differences, 2.5), abs=1e-12)
            assert upper[a, b] == pytest.approx(np.percentile(differences, 97.5), abs=1e-12)


@pytest.mark.parametrize("chunk_bytes", [1, 5_000, 10**9])
@pytest.mark.parametrize("largest_count", [50, 3_000, 2**40])
def test_weighted_totals_are_exact_in_any_chunking_and_precision(
    monkeypatch: pytest.MonkeyPatch, chunk_bytes: int, largest_count: int
) -> None:
    # 50 keeps every total below 2**24 (float32 path); 3,000 and 2**40 need float64.
    monkeypatch.setattr("reportgen.kinds.estigmas.stats.bootstrap.CHUNK_BYTES", chunk_bytes)
    rng = np.random.default_rng(largest_count)
    counts = rng.integers(0, largest_count, size=(3, 20, 9), endpoint=True).astype(np.float64)
    draws = draw_replicates(4, 333, 20, 9)
    ws, wt = draws.stigma_weights(), draws.structure_weights()
    done: list[int] = []
    totals = weighted_totals(counts, ws, wt, done.append)
    expected = np.einsum(
        "rs,kst,rt->rk", ws.astype(np.int64), counts.astype(np.int64), wt.astype(np.int64)
    )
    assert np.array_equal(totals, expected.astype(np.float64))
    assert sum(done) == 333
    chunks = {1: 333, 5_000: "several", 10**9: 1}[chunk_bytes]
    assert len(done) == chunks if isinstance(chunks, int) else 1 < len(done) < 333


def test_weighted_totals_refuse_totals_beyond_float64_precision() -> None:
    counts = np.full((1, 2, 2), 2.0**52)
    with pytest.raises(ValueError, match="exact"):
        weighted_totals(counts, np.full((1, 2), 2.0), np.full((1, 2), 2.0))


def test_only_stigmas_and_structures_with_scored_items_are_resampled() -> None:
    round_ = random_round(9, models=2, stigmas=30, structures=10, cells=12, pairs=0)
    cube = build_cube(round_)
    tables = ModelTables.from_cube(cube)
    items = scored_items(round_)
    assert tables.stigma_positions == tuple(int(i) for i in np.unique(items.stigma_index))
    assert tables.structure_positions == tuple(int(i) for i in np.unique(items.structure_index))
    assert len(tables.stigma_positions) < 30
    assert tables.scored.shape == (len(tables.stigma_positions), len(tables.structure_positions))
    assert tables.scored.sum() == len(items.item_ids)
