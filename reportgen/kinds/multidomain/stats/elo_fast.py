"""Online Elo at scale (multidomain-metrics.md §5): the compiled kernel, and its numpy twin.

At 60 participants x 2,100 items the bootstrap plays 1,001 x 2,100 x 1,770 = 3.7 billion
sequential rating updates; numpy's waves (`elo.py`) spend about 9 ns on each. Here every
update is one pass of a compiled loop (`_elo_kernel.c`, built with the package where a C
compiler is found), the replicates of a block as its vectorised inner loop, and the
replicates split between two threads (the kernel releases the interpreter lock).

The kernel's exponential is its own (`elo_exp`: Cody-Waite reduction, Taylor polynomial
of degree 13, 2^n from its bits), written here in numpy too, operation for operation:
every step is one IEEE double operation rounded to nearest, so the kernel, the numpy
twin (numpy's waves with `elo_exp` in place of `np.exp`, used where the kernel was not
built) and a battle-by-battle loop give the same ratings bit for bit, whatever the
machine, the vector width or the number of threads. They differ from the exact path's
(`np.exp`, whose last bit depends on the processor) by float noise only: `elo_exp` is
within 2 ulp of the exponential, and over a round's battle list the ratings move by less
than `TOLERANCE` rating points (tests/test_multidomain_elo_fast.py).
"""

from __future__ import annotations

import importlib
import os
from concurrent.futures import ThreadPoolExecutor
from types import ModuleType
from typing import Any

import numpy as np

from reportgen.kinds.multidomain.model import Pairwise as PairwiseRules
from reportgen.kinds.multidomain.stats import elo as waves


def _kernel() -> ModuleType | None:
    """The compiled kernel; None where the package was installed without a C compiler
    (the numpy twin then gives the same bits)."""
    try:
        return importlib.import_module("reportgen.kinds.multidomain.stats._elo_kernel")
    except ImportError:
        return None


kernel = _kernel()

FloatArray = np.ndarray[Any, np.dtype[np.float64]]
IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
Pairs = tuple[tuple[int, int], ...]

# Rating points: the fast path's ratings are within this of the exact path's (np.exp); on
# the generated 60 x 2,100 x 3 round (1,001 x 60 ratings, 3.7 billion updates) they
# differ by at most 1.8e-12.
TOLERANCE = 1e-9
# Replicates below this many per thread are not worth a second thread.
_THREADED_REPLICATES = 256

_SHIFT = 6755399441055744.0  # 0x1.8p52: adding it rounds to an integer
_SHIFT_BITS = int(np.array(_SHIFT).view(np.int64))
_LOG2E = 1.4426950408889634
_LN2_HI = 6.93147180369123816490e-01  # 0x3fe62e42fee00000: n x _LN2_HI is exact
_LN2_LO = 1.90821492927058770002e-10
_LIMIT = 708.0
# 1/k!, k = 13 down to 0 (Horner)
_TAYLOR = (
    1.6059043836821613e-10,
    2.08767569878681e-09,
    2.505210838544172e-08,
    2.755731922398589e-07,
    2.7557319223985893e-06,
    2.48015873015873e-05,
    0.0001984126984126984,
    0.001388888888888889,
    0.008333333333333333,
    0.041666666666666664,
    0.16666666666666666,
    0.5,
    1.0,
    1.0,
)


def elo_exp(x: FloatArray) -> FloatArray:
    """exp(x) as the kernel computes it: x clamped to [-708, 708]; x = n ln 2 + r with
    |r| <= ln 2 / 2; e^r by Horner's rule on the Taylor polynomial; times 2^n."""
    x = np.maximum(np.minimum(x, _LIMIT), -_LIMIT)
    t = x * _LOG2E
    t += _SHIFT
    n = t - _SHIFT
    r = x - n * _LN2_HI
    r -= n * _LN2_LO
    p = np.full_like(r, _TAYLOR[0])
    for coefficient in _TAYLOR[1:]:
        p *= r
        p += coefficient
    bits = t.view(np.int64) - (_SHIFT_BITS - 1023)
    bits <<= 52
    p *= bits.view(np.float64)
    return p


def _exp_in_place(x: FloatArray) -> None:
    x[...] = elo_exp(x)


def elo(
    valid: BoolArray,
    outcome: FloatArray,
    pairs: Pairs,
    models: int,
    rules: PairwiseRules,
    sequence: IntArray,
    *,
    compiled: bool = True,
    threads: int | None = None,
) -> FloatArray:
    """Online Elo ratings (replicates x models), as `elo.elo` plays them, with `elo_exp`:
    the kernel where it was built (and `compiled`), else numpy's waves."""
    replicates, steps = sequence.shape
    if not pairs or steps == 0:
        return np.full((replicates, models), float(rules.elo_initial))
    if kernel is None or not compiled:
        return waves.elo(valid, outcome, pairs, models, rules, sequence, exp=_exp_in_place)
    k = float(rules.k)
    won = np.where(valid, k * outcome, np.nan).ravel()
    offsets = np.ascontiguousarray(sequence.T) * len(pairs)
    first = np.array([a for a, _ in pairs], dtype=np.int64)
    second = np.array([b for _, b in pairs], dtype=np.int64)
    ratings = np.full((models, replicates), float(rules.elo_initial))
    slope = float(np.log(float(rules.base)) / rules.scale)
    if threads is None:
        threads = 2 if replicates >= 2 * _THREADED_REPLICATES and (os.cpu_count() or 1) > 1 else 1
    bounds = np.linspace(0, replicates, threads + 1).astype(int)

    def part(low: int, high: int) -> None:
        assert kernel is not None
        kernel.run(
            ratings, won, offsets, first, second, replicates, low, high, steps, len(pairs), k, slope
        )

    if threads == 1:
        part(0, replicates)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(part, bounds[:-1], bounds[1:]))
    result: FloatArray = ratings.T.copy()
    return result
