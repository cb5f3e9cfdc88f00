"""BLAS threads for small computations (issue 19, docs/metrics.md "Cost at leaderboard scale").

OpenBLAS runs a product on every core it has and then keeps its worker threads spinning
for a while, waiting for the next one. A small round's statistics make many products of
a few milliseconds each, interleaved with other work: the second thread saves little
time and spins through most of the computation, which doubles its CPU time (and takes a
core from whatever else runs on the machine). `blas_threads(work)` runs a computation
of at most `SMALL_WORK` multiply-adds on one BLAS thread; a larger one keeps the
library's own setting (its products are long enough to use the cores).

The results never depend on it: the products whose values are kept are exact integers
(their summation order cannot show), and the others are checked to give the same
results with one thread or two (tests/test_results.py).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from threadpoolctl import ThreadpoolController

# Multiply-adds up to which one BLAS thread is used: a 20-model Estigmas round with 10,000
# replicates (about 0.1 s of products on one core).
SMALL_WORK = 2 * 10**9

_CONTROLLER: list[ThreadpoolController] = []


def _controller() -> ThreadpoolController:
    """The loaded BLAS libraries, looked up once (numpy's and scipy's OpenBLAS); imported
    here, so that commands that compute nothing do not load it."""
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0]


@contextmanager
def blas_threads(work: float) -> Iterator[None]:
    """One BLAS thread inside the block when `work` (multiply-adds) is at most SMALL_WORK."""
    if work > SMALL_WORK:
        yield
        return
    with _controller().limit(limits=1, user_api="blas"):
        yield
