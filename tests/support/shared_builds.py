"""Sites that several test modules read, built once per test run and shared.

With pytest-xdist every worker has its own temporary folder under one shared by the run
(`popen-gw0`, `popen-gw1` under `pytest-N`): a shared site is built there, under a file
lock, by whichever worker asks first; the others wait for it instead of building it
again. Tests only read these sites; a test that changes a site builds its own.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from filelock import FileLock

from reportgen.build import build_site
from reportgen.cli import main
from tests.factories import CONFIG, THEME, build_tiny, demonstration_rounds
from tests.support.continuous_round import ScaleRound

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole test run, shared by its workers."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def build_example(kind: str, site: Path, cache: Path, as_of: str | None = None) -> None:
    """`reportgen build examples/<kind>/rounds/* --config examples/<kind>/site.yml` into
    `site`, with the statistics cache `cache` (and `--as-of` when given)."""
    example = EXAMPLES / kind
    rounds = sorted(str(path) for path in (example / "rounds").iterdir())
    arguments = ["build", *rounds, "--config", str(example / "site.yml")]
    arguments += ["--out", str(site), "--cache-dir", str(cache)]
    arguments += ["--as-of", as_of] if as_of else []
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output


def example_site(
    tmp_path_factory: pytest.TempPathFactory, kind: str, as_of: str | None = None
) -> Path:
    """The site of `examples/<kind>` as the README builds it (`--as-of` when given)."""
    base = run_folder(tmp_path_factory)
    work = base / f"example-{kind}-{as_of or 'today'}"
    site = work / "site"
    # One lock a kind: the builds of one kind share their statistics cache.
    with FileLock(base / f"example-{kind}.lock"):
        if not (site / "index.html").is_file():
            build_example(kind, site, base / f"example-{kind}-cache", as_of)
    return site


def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demonstration site, built on the test run's first call.

    Parallel workers (pytest-xdist) each have their own temporary folder under a shared
    one: the site is built there once, under a file lock, and the other workers wait for
    it rather than build it again."""
    work = run_folder(tmp_path_factory) / "demo-site"
    site = work / "site"
    work.mkdir(parents=True, exist_ok=True)
    with FileLock(work.with_suffix(".lock")):
        if not (site / "index.html").is_file():
            _build_demo_site(work, site)
    return site


def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small rounds' site (`tests.factories.build_tiny`: the rounds in `rounds/` and
    the statistics cache in `cache/` beside it), built on the test run's first call and
    shared as the demonstration site is: seven modules read it (about 7 CPU s a build)."""
    work = run_folder(tmp_path_factory) / "tiny-site"
    site = work / "site"
    work.mkdir(parents=True, exist_ok=True)
    with FileLock(work.with_suffix(".lock")):
        if not (site / "index.html").is_file():
            if site.exists():
                shutil.rmtree(site)  # a build cut short
            build_tiny(work)
    return site


def _build_demo_site(work: Path, site: Path) -> None:
    (work / "rounds").mkdir(parents=True, exist_ok=True)
    build_site(
        demonstration_rounds(work),
        site,
        config_path=CONFIG,
        theme_dir=THEME,
        cache_dir=work.parent / "demo-results-cache",
    )


# The three kinds' demonstration sites, and the date the multidomain one is built as of:
# after its embargo, so that every section and item is on the site.
DEMONSTRATION_KINDS = ("estigmas", "multidomain", "counterfactual")
MULTIDOMAIN_AFTER_EMBARGO = "2027-03-20"


def demonstration_site(tmp_path_factory: pytest.TempPathFactory, kind: str) -> Path:
    """The run's shared demonstration site of `kind` (the multidomain one after the embargo)."""
    if kind == "estigmas":
        return demo_site(tmp_path_factory)
    as_of = MULTIDOMAIN_AFTER_EMBARGO if kind == "multidomain" else None
    return example_site(tmp_path_factory, kind, as_of)


def shared_results_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One statistics cache for the whole run, for tests that read the committed rounds'
    results and test nothing about the cache itself: the results of a round are computed
    once, not once per module. Writes to it are atomic (reportgen.results)."""
    return run_folder(tmp_path_factory) / "demo-results-cache"


# The continuous round of test_site_leaderboard_pairs.py (past ALL_PAIRS_UP_TO = 50 models:
# adjacent ranks only) and test_browser_ranking_pager.py (more ranked models than a table's
# page of 50, the diagnostic cases aside: 56 of 64); each module checks what it needs of it.
# Few bootstrap replicates: neither module reads more than that the intervals are there.
SCALE_MODELS = 64
SCALE_REPLICATES = 200


def scale_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The run's shared site of a continuous round of `SCALE_MODELS` models
    (tests/support/continuous_round.py), built by the first module that asks."""
    work = run_folder(tmp_path_factory) / f"scale-{SCALE_MODELS}-{SCALE_REPLICATES}"
    site = work / "site"
    work.mkdir(parents=True, exist_ok=True)
    with FileLock(work.with_suffix(".lock")):
        if not (site / "index.html").is_file():
            (work / "rounds").mkdir(exist_ok=True)
            archive = ScaleRound().write(work / "rounds", SCALE_MODELS, SCALE_REPLICATES)
            build_site(
                [archive], site, config_path=CONFIG, theme_dir=THEME, cache_dir=work / "cache"
            )
    return site
