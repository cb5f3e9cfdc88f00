"""Rounds larger than the regulation's, for the benchmarks (issue 19): the demonstration
generator takes the sizes, and what makes the statistics fast at that size (the Elo waves'
periodic level pattern, exact sums per denominator, the partial-canary prefilter) gives
exactly what the plain definitions give.

How long anything takes is measured by bench/bench_multidomain_rules.py and
bench_multidomain_results.py, never asserted here."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from reportgen.archive import Problems
from reportgen.demo.multidomain.reg import Size, reg_round
from reportgen.errors import InputError
from reportgen.kinds.multidomain.rules import check_rules
from reportgen.kinds.multidomain.score import fraction_sum
from reportgen.kinds.multidomain.stats import bootstrap as bs
from reportgen.kinds.multidomain.stats import elo
from reportgen.kinds.multidomain.stats.integrity import _has_common_substring


def test_a_larger_generated_round_has_its_size_and_keeps_every_rule(tmp_path: Path) -> None:
    round_ = reg_round(tmp_path / "reg-2026-1", Size(participants=17, items=1400, runs=1))
    assert round_.manifest.cast_size == len(round_.models) == 17
    assert round_.manifest.runs == 1
    tests = [item for item in round_.items if not item.calibration and not item.variant_of]
    assert len(tests) == 1400
    assert sorted(Counter(item.domain_id for item in tests).values()) == [200] * 7
    assert {len(rows) for rows in round_.responses.values()} == {1401}  # the variant too
    assert [m.model_id for m in round_.models][-2:] == ["sintetico019-m", "sintetico020-m"]
    problems = Problems()
    check_rules(round_, problems)
    assert problems.as_list() == []


@pytest.mark.parametrize(
    "size",
    [Size(participants=14), Size(items=750), Size(items=0), Size(runs=0), Size(runs=10)],
)
def test_sizes_the_generator_cannot_make_are_refused(tmp_path: Path, size: Size) -> None:
    with pytest.raises(InputError):
        reg_round(tmp_path / "reg-2026-1", size)


def _naive_levels(steps: int, pairs: tuple[tuple[int, int], ...], models: int) -> np.ndarray:
    last = [-1] * models
    levels = np.zeros((steps, len(pairs)), dtype=np.int64)
    for step in range(steps):
        for index, (a, b) in enumerate(pairs):
            levels[step, index] = last[a] = last[b] = max(last[a], last[b]) + 1
    return levels


@pytest.mark.parametrize(("models", "steps"), [(2, 1), (2, 9), (3, 7), (5, 40), (8, 33)])
def test_wave_levels_follow_the_battle_order(models: int, steps: int) -> None:
    pairs = tuple(itertools.combinations(range(models), 2))
    assert np.array_equal(elo._levels(steps, pairs, models), _naive_levels(steps, pairs, models))
    plan = elo.schedule(steps, pairs)
    assert sum(len(wave.steps) for wave in plan.waves) == steps * len(pairs)
    layout = np.arange(models)  # the participant of each row of the current layout
    for number, wave in enumerate(plan.waves):  # a wave never holds one participant twice
        assert len(set(wave.both.tolist())) == len(wave.both)
        layout = layout[wave.gather]  # a's rows, b's rows, then the idle participants
        assert layout[: len(wave.both)].tolist() == wave.both.tolist()
        assert sorted(layout.tolist()) == list(range(models))
        assert plan.wave_of[wave.steps, wave.pairs[:, 0]].tolist() == [number] * len(wave.steps)
        assert plan.row_of[wave.steps, wave.pairs[:, 0]].tolist() == list(range(len(wave.steps)))
    assert layout[plan.final].tolist() == list(range(models))


@pytest.mark.parametrize("cells", [1, 17, 2**20])
def test_the_schedule_is_the_same_whatever_the_chunk_of_layouts(
    monkeypatch: pytest.MonkeyPatch, cells: int
) -> None:
    pairs = tuple(itertools.combinations(range(6), 2))
    whole = elo.schedule.__wrapped__(23, pairs)
    monkeypatch.setattr(elo, "_LAYOUT_CELLS", cells)  # 1: one wave per chunk
    chunked = elo.schedule.__wrapped__(23, pairs)
    assert len(chunked.waves) == len(whole.waves)
    for ours, theirs in zip(chunked.waves, whole.waves, strict=True):
        for name in ("steps", "pairs", "both", "gather"):
            assert np.array_equal(getattr(ours, name), getattr(theirs, name))
    assert np.array_equal(chunked.final, whole.final)


def test_fraction_sum_is_the_exact_sum() -> None:
    rng = random.Random(19)
    for _ in range(200):
        values = [Fraction(rng.randint(-50, 50), rng.randint(1, 12)) for _ in range(30)]
        assert fraction_sum(values) == sum(values, Fraction(0))
    assert fraction_sum([]) == 0


def test_the_partial_canary_prefilter_loses_no_common_piece() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        canary = "".join(rng.choice("ab") for _ in range(rng.randint(1, 12)))
        text = "".join(rng.choice("abc") for _ in range(rng.randint(0, 20)))
        length = rng.randint(1, len(canary))
        pieces = (canary[s : s + length] for s in range(len(canary) - length + 1))
        assert _has_common_substring(text, canary, length) == any(p in text for p in pieces)


def test_the_float_product_of_integer_matrices_is_the_integer_product() -> None:
    rng = np.random.default_rng(19)
    for high in (3, 10**6, 2**40, 2**52):  # the last overflows floats, not int64
        left = rng.integers(0, 12, size=(50, 40), dtype=np.int64)
        right = rng.integers(-high, high, size=(40, 7), dtype=np.int64)
        assert np.array_equal(bs.exact_product(left, right), left @ right)
    # near the bound: sums of 2**53 - 1 are still exact in floats, 2**53 + 1 would not be
    left = np.ones((1, 2), dtype=np.int64)
    right = np.array([[2**52], [2**52 - 1]], dtype=np.int64)
    assert bs.exact_product(left, right).tolist() == [[2**53 - 1]]
    right = np.array([[2**52], [2**52 + 1]], dtype=np.int64)
    assert bs.exact_product(left, right).tolist() == [[2**53 + 1]]
    assert bs.exact_product(left[:, :0], right[:0]).tolist() == [[0]]
