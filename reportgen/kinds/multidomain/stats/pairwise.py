"""The head-to-head matrix (multidomain-metrics.md §5, MD-I12): battles, W/L/T, online Elo,
Bradley-Terry, and their item bootstrap.

Battles: for each scored item in ascending order, each pair (a, b) in models.csv order with
a valid score on both: outcome 1, 0 or ½ by comparing p̄ exactly. Elo runs online over that
list, and over every bootstrap replicate's list at once: for a round up to
`FAST_ELO_UPDATES` rating updates (the demonstration round's 74 million) numpy's waves of
disjoint battles (`elo.py`, with numpy's exponential, bit for bit the battle-by-battle
loop); above, the compiled kernel (`elo_fast.py`, its own exponential: within
`elo_fast.TOLERANCE` rating points of the waves, the same bits on every machine).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds.multidomain.model import Pairwise as PairwiseRules
from reportgen.kinds.multidomain.score import RoundPoints
from reportgen.kinds.multidomain.stats import elo as online
from reportgen.kinds.multidomain.stats import elo_fast
from reportgen.kinds.multidomain.stats.bootstrap import ScaledPoints
from reportgen.kinds.multidomain.stats.elo import replicate_sequence as replicate_sequence

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
_TOLERANCE = 1e-12
_NEWTON_STEPS = 60
_NEWTON_DONE = 1e-10
_MM_STEPS = 100_000
# Rating updates (rows x steps x pairs) from which Elo runs on the compiled kernel: 4 x
# the demonstration round's (1,001 x 700 x 105), which stays on the exact path.
FAST_ELO_UPDATES = 2**28


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
        if not self.pairs:
            return mass
        first, second = np.array(self.pairs, dtype=np.int64).T
        mass[:, first, second] = np.where(self.valid, self.outcome, 0.0)
        mass[:, second, first] = np.where(self.valid, 1.0 - self.outcome, 0.0)
        return mass


def battles(points: RoundPoints) -> Battles:
    pairs = tuple(itertools.combinations(range(len(points.model_ids)), 2))
    scaled = ScaledPoints.of(points).points  # items x models, exact integers
    valid_score = np.array(points.valid, dtype=bool).reshape(len(points.model_ids), -1).T
    first = np.array([a for a, _ in pairs], dtype=np.int64)
    second = np.array([b for _, b in pairs], dtype=np.int64)
    mine, theirs = scaled[:, first], scaled[:, second]  # items x pairs
    outcome = np.where(mine > theirs, 1.0, np.where(mine < theirs, 0.0, 0.5))
    valid = valid_score[:, first] & valid_score[:, second]
    return Battles(pairs=pairs, outcome=outcome, valid=valid)


def elo(
    battles_: Battles,
    models: int,
    rules: PairwiseRules,
    sequence: IntArray | None = None,
    *,
    fast: bool | None = None,
) -> FloatArray:
    """Online Elo ratings (replicates x models); `sequence[r, t]` is the item replicate r
    plays at step t (default: one replicate, the items in order). `fast`: the compiled
    kernel (`elo_fast.elo`) instead of numpy's waves (`elo.elo`); by default from
    `FAST_ELO_UPDATES` rating updates."""
    if sequence is None:
        sequence = np.arange(battles_.outcome.shape[0], dtype=np.int64)[None, :]
    if fast is None:
        fast = sequence.size * len(battles_.pairs) >= FAST_ELO_UPDATES
    run = elo_fast.elo if fast else online.elo
    return run(battles_.valid, battles_.outcome, battles_.pairs, models, rules, sequence)


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
    """Newton steps per replicate until its largest step is below `_NEWTON_DONE` (the
    next would be float noise: convergence is quadratic); converged replicates leave the
    batch, so the work follows the replicates still moving."""
    replicates, models = wins.shape[0], wins.shape[1]
    games = wins + wins.transpose(0, 2, 1)
    won = wins.sum(axis=2)
    theta = np.zeros((replicates, models))
    gauge = np.ones((models, models)) / models
    moving = np.arange(replicates)
    for _ in range(_NEWTON_STEPS):
        current, played = theta[moving], games[moving]
        p = 1.0 / (1.0 + np.exp(current[:, None, :] - current[:, :, None]))  # p[a, b]
        gradient = won[moving] - np.sum(played * p, axis=2)
        curvature = played * p * (1.0 - p)
        laplacian = np.eye(models)[None] * curvature.sum(axis=2)[:, :, None] - curvature
        step = np.linalg.solve(laplacian + gauge, gradient[:, :, None])[:, :, 0]
        step = np.clip(step, -2.0, 2.0)
        theta[moving] = current + step
        moving = moving[np.max(np.abs(step), axis=1) >= _NEWTON_DONE]
        if len(moving) == 0:
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
    battles_: Battles,
    models: int,
    rules: PairwiseRules,
    weights: IntArray,
    *,
    fast: bool | None = None,
) -> PairwiseReplicates:
    """Elo and BT refitted on every replicate's battle list (§5, bootstrap). The round's
    own Elo runs as one more row beside the replicates (the same waves or kernel)."""
    items = weights.shape[1]
    own = np.arange(items, dtype=np.int64)[None, :]
    sequence = np.vstack([own, replicate_sequence(weights)])
    ratings = elo(battles_, models, rules, sequence, fast=fast)
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
