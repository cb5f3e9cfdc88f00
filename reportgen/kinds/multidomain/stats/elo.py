"""Online Elo over the battle list and its bootstrap replicates (multidomain-metrics.md §5).

In bootstrap replicate r the battle list takes item i w(r, i) times, consecutively, so every
replicate plays exactly `items` item-copies: step t of replicate r is its t-th copy. All
replicates advance together; battles of one step between disjoint participants commute, so
the sequence is cut into waves of disjoint pairs, each one vectorised update over the
replicates, bit for bit the same ratings as the battle-by-battle loop.

Per wave, the ratings are gathered once into the wave's layout (the a's rows, the b's rows,
then the idle participants) and updated there: the next wave gathers from that layout, so
no scatter back is needed. Battles that do not take place (a participant without a valid
score on the item, rare) get a zero change at their (battle, replicate) positions, listed
once per replicate block, instead of a multiplication of every change by 0 or 1.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds.multidomain.model import Pairwise as PairwiseRules

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
# Below this many ratings per step (replicates x participants) the waves are too small
# for two threads to gain: one runs them all.
_THREADED_RATINGS = 32_768
Pairs = tuple[tuple[int, int], ...]
Exp = Callable[[FloatArray], None]  # the exponential, in place


def _np_exp(values: FloatArray) -> None:
    np.exp(values, out=values)


@dataclass(frozen=True)
class Wave:
    steps: IntArray  # the step of each battle
    pairs: IntArray  # its pair index (a column, to broadcast over replicates)
    both: IntArray  # a of each pair, then b of each pair
    gather: IntArray  # rows of the previous wave's layout that make this wave's layout


@dataclass(frozen=True)
class Schedule:
    """The waves, and where every battle (step, pair) falls: its wave and row there."""

    waves: tuple[Wave, ...]
    wave_of: IntArray  # (steps x pairs)
    row_of: IntArray  # (steps x pairs)
    final: IntArray  # participant m's row in the last wave's layout


def _step_levels(pairs: Pairs, last: list[int]) -> list[int]:
    """The level of each battle of one step, given each participant's last level (updated):
    one more than the later of its two participants' previous battles."""
    levels = []
    for a, b in pairs:
        level = max(last[a], last[b]) + 1
        last[a] = last[b] = level
        levels.append(level)
    return levels


def _levels(steps: int, pairs: Pairs, models: int) -> IntArray:
    """(steps x pairs) levels. Levels are max-plus linear in the participants' last levels:
    once a step moves every participant's last level by the same c, each later step is
    the previous one shifted by c, so only the first steps are walked in Python."""
    last = [-1] * models
    rows: list[list[int]] = []
    for step in range(steps):
        before = last.copy()
        rows.append(_step_levels(pairs, last))
        shifts = {after - previous for after, previous in zip(last, before, strict=True)}
        if len(shifts) == 1:
            (shift,) = shifts
            later = np.arange(1, steps - step, dtype=np.int64)[:, None] * shift
            return np.vstack(
                [
                    np.array(rows, dtype=np.int64).reshape(-1, len(pairs)),
                    np.array(rows[-1], dtype=np.int64)[None, :] + later,
                ]
            )
    return np.array(rows, dtype=np.int64).reshape(steps, len(pairs))


@functools.lru_cache(maxsize=8)
def schedule(steps: int, pairs: Pairs) -> Schedule:
    """The battle sequence (step t, pair p) cut into waves of disjoint pairs that keep the
    order of every participant's battles: wave n holds the battles of level n (levels are
    consecutive from 0), by step, then pair."""
    models = 1 + max(max(pair) for pair in pairs)
    levels = _levels(steps, pairs, models).ravel()
    order = np.argsort(levels, kind="stable")
    starts = np.concatenate([[0], np.flatnonzero(np.diff(levels[order])) + 1])
    counts = np.diff(np.append(starts, len(order)))
    step_of, pair_of = np.divmod(order, len(pairs))
    rank = np.arange(len(order), dtype=np.int64) - np.repeat(starts, counts)
    row_of = np.empty(len(levels), dtype=np.int64)
    row_of[order] = rank
    first = np.array([a for a, _ in pairs], dtype=np.int64)[pair_of]
    second = np.array([b for _, b in pairs], dtype=np.int64)[pair_of]
    waves: list[Wave] = []
    where = np.arange(models, dtype=np.int64)  # participant m's row in the current layout
    chunk = max(1, _LAYOUT_CELLS // models)
    for low in range(0, len(starts), chunk):
        high = min(low + chunk, len(starts))
        span = slice(starts[low], starts[high] if high < len(starts) else len(order))
        layout = _layouts(first[span], second[span], rank[span], counts[low:high], models)
        inverse = np.empty_like(layout)
        np.put_along_axis(inverse, layout, np.arange(models, dtype=np.int64)[None, :], axis=1)
        gather = np.take_along_axis(np.vstack([where[None, :], inverse[:-1]]), layout, axis=1)
        for wave in range(high - low):
            start, n = int(starts[low + wave]), int(counts[low + wave])
            battles = slice(start, start + n)
            waves.append(
                Wave(
                    steps=step_of[battles],
                    pairs=pair_of[battles, None],
                    both=layout[wave, : 2 * n],
                    gather=gather[wave],
                )
            )
        where = inverse[-1]
    return Schedule(
        waves=tuple(waves),
        wave_of=levels.reshape(steps, len(pairs)),
        row_of=row_of.reshape(steps, len(pairs)),
        final=where,
    )


# Waves x participants whose layouts are worked out together (8 MiB of int64).
_LAYOUT_CELLS = 2**20


def _layouts(
    first: IntArray, second: IntArray, rank: IntArray, counts: IntArray, models: int
) -> IntArray:
    """(waves, models): each wave's layout, the a of each battle, then the b of each, then
    the idle participants in order. A participant's sort key is its place among the wave's
    a's and b's (rank, counts + rank), or 2 x models + itself when idle."""
    waves = np.repeat(np.arange(len(counts), dtype=np.int64), counts)
    key = np.tile(2 * models + np.arange(models, dtype=np.int64), (len(counts), 1))
    key[waves, first] = rank
    key[waves, second] = np.repeat(counts, counts) + rank
    layout: IntArray = np.argsort(key, axis=1, kind="stable")
    return layout


def elo(
    valid: BoolArray,
    outcome: FloatArray,
    pairs: Pairs,
    models: int,
    rules: PairwiseRules,
    sequence: IntArray,
    exp: Exp = _np_exp,
) -> FloatArray:
    """Online Elo ratings (replicates x models); `sequence[r, t]` is the item replicate r
    plays at step t; `outcome[i, p]` a's score in pair p on item i, `valid[i, p]` whether
    that battle takes place; `exp` computes the exponentials in place (numpy's by default;
    `elo_fast.elo_exp` for the compiled kernel's twin).

    Replicates are independent: with many ratings per step, two threads each run half
    (numpy releases the interpreter lock in its array operations), with the same results."""
    replicates, steps = sequence.shape
    if not pairs or steps == 0:
        return np.full((replicates, models), float(rules.elo_initial))
    halves = 2 if replicates * models >= _THREADED_RATINGS and (os.cpu_count() or 1) > 1 else 1
    parts = np.array_split(sequence, halves)
    plan = schedule(steps, pairs)
    # Listed one part after the other, before the threads start: the lists' working
    # arrays (millions of entries at 60 x 2,100) never exist twice at once.
    skipped = [_skipped(valid, part, plan) for part in parts]
    if halves == 1:
        return _elo_part(outcome, pairs, models, rules, sequence, skipped[0], exp)
    with ThreadPoolExecutor(max_workers=halves) as pool:
        done = list(
            pool.map(
                lambda job: _elo_part(outcome, pairs, models, rules, job[0], job[1], exp),
                zip(parts, skipped, strict=True),
            )
        )
    return np.vstack(done)


def _skipped(valid: BoolArray, sequence: IntArray, plan: Schedule) -> tuple[IntArray, IntArray]:
    """The (battle, replicate) positions that do not take place, grouped by wave: flat
    positions (row x replicates + replicate) in a wave's change array, and each wave's
    bounds in that list. There can be millions (a few per thousand battles at 60 x 2,100
    x 1,001), so the lists are 32-bit where the positions allow."""
    replicates, steps_ = sequence.shape
    pairs = valid.shape[1]
    small = max(steps_ * pairs, replicates * max(1, len(plan.final))) < 2**31
    kind = np.int32 if small else np.int64
    bad_items, bad_pairs = np.nonzero(~valid)  # by item, then pair
    count = np.bincount(bad_items, minlength=valid.shape[0])
    start = np.cumsum(count) - count
    steps, reps = np.nonzero(count[sequence.T] > 0)
    items = sequence[reps, steps]
    per = count[items]
    # bad_pairs index of each instance: its item's start, then 0, 1, ... within the item
    index = np.repeat(start[items] - np.cumsum(per) + per, per)
    index += np.arange(len(index))
    battle: np.ndarray[Any, Any] = bad_pairs.astype(kind)[index]
    del index
    battle += np.repeat((steps * pairs).astype(kind), per)
    wave = plan.wave_of.ravel()[battle]
    position: np.ndarray[Any, Any] = plan.row_of.ravel().astype(kind)[battle]
    del battle
    position *= replicates
    position += np.repeat(reps.astype(kind), per)
    order = np.argsort(wave, kind="stable")
    bounds = np.searchsorted(wave[order], np.arange(len(plan.waves) + 1))
    positions: IntArray = position[order]
    return positions, bounds


def _elo_part(
    outcome: FloatArray,
    pairs: Pairs,
    models: int,
    rules: PairwiseRules,
    sequence: IntArray,
    skipped: tuple[IntArray, IntArray],
    exp: Exp,
) -> FloatArray:
    replicates, steps = sequence.shape
    plan = schedule(steps, pairs)
    # Participants x replicates, rows in the current wave's layout.
    ratings = np.full((models, replicates), float(rules.elo_initial))
    spare = np.empty_like(ratings)
    # Flat (item, pair) index of every battle of step t: item_offset[t] + pair.
    item_offset = np.ascontiguousarray(sequence.T) * len(pairs)
    k = float(rules.k)
    won = (k * outcome).ravel()  # K x outcome
    positions, bounds = skipped
    slope = np.log(float(rules.base)) / rules.scale  # base^(x/scale) = exp(slope x)
    for number, wave in enumerate(plan.waves):
        n = len(wave.steps)
        np.take(ratings, wave.gather, axis=0, out=spare)
        ratings, spare = spare, ratings
        ra, rb = ratings[:n], ratings[n : 2 * n]
        expected = rb - ra
        expected *= slope
        exp(expected)
        expected += 1.0
        np.divide(k, expected, out=expected)  # K x E_a
        index = item_offset[wave.steps]
        index += wave.pairs
        delta = won.take(index)
        delta -= expected
        if bounds[number] != bounds[number + 1]:
            delta.put(positions[bounds[number] : bounds[number + 1]], 0.0)
        ra += delta
        rb -= delta
    result: FloatArray = ratings[plan.final].T.copy()
    return result


def replicate_sequence(weights: IntArray) -> IntArray:
    """Step t of replicate r: item i repeated w(r, i) times, items in order."""
    replicates, items = weights.shape
    tiled = np.tile(np.arange(items, dtype=np.int64), replicates)
    return np.repeat(tiled, weights.ravel()).reshape(replicates, -1)
