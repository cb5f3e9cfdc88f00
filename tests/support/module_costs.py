"""The order in which the test modules go to the workers: costliest first.

pytest-xdist (`--dist loadfile`, scripts/test.sh) hands each worker one module at a time,
in the order of the collected items. A long module sent last leaves the other workers
idle while it runs, so the modules go out by their cost, longest first (the greedy
"longest processing time" rule), and the cheap ones fill the end of the run. Browser and
database modules wait on Chromium, the app server or PostgreSQL: with modules of every
kind mixed by cost, a worker that waits leaves its core to another one's computing.

A module's cost is the CPU seconds its tests took (the worker process and everything
below it), recorded by `-p tests.support.module_costs` into the folder named by
REPORTGEN_TEST_COSTS_DIR, one JSON line per test, and merged into tests/module_costs.json
by `python scripts/test_costs.py FOLDER`. Where the run may make a Linux control group
(as root), each worker moves into one of its own and a test's cost is what the group
used: every process the worker started, Chromium's renderers included, which leave the
process tree before anyone waits for them; the process tree's times (psutil) missed most
of a browser module's CPU (test_browser_axe.py: 53 of 184 CPU s, 2026-12-03). Elsewhere
the tree's times are the cost. A module not recorded yet costs what its groups
suggest (DEFAULT_COST). The order changes how long a run takes, never what it tests.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Generator, Iterable
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
COSTS = REPO / "tests" / "module_costs.json"
# CPU seconds of a module that has no recorded cost: about the median of the recorded
# modules of its group (tests/module_costs.json, 2026-12-03).
DEFAULT_COST = {"browser": 10.0, "slow": 10.0, "site": 5.0}
DEFAULT_OTHER = 0.5


@cache
def recorded_costs() -> dict[str, float]:
    """The recorded CPU seconds of each test module, by its path from the repository."""
    if not COSTS.is_file():
        return {}
    costs: dict[str, float] = json.loads(COSTS.read_text(encoding="utf-8"))["cpu_seconds"]
    return costs


def module_cost(path: Path, groups: Iterable[str]) -> float:
    """The recorded cost of the module at `path`, or its groups' default."""
    key = path.resolve().relative_to(REPO).as_posix()
    recorded = recorded_costs().get(key)
    if recorded is not None:
        return recorded
    return max((DEFAULT_COST.get(group, DEFAULT_OTHER) for group in groups), default=DEFAULT_OTHER)


# The cgroup v1 accounting hierarchy, or the v2 one where the machine has only that.
_CGROUP_V1 = Path("/sys/fs/cgroup/cpuacct")
_CGROUP_V2 = Path("/sys/fs/cgroup")


@cache
def _own_cgroup() -> Path | None:
    """A control group holding this worker (and so every process it starts), or None
    where none can be made (not root, no cgroup file system)."""
    name = f"reportgen-tests-{os.environ.get('PYTEST_XDIST_WORKER', 'main')}-{os.getpid()}"
    v1 = _CGROUP_V1.is_dir()
    if not v1 and not (_CGROUP_V2 / "cgroup.controllers").is_file():
        return None
    group = (_CGROUP_V1 if v1 else _CGROUP_V2) / name
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
    except OSError:
        return None
    return group


def _cgroup_cpu_seconds(group: Path) -> float:
    if group.is_relative_to(_CGROUP_V1):
        return int((group / "cpuacct.usage").read_text()) / 1e9
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    return int(stat["usage_usec"]) / 1e6


def _cpu_seconds() -> float:
    """The CPU seconds used so far by this worker and what it started."""
    group = _own_cgroup()
    return _cgroup_cpu_seconds(group) if group is not None else _tree_cpu_seconds()


def _tree_cpu_seconds() -> float:
    import psutil  # only when recording

    me = psutil.Process()
    total = 0.0
    for process in [me, *me.children(recursive=True)]:
        try:
            times = process.cpu_times()
        except psutil.Error:  # a child that ended between the listing and the reading
            continue
        total += times.user + times.system + times.children_user + times.children_system
    return total


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Generator[None, None, None]:
    """Records the CPU seconds of one test (its setup and teardown included)."""
    folder = os.environ.get("REPORTGEN_TEST_COSTS_DIR")
    if not folder:
        yield
        return
    before, started = _cpu_seconds(), time.monotonic()
    yield
    line = {
        "module": Path(item.path).resolve().relative_to(REPO).as_posix(),
        "cpu_s": _cpu_seconds() - before,
        "wall_s": time.monotonic() - started,
    }
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with (Path(folder) / f"costs-{worker}.jsonl").open("a", encoding="utf-8") as out:
        out.write(json.dumps(line) + "\n")
