"""The test groups of tests/conftest.py (issue 18): `scripts/test.sh --quick` leaves out the
browser, PostgreSQL and whole-site groups, so a test that drives a browser, a database
server or a whole build must land in its group, and the rest must not."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.conftest import worker_database_url

TESTS = Path(__file__).resolve().parent


def _markers_by_module(session: pytest.Session) -> dict[str, set[str]]:
    markers: dict[str, set[str]] = {}
    for item in session.items:
        names = {mark.name for mark in item.iter_markers()} & {"browser", "site", "postgres"}
        markers.setdefault(Path(item.path).name, set()).update(names)
    return markers


def test_every_module_that_imports_playwright_is_in_the_browser_group(
    request: pytest.FixtureRequest,
) -> None:
    collected = _markers_by_module(request.session)
    drives_a_browser = {
        path.name
        for path in TESTS.glob("test_*.py")
        if re.search(r"^\s*from playwright", path.read_text(encoding="utf-8"), re.M)
    }
    assert drives_a_browser, "no browser test found: the search is wrong"
    for name in drives_a_browser & set(collected):
        assert "browser" in collected[name], name


def test_database_cases_land_in_the_server_group_by_their_parameter(
    request: pytest.FixtureRequest,
) -> None:
    postgres = sqlite = 0
    for item in request.session.items:
        marked = item.get_closest_marker("postgres") is not None
        if "[postgresql" in item.name:
            assert marked, item.nodeid
            postgres += 1
        elif "[sqlite" in item.name:
            assert not marked, item.nodeid
            sqlite += 1
    # The whole suite was collected, with no group left out (`--quick` leaves them out).
    if len(request.session.items) > 1000 and not request.config.option.markexpr:
        assert postgres > 0
        assert sqlite > 0


def test_modules_that_build_whole_sites_are_in_the_site_group(
    request: pytest.FixtureRequest,
) -> None:
    collected = _markers_by_module(request.session)
    for name in ("test_site_build.py", "test_multidomain_site.py", "test_counterfactual_site.py"):
        if name in collected:
            assert "site" in collected[name], name
    for name in ("test_parse.py", "test_stats_bootstrap.py", "test_test_groups.py"):
        if name in collected:
            assert not collected[name] & {"site", "browser"}, name


def test_each_worker_gets_its_own_database_with_the_same_server_and_password() -> None:
    url = "postgresql+psycopg://reportgen:s3cr%40t@127.0.0.1:5432/reportgen_test"
    assert worker_database_url(url, "gw1") == (
        "postgresql+psycopg://reportgen:s3cr%40t@127.0.0.1:5432/reportgen_test_gw1"
    )


def _asks_for_the_server(call: ast.Call) -> bool:
    name = getattr(call.func, "id", "")
    literal = [a.value for a in call.args if isinstance(a, ast.Constant)]
    return name == "postgres_url" or (name.endswith("_database") and "postgresql" in literal)


def _calls_postgres_url(function: ast.FunctionDef) -> bool:
    return any(
        isinstance(node, ast.Call) and _asks_for_the_server(node) for node in ast.walk(function)
    )


def _marked_postgres(function: ast.FunctionDef) -> bool:
    return any("mark.postgres" in ast.unparse(decorator) for decorator in function.decorator_list)


def test_a_test_that_needs_the_server_without_the_parameter_carries_the_marker() -> None:
    # A test (or a fixture it takes) that asks for the server itself, with no database
    # parameter, must carry @pytest.mark.postgres: --quick runs without the server, where
    # a missing marker would only show as a skip.
    missing = []
    for path in TESTS.glob("test_*.py"):
        functions = [
            node
            for node in ast.parse(path.read_text(encoding="utf-8")).body
            if isinstance(node, ast.FunctionDef)
        ]
        servers = {f.name for f in functions if _calls_postgres_url(f)}
        for function in functions:
            if not function.name.startswith("test_") or _marked_postgres(function):
                continue
            arguments = {argument.arg for argument in function.args.args}
            if "kind" in arguments:
                continue  # parametrised on the database: grouped by its parameter
            if function.name in servers or arguments & servers:
                missing.append(f"{path.name}::{function.name}")
    assert missing == []
