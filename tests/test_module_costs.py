"""The order of the test modules (tests/support/module_costs.py): the costliest go to the
workers first, a module without a recorded cost costs its groups' default, and
scripts/test_costs.py merges a run's records into tests/module_costs.json."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

from tests.support import module_costs
from tests.support.module_costs import (
    COSTS,
    DEFAULT_COST,
    DEFAULT_OTHER,
    REPO,
    module_cost,
    recorded_costs,
)
from tests.support.scripts import load_script


def _script() -> ModuleType:
    return load_script("test_costs")


def test_every_recorded_module_exists_and_costs_a_positive_figure() -> None:
    costs = recorded_costs()
    assert costs, COSTS
    assert [module for module in costs if not (REPO / module).is_file()] == []
    assert all(seconds >= 0 for seconds in costs.values())


def test_a_recorded_module_costs_its_record_and_a_new_one_its_groups_default() -> None:
    (module, seconds) = max(recorded_costs().items(), key=lambda pair: pair[1])
    assert module_cost(REPO / module, {"browser"}) == seconds
    new = REPO / "tests" / "test_not_recorded_yet.py"
    assert module_cost(new, set()) == DEFAULT_OTHER
    assert module_cost(new, {"site"}) == DEFAULT_COST["site"]
    assert module_cost(new, {"site", "browser"}) == DEFAULT_COST["browser"]


def test_the_collected_modules_come_costliest_first(request: pytest.FixtureRequest) -> None:
    seen: list[Path] = []
    for item in request.session.items:
        if not seen or seen[-1] != Path(item.path):
            seen.append(Path(item.path))
    assert len(seen) == len(set(seen)), "a module's tests were split"
    costs = [
        module_cost(path, set())
        for path in seen
        if path.resolve().relative_to(REPO).as_posix() in recorded_costs()
    ]
    assert costs == sorted(costs, reverse=True)


def test_the_script_merges_a_runs_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = _script()
    costs = tmp_path / "module_costs.json"
    gone = "tests/test_that_was_removed.py"
    kept = "tests/test_archive.py"
    measured = "tests/test_module_costs.py"
    costs.write_text(json.dumps({"cpu_seconds": {gone: 3.0, kept: 2.0, measured: 9.0}}))
    monkeypatch.setattr(script, "COSTS", costs)
    runs = tmp_path / "runs"
    runs.mkdir()
    lines = [{"module": measured, "cpu_s": 0.25, "wall_s": 1.0}] * 2
    (runs / "costs-gw0.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    assert script.main([str(runs)]) == 0
    assert json.loads(costs.read_text())["cpu_seconds"] == {kept: 2.0, measured: 0.5}
    assert script.main([str(tmp_path / "missing")]) == 2


# A process that burns half a CPU second, started in a session of its own by a parent
# that does not wait for it (as Chromium's renderers leave the tree), then leaves a mark.
_ORPHAN = """
import subprocess, sys
burn = (
    "import sys, time\\n"
    "end = time.process_time() + 0.5\\n"
    "while time.process_time() < end: pass\\n"
    "open(sys.argv[1], 'w').close()"
)
subprocess.Popen([sys.executable, "-c", burn, sys.argv[1]], start_new_session=True)
"""


def test_a_cost_counts_a_process_that_left_the_tree(tmp_path: Path) -> None:
    if module_costs._own_cgroup() is None:
        pytest.skip("no control group can be made here (not root, or no cgroup file system)")
    before = module_costs._cpu_seconds()
    done = tmp_path / "done"
    subprocess.run([sys.executable, "-c", _ORPHAN, str(done)], check=True)
    deadline = time.monotonic() + 120  # a hang guard: the mark is the state awaited
    while not done.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert done.exists()
    assert module_costs._cpu_seconds() - before >= 0.5
