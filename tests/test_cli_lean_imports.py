"""`reportgen --help`, `summary` and `verify` load only what they need (issue 19, goal 2).

Each command runs in a fresh interpreter on the article's round, which then writes the
names of the modules it loaded; pandas, scipy, statsmodels, altair, mkdocs, jinja2 and
streamlit must not be among them, and a second `summary` (its answer cached) loads
neither numpy nor pyarrow. bench/bench_summary.py times the same commands.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ARTICLE_ROUND = REPO / "rounds" / "estigmas-2026-06"
HEAVY = frozenset({"pandas", "scipy", "statsmodels", "altair", "mkdocs", "jinja2", "streamlit"})
ARRAYS = frozenset({"numpy", "pyarrow"})

# Runs `reportgen ARGS...` as the console script does, then writes the loaded modules.
_PROBE = """
import json, sys
from reportgen.cli import main
try:
    main(sys.argv[2:], prog_name="reportgen")
except SystemExit as stop:
    code = stop.code
else:
    code = 0
with open(sys.argv[1], "w", encoding="utf-8") as out:
    json.dump({"code": code, "modules": sorted(sys.modules)}, out)
"""


def run_probe(tmp_path: Path, *args: str) -> tuple[set[str], str]:
    """The top-level packages `reportgen ARGS` loaded, and what it printed."""
    listing = tmp_path / "modules.json"
    listing.unlink(missing_ok=True)
    path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
    env = {**os.environ, "PYTHONPATH": path, "REPORTGEN_CACHE_DIR": str(tmp_path / "cache")}
    completed = subprocess.run(
        [sys.executable, "-c", _PROBE, str(listing), *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    found = json.loads(listing.read_text(encoding="utf-8"))
    assert found["code"] == 0, completed.stderr
    return {name.split(".")[0] for name in found["modules"]}, completed.stdout


def test_help_loads_no_command(tmp_path: Path) -> None:
    loaded, output = run_probe(tmp_path, "--help")
    assert "summary" in output
    assert not loaded & (HEAVY | ARRAYS | {"sqlalchemy", "rich", "pydantic"})


def test_verify_leaves_out_the_heavy_libraries(tmp_path: Path) -> None:
    loaded, output = run_probe(tmp_path, "verify", str(ARTICLE_ROUND))
    assert output.startswith("OK estigmas-2026-06")
    assert not loaded & HEAVY
    assert "pyarrow" in loaded  # it did read the Parquet files


@pytest.mark.slow
def test_summary_leaves_them_out_and_answers_from_the_cache(tmp_path: Path) -> None:
    loaded, first = run_probe(tmp_path, "summary", str(ARTICLE_ROUND))
    assert not loaded & HEAVY
    assert "pyarrow" in loaded  # the first run read the round
    loaded, second = run_probe(tmp_path, "summary", str(ARTICLE_ROUND))
    assert not loaded & (HEAVY | ARRAYS | {"pydantic"})
    assert second == first
    assert first.startswith("Round estigmas-2026-06 (full)")
