"""House rule: no test depends on the machine's speed.

A test never asserts on elapsed time (timing belongs in bench/, which prints figures), and
a browser test waits for a state the page shows, never for a fixed time. A pause that is
itself the test's input (two key presses some milliseconds apart) carries the marker
comment `house-rule: input timing`.
"""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
CLOCKS = frozenset({"perf_counter", "perf_counter_ns", "monotonic", "monotonic_ns", "time"})
INPUT_TIMING = "house-rule: input timing"


def _is_clock_call(node: ast.AST) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in CLOCKS
        and isinstance(node.func.value, ast.Name)
        and node.func.value.id == "time"
    )


def _reads_clock(node: ast.AST, clock_names: set[str]) -> bool:
    return any(
        _is_clock_call(inner) or (isinstance(inner, ast.Name) and inner.id in clock_names)
        for inner in ast.walk(node)
    )


def timing_assertions(source: str) -> list[int]:
    """Lines of `source` whose assert compares a clock reading or a name derived from one."""
    found: list[int] = []
    for function in ast.walk(ast.parse(source)):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        clock_names: set[str] = set()
        for node in ast.walk(function):  # names assigned from a clock, directly or not
            if isinstance(node, ast.Assign) and _reads_clock(node.value, clock_names):
                clock_names.update(
                    target.id for target in node.targets if isinstance(target, ast.Name)
                )
        for node in ast.walk(function):
            if isinstance(node, ast.Assert) and _reads_clock(node.test, clock_names):
                found.append(node.lineno)
    return sorted(found)


def fixed_waits(source: str) -> list[int]:
    """Lines calling `wait_for_timeout` without the input-timing marker."""
    lines = source.splitlines()
    return [
        number
        for number, line in enumerate(lines, start=1)
        if ".wait_for_timeout(" in line and INPUT_TIMING not in line
    ]


def hypothesis_deadlines(source: str) -> list[int]:
    """Lines that give Hypothesis a deadline (a time bound per example) other than None."""
    found: list[int] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                none = isinstance(keyword.value, ast.Constant) and keyword.value.value is None
                if keyword.arg == "deadline" and not none:
                    found.append(node.lineno)
    return sorted(found)


def _test_sources() -> dict[Path, str]:
    return {
        path: path.read_text(encoding="utf-8")
        for path in sorted(TESTS.rglob("*.py"))
        if "vendor" not in path.parts and path != Path(__file__).resolve()
    }


def test_no_test_asserts_on_elapsed_time() -> None:
    offenders = {
        str(path.relative_to(TESTS)): lines
        for path, source in _test_sources().items()
        if (lines := timing_assertions(source))
    }
    assert offenders == {}, "timing belongs in bench/: " + repr(offenders)


def test_no_browser_test_waits_a_fixed_time() -> None:
    offenders = {
        str(path.relative_to(TESTS)): lines
        for path, source in _test_sources().items()
        if (lines := fixed_waits(source))
    }
    assert offenders == {}, "wait for a state the page shows: " + repr(offenders)


def test_no_hypothesis_example_has_a_deadline() -> None:
    """tests/conftest.py loads a profile without deadline; no test may set one back."""
    offenders = {
        str(path.relative_to(TESTS)): lines
        for path, source in _test_sources().items()
        if (lines := hypothesis_deadlines(source))
    }
    assert offenders == {}, "a deadline is a speed bound: " + repr(offenders)
    from hypothesis import settings

    assert settings().deadline is None


def test_the_rules_find_each_form() -> None:
    direct = (
        "import time\ndef test_a():\n    t = time.perf_counter()\n"
        "    assert time.perf_counter() - t < 2\n"
    )
    derived = (
        "import time\ndef test_b():\n    started = time.monotonic()\n    work()\n"
        "    elapsed = time.monotonic() - started\n    assert elapsed < 2.0\n"
    )
    deadline_loop = (
        "import time\ndef test_c():\n    deadline = time.monotonic() + 9\n"
        "    while not done() and time.monotonic() < deadline:\n        pass\n    assert done()\n"
    )
    assert timing_assertions(direct) == [4]
    assert timing_assertions(derived) == [6]
    assert timing_assertions(deadline_loop) == []
    assert fixed_waits("page.wait_for_timeout(500)\n") == [1]
    assert fixed_waits(f"page.wait_for_timeout(gap)  # {INPUT_TIMING}\n") == []
    assert hypothesis_deadlines("@settings(max_examples=5, deadline=500)\ndef t(): ...\n") == [1]
    assert hypothesis_deadlines("@settings(deadline=None)\ndef t(): ...\n") == []
