"""Tests that fork need this process to run no other Python thread (reportgen/workers.py,
`fork_allowed`): a thread an earlier test module left winding down (a pool's manager, a
server's) is waited for."""

from __future__ import annotations

import threading

WAIT_S = 60  # a bound, not a pause: it returns as soon as the threads have ended


def wait_for_other_threads() -> None:
    for thread in threading.enumerate():
        if thread is not threading.current_thread():
            thread.join(timeout=WAIT_S)
    still = [t.name for t in threading.enumerate() if t is not threading.current_thread()]
    assert not still, f"threads still running, which forbid a fork: {still}"
