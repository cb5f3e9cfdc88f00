"""One BLAS thread for small computations (reportgen.stats.blas_threads, issue 19)."""

from __future__ import annotations

import numpy as np
from threadpoolctl import threadpool_info, threadpool_limits

from reportgen.stats import blas_threads
from reportgen.stats._threads import SMALL_WORK


def _blas_threads() -> list[int]:
    return [int(pool["num_threads"]) for pool in threadpool_info() if pool["user_api"] == "blas"]


def test_small_work_runs_on_one_blas_thread_and_large_work_keeps_the_setting() -> None:
    np.ones((2, 2)) @ np.ones((2, 2))  # numpy's BLAS is loaded
    with threadpool_limits(limits=2, user_api="blas"):
        two = _blas_threads()
        assert two
        assert all(threads == 2 for threads in two)
        with blas_threads(SMALL_WORK):
            assert _blas_threads() == [1] * len(two)
        assert _blas_threads() == two
        with blas_threads(SMALL_WORK + 1):
            assert _blas_threads() == two


def test_the_setting_comes_back_when_the_computation_fails() -> None:
    with threadpool_limits(limits=2, user_api="blas"):
        two = _blas_threads()
        try:
            with blas_threads(1):
                raise RuntimeError("stop")
        except RuntimeError:
            pass
        assert _blas_threads() == two
