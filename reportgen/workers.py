"""The build's worker processes: how many a pool may start, and the work cut into chunks.

Three pools share these (the charts' drawing, the model pages' conversion and the leak
guard's scan), so that one setting, `REPORTGEN_DRAW_WORKERS`, governs them all.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
import threading
from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")


def pool_size() -> int:
    """Worker processes for a pool: the cores this process may use (REPORTGEN_DRAW_WORKERS
    sets it; 1 keeps the work in this process)."""
    configured = os.environ.get("REPORTGEN_DRAW_WORKERS", "")
    if configured.isdigit() and int(configured) > 0:
        return int(configured)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def fork_allowed() -> bool:
    """Whether this process may fork now: on Linux, with fork, and while it runs no other
    Python thread (a lock such a thread holds at the fork would stay held in the child)."""
    return (
        sys.platform == "linux"
        and "fork" in multiprocessing.get_all_start_methods()
        and threading.active_count() == 1
    )


def workers_for(items: int, chunk: int) -> int:
    """The workers worth starting for `items` handed out `chunk` at a time: no more than
    there are chunks, nor than `pool_size`."""
    return min(pool_size(), -(-items // chunk))


def chunked(items: Sequence[T], size: int) -> list[Sequence[T]]:
    """`items` in consecutive slices of `size` (the last one shorter)."""
    return [items[start : start + size] for start in range(0, len(items), size)]
