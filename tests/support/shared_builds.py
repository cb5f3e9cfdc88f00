"""Sites that several test modules read, built once per test run and shared.

With pytest-xdist every worker has its own temporary folder under one shared by the run
(`popen-gw0`, `popen-gw1` under `pytest-N`): a shared site is built there, under a file
lock, by whichever worker asks first; the others wait for it instead of building it
again. Tests only read these sites; a test that changes a site builds its own.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from filelock import FileLock

from reportgen.cli import main

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"


def run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The temporary folder of the whole test run, shared by its workers."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


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
            example = EXAMPLES / kind
            rounds = sorted(str(path) for path in (example / "rounds").iterdir())
            arguments = ["build", *rounds, "--config", str(example / "site.yml")]
            arguments += ["--out", str(site), "--cache-dir", str(base / f"example-{kind}-cache")]
            arguments += ["--as-of", as_of] if as_of else []
            result = CliRunner().invoke(main, arguments)
            assert result.exit_code == 0, result.output
    return site
