"""The head-to-head matrix (multidomain-metrics.md §5, MD-I12): battles, W/L/T, online Elo,
Bradley-Terry, and their item bootstrap.

Battles: for each scored item in ascending order, each pair (a, b) in models.csv order with
a valid score on both: outcome 1, 0 or ½ by comparing p̄ exactly. Elo runs online over that
list. In bootstrap replicate r the list takes item i w(r, i) times, consecutively, so every
replicate plays exactly `items` item-copies: step t of replicate r is its t-th copy. All
replicates advance together; battles of one step between disjoint participants commute, so
the sequence is cut into waves of disjoint pairs (each wave one vectorised update, bit for
bit the same ratings as the sequential loop).
"""

from __future__ import annotations

import functools
import itertools
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds.multidomain.model import Pairwise as PairwiseRules
from reportgen.kinds.multidomain.score import RoundPoints
from reportgen.kinds.multidomain.stats.bootstrap import ScaledPoints

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
_TOLERANCE = 1e-12
_NEWTON_STEPS = 60
_MM_STEPS = 100_000
# Below this many ratings per step (replicates x participants) the waves are too small
# for two threads to gain: one runs them all.
_THREADED_RATINGS = 32_768


@dataclass(frozen=True)
class Battles:
    """Outcomes per (item, pair): `outcome[i, p]` for pair p = pairs[p] (a, b) is a's
    score (1, 0, 0.5); `valid[i, p]` whether the battle takes place."""

    pairs: tuple[tuple[int, int], ...]
    outcome: FloatArray
    valid: BoolArray

    @property
    def count(self) -> int:
        return int(np.count_nonzero(self.valid))

    def wlt(self, pair: int) -> tuple[int, int, int]:
        played = self.outcome[self.valid[:, pair], pair]
        return (
            int(np.count_nonzero(played == 1.0)),
            int(np.count_nonzero(played == 0.0)),
            int(np.count_nonzero(played == 0.5)),
        )

    def win_mass(self, models: int) -> FloatArray:
        """(items x models x models): a's win mass against b on each item."""
        mass = np.zeros((self.outcome.shape[0], models, models))
        for index, (a, b) in enumerate(self.pairs):
            played = self.valid[:, index]
            mass[played, a, b] = self.outcome[played, index]
            mass[played, b, a] = 1.0 - self.outcome[played, index]
        return mass


def battles(points: RoundPoints) -> Battles:
    pairs = tuple(itertools.combinations(range(len(points.model_ids)), 2))
    scaled = ScaledPoints.of(points).points  # items x models, exact integers
    valid_score = np.array(points.valid, dtype=bool).reshape(len(points.model_ids), -1).T
    n = len(points.items)
    outcome = np.zeros((n, len(pairs)))
    valid = np.zeros((n, len(pairs)), dtype=bool)
    for index, (a, b) in enumerate(pairs):
        ahead, behind = scaled[:, a] > scaled[:, b], scaled[:, a] < scaled[:, b]
        outcome[:, index] = np.where(ahead, 1.0, np.where(behind, 0.0, 0.5))
        valid[:, index] = valid_score[:, a] & valid_score[:, b]
    return Battles(pairs=pairs, outcome=outcome, valid=valid)


def _step_levels(pairs: tuple[tuple[int, int], ...], last: list[int]) -> list[int]:
    """The level of each battle of one step, given each participant's last level (updated):
    one more than the later of its two participants' previous battles."""
    levels = []
    for a, b in pairs:
        level = max(last[a], last[b]) + 1
        last[a] = last[b] = level
        levels.append(level)
    return levels


def _levels(steps: int, pairs: tuple[tuple[int, int], ...], models: int) -> IntArray:
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
def _waves(steps: int, pairs: tuple[tuple[int, int], ...]) -> tuple[Wave, ...]:
    """The battle sequence (step t, pair p) cut into waves of disjoint pairs that keep the
    order of every participant's battles: wave n holds the battles of level n."""
    models = 1 + max(max(pair) for pair in pairs)
    levels = _levels(steps, pairs, models).ravel()
    order = np.argsort(levels, kind="stable")  # by level, then step, then pair
    bounds = np.flatnonzero(np.diff(levels[order])) + 1
    first = np.array([a for a, _ in pairs], dtype=np.int64)
    second = np.array([b for _, b in pairs], dtype=np.int64)
    waves = []
    for battles_ in np.split(order, bounds):
        step_list, pair_list = np.divmod(battles_, len(pairs))
        waves.append(
            Wave(
                steps=step_list,
                pairs=pair_list[:, None],
                both=np.concatenate([first[pair_list], second[pair_list]]),
            )
        )
    return tuple(waves)


@dataclass(frozen=True)
class Wave:
    steps: IntArray  # the step of each battle
    pairs: IntArray  # its pair index (a column, to broadcast over replicates)
    both: IntArray  # a of each pair, then b of each pair


def elo(
    battles_: Battles, models: int, rules: PairwiseRules, sequence: IntArray | None = None
) -> FloatArray:
    """Online Elo ratings (replicates x models); `sequence[r, t]` is the item replicate r
    plays at step t (default: one replicate, the items in order).

    Replicates are independent: with many ratings per step, two threads each run half
    (numpy releases the interpreter lock in its array operations), with the same results."""
    if sequence is None:
        sequence = np.arange(battles_.outcome.shape[0], dtype=np.int64)[None, :]
    replicates, steps = sequence.shape
    if not battles_.pairs or steps == 0:
        return np.full((replicates, models), float(rules.elo_initial))
    halves = 2 if replicates * models >= _THREADED_RATINGS and (os.cpu_count() or 1) > 1 else 1
    parts = np.array_split(sequence, halves)
    if halves == 1:
        return _elo_part(battles_, models, rules, sequence)
    with ThreadPoolExecutor(max_workers=halves) as pool:
        done = list(pool.map(lambda part: _elo_part(battles_, models, rules, part), parts))
    return np.vstack(done)


def _elo_part(
    battles_: Battles, models: int, rules: PairwiseRules, sequence: IntArray
) -> FloatArray:
    replicates, steps = sequence.shape
    # Participants x replicates: each participant's ratings are one contiguous row.
    ratings = np.full((models, replicates), float(rules.elo_initial))
    width = len(battles_.pairs)
    # Flat (item, pair) index of every battle of step t: item_offset[t] + pair.
    item_offset = np.ascontiguousarray(sequence.T) * width
    k = float(rules.k)
    won = (k * battles_.outcome).ravel()  # K x outcome
    played = battles_.valid.ravel().astype(np.float64)
    all_played = bool(battles_.valid.all())
    slope = np.log(float(rules.base)) / rules.scale  # base^(x/scale) = exp(slope x)
    for wave in _waves(steps, battles_.pairs):
        n = len(wave.steps)
        both = ratings[wave.both]  # a's rows, then b's
        ra, rb = both[:n], both[n:]
        expected = rb - ra
        expected *= slope
        np.exp(expected, out=expected)
        expected += 1.0
        np.divide(k, expected, out=expected)  # K x E_a
        index = item_offset[wave.steps]
        index += wave.pairs
        delta = won.take(index)
        delta -= expected
        if not all_played:
            delta *= played.take(index)
        ra += delta
        rb -= delta
        ratings[wave.both] = both
    result: FloatArray = ratings.T.copy()
    return result


def replicate_sequence(weights: IntArray) -> IntArray:
    """Step t of replicate r: item i repeated w(r, i) times, items in order."""
    replicates, items = weights.shape
    tiled = np.tile(np.arange(items, dtype=np.int64), replicates)
    return np.repeat(tiled, weights.ravel()).reshape(replicates, -1)


def estimable(wins: FloatArray) -> BoolArray:
    """Per replicate (wins: R x M x M): every participant has a battle and the graph
    a -> b (a has positive win mass against b) is strongly connected."""
    replicates, models = wins.shape[0], wins.shape[1]
    games = wins + wins.transpose(0, 2, 1)
    has_battle = np.all(games.sum(axis=2) > 0, axis=1)
    reach = (wins > 0) | np.eye(models, dtype=bool)[None, :, :]
    for _ in range(max(1, int(np.ceil(np.log2(max(models, 2)))))):
        # 0/1 floats: BLAS multiplies them; path counts (at most models) stay exact
        paths = reach.astype(np.float64)
        reach = (paths @ paths) > 0
    connected: BoolArray = has_battle & np.all(reach.reshape(replicates, -1), axis=1)
    return connected


def bradley_terry(wins: FloatArray, rules: PairwiseRules) -> FloatArray:
    """Maximum-likelihood ratings (R x M), mean `bt_mean`, for estimable win matrices.

    Newton steps on log-strengths (the log-likelihood is concave) bring every replicate
    near the optimum; MM iterations then run until the relative change of the strengths
    is below 1e-12 for every replicate.
    """
    theta = _newton(wins)
    theta = _mm(wins, theta)
    theta -= theta.mean(axis=1, keepdims=True)
    ratings: FloatArray = rules.bt_mean + rules.scale * theta / np.log(rules.base)
    return ratings


def _newton(wins: FloatArray) -> FloatArray:
    replicates, models = wins.shape[0], wins.shape[1]
    games = wins + wins.transpose(0, 2, 1)
    won = wins.sum(axis=2)
    theta = np.zeros((replicates, models))
    gauge = np.ones((models, models)) / models
    for _ in range(_NEWTON_STEPS):
        p = 1.0 / (1.0 + np.exp(theta[:, None, :] - theta[:, :, None]))  # p[a, b]
        gradient = won - np.sum(games * p, axis=2)
        curvature = games * p * (1.0 - p)
        laplacian = np.eye(models)[None] * curvature.sum(axis=2)[:, :, None] - curvature
        step = np.linalg.solve(laplacian + gauge, gradient[:, :, None])[:, :, 0]
        step = np.clip(step, -2.0, 2.0)
        theta += step
        if np.max(np.abs(step)) < 1e-13:
            break
    return theta


def _mm(wins: FloatArray, theta: FloatArray) -> FloatArray:
    games = wins + wins.transpose(0, 2, 1)
    won = wins.sum(axis=2)
    strength = np.exp(theta - theta.max(axis=1, keepdims=True))
    active = np.ones(strength.shape[0], dtype=bool)
    for _ in range(_MM_STEPS):
        current = strength[active]
        total = current[:, :, None] + current[:, None, :]
        updated = won[active] / np.sum(games[active] / total, axis=2)
        updated /= updated.sum(axis=1, keepdims=True)
        change = np.max(np.abs(updated - current) / current, axis=1)
        strength[active] = updated
        still = change >= _TOLERANCE
        active[np.flatnonzero(active)[~still]] = False
        if not active.any():
            break
    logs: FloatArray = np.log(strength)
    return logs


def win_probability(ratings: FloatArray, rules: PairwiseRules) -> FloatArray:
    """p_ab = 1 / (1 + base^((β_b - β_a) / scale)) (models x models)."""
    difference = ratings[None, :] - ratings[:, None]
    probability: FloatArray = 1.0 / (1.0 + float(rules.base) ** (difference / rules.scale))
    return probability


@dataclass(frozen=True)
class PairwiseReplicates:
    elo_estimate: FloatArray  # M: the round's own battle list
    elo: FloatArray  # R x M
    bt: FloatArray  # R' x M (estimable replicates only)
    non_estimable: int


def bootstrap(
    battles_: Battles, models: int, rules: PairwiseRules, weights: IntArray
) -> PairwiseReplicates:
    """Elo and BT refitted on every replicate's battle list (§5, bootstrap). The round's
    own Elo runs as one more row beside the replicates (the same waves)."""
    items = weights.shape[1]
    own = np.arange(items, dtype=np.int64)[None, :]
    ratings = elo(battles_, models, rules, np.vstack([own, replicate_sequence(weights)]))
    mass = battles_.win_mass(models).reshape(items, models * models)
    wins = (weights.astype(np.float64) @ mass).reshape(-1, models, models)
    ok = estimable(wins)
    fitted = bradley_terry(wins[ok], rules) if ok.any() else np.zeros((0, models))
    return PairwiseReplicates(
        elo_estimate=ratings[0],
        elo=ratings[1:],
        bt=fitted,
        non_estimable=int(np.count_nonzero(~ok)),
    )


def percentile_bounds(values: FloatArray) -> tuple[FloatArray, FloatArray] | None:
    """2.5 and 97.5 percentiles per column (numpy linear rule); None without rows."""
    if values.shape[0] == 0:
        return None
    low, high = np.percentile(values, [2.5, 97.5], axis=0, method="linear")
    return low, high
