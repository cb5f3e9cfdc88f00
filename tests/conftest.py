"""Session-wide test settings: the statistics cache, the test groups, and what parallel
workers (pytest-xdist) must not share.

Groups (markers, set here from what a test uses, so a new test cannot forget them):

- `browser`: the module drives Chromium through Playwright;
- `postgres`: the test runs against the PostgreSQL server of REVIEW_TEST_POSTGRES_URL
  (a case parametrised "postgresql"; other tests that need the server are marked by hand);
- `site`: the module builds a whole site (a demonstration or example round, end to end).

`bash scripts/test.sh --quick` leaves out all three (`-m "not browser and not postgres and
not site"`); the full command, which CI runs, includes them.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Iterator
from contextlib import AbstractContextManager
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings
from sqlalchemy.engine import make_url

# The browser fixture of every browser module, written once.
from tests.support.browser import browser as browser
from tests.support.main_module import kept_main_module
from tests.support.module_costs import module_cost

if TYPE_CHECKING:
    from reportgen.kinds import Kind

# What a module's source says about the group it belongs to. Read from the source, not
# from a list of files, so that a new browser or site test is grouped without anyone
# remembering to add it.
_BROWSER_SOURCE = re.compile(
    r"^\s*(from|import) playwright\b|tests\.support\.browser|tests\.support\.review_server", re.M
)
_SITE_SOURCE = re.compile(
    r"\bbuild_site\(|\bdemo_site\(|\bexample_site\(|\bdemonstration_site\(|\bscale_site\("
    r"|\"build\"|_site_dir\b"
    r"|tests\.review\.md_walk|tests\.support\.(multidomain|counterfactual)_site\b|\"--watch\""
)
_POSTGRES_CASE = re.compile(r"postgres", re.I)


# Hypothesis fails an example that runs past its deadline (200 ms by default): a verdict on
# the machine's speed, not on the code, that a loaded machine turns into a failure. No
# deadline in this suite (tests/test_house_rules_timing.py keeps it so).
settings.register_profile("reportgen", deadline=None)
settings.load_profile("reportgen")


@pytest.fixture(autouse=True)
def _main_module_kept() -> Iterator[None]:
    """The worker's `__main__` is put back after each test (tests/support/main_module.py)."""
    with kept_main_module():
        yield


@pytest.fixture(autouse=True, scope="session")
def _isolated_results_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Keep the statistics cache of the test run out of the user's ~/.cache."""
    cache = tmp_path_factory.mktemp("results-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("REPORTGEN_CACHE_DIR", str(cache))
        yield cache


# The kind that exists only in the tests (docs/adding-a-kind.md): one folder of
# tests/support/, registered (with its review part) by `plugin_kind` while a test runs.
PLUGIN_KIND = "tests.support.toykind"


@pytest.fixture
def plugin_kind() -> Iterator[Kind]:
    """The tests' plug-in kind and its review part, registered while the test runs."""
    registered: AbstractContextManager[Kind] = importlib.import_module(PLUGIN_KIND).registered()
    with registered as kind:
        yield kind


def worker_database_url(url: str, worker: str) -> str:
    """The PostgreSQL test database of one xdist worker: `reportgen_test` → `reportgen_test_gw1`.

    Tests drop and create every table, so two workers on one database would wipe each
    other's rows; scripts/test.sh creates one database per worker (ci_postgres.sh)."""
    parsed = make_url(url)
    return parsed.set(database=f"{parsed.database}_{worker}").render_as_string(hide_password=False)


def pytest_configure(config: pytest.Config) -> None:
    # Runs in each worker before any test module is imported: the modules read the URL at
    # import time.
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        # The workers already keep the cores busy: a site build's pool of drawing processes
        # (reportgen/render/drawing.py) would only add their start-up to every build.
        # tests/test_drawing_pool.py sets the number itself.
        os.environ.setdefault("REPORTGEN_DRAW_WORKERS", "1")
    url = os.environ.get("REVIEW_TEST_POSTGRES_URL")
    if worker and url:
        os.environ["REVIEW_TEST_POSTGRES_URL"] = worker_database_url(url, worker)


@cache
def _module_groups(path: Path) -> frozenset[str]:
    source = path.read_text(encoding="utf-8")
    groups = set()
    if _BROWSER_SOURCE.search(source):
        groups.add("browser")
    if _SITE_SOURCE.search(source):
        groups.add("site")
    return frozenset(groups)


def groups_of(item: pytest.Item) -> frozenset[str]:
    """The groups (markers) of one collected test: see the module's docstring."""
    groups = set(_module_groups(Path(item.path)))
    # A case parametrised on the database ("[postgresql]"); a test that needs the server
    # without being parametrised carries @pytest.mark.postgres itself.
    callspec = getattr(item, "callspec", None)
    if callspec is not None and _POSTGRES_CASE.search(callspec.id):
        groups.add("postgres")
    return frozenset(groups)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    module_groups: dict[Path, set[str]] = {}
    for item in items:
        groups = groups_of(item)
        for group in sorted(groups):
            item.add_marker(getattr(pytest.mark, group))
        slow = {"slow"} if item.get_closest_marker("slow") else set()
        module_groups.setdefault(Path(item.path), set()).update(groups | slow)
    # The costliest modules go to the workers first (tests/support/module_costs.py;
    # scripts/test.sh keeps this order with --no-loadscope-reorder). A stable sort keeps
    # every module's tests together and in their written order.
    cost = {path: module_cost(path, groups) for path, groups in module_groups.items()}
    items.sort(key=lambda item: -cost[Path(item.path)])
