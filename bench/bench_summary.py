"""Benchmark the quick commands on the article's round: prints their figures.

Usage: python bench/bench_summary.py [--repeat N] [--round DIR] [--json]

Runs `reportgen --help`, `reportgen summary` (its answer cached: the warm run issue 19
asks to answer in 0.5 s), `summary --json` (cached too), `summary --no-cache` (the round
read and scored) and `reportgen verify` on DIR (default rounds/estigmas-2026-06), each N
times (default 7) in a fresh interpreter as the console script runs them, with a
temporary cache that one untimed run per command fills first. Prints, per command, the
minimum and median wall time and the minimum CPU time (user + system) of the child
process; with --json one JSON object per line (`command`, `min_wall_s`, `median_wall_s`,
`min_cpu_s`, `runs`). Wall time depends on the machine's load; CPU time much less.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
ARTICLE_ROUND = REPO / "rounds" / "estigmas-2026-06"
BUDGET_S = 0.5  # `reportgen summary` with a warm cache (issue 19, goal 2)
_RUN = "import sys; from reportgen.cli import main; sys.argv[0] = 'reportgen'; main()"


def commands(round_dir: Path) -> dict[str, list[str]]:
    where = str(round_dir)
    return {
        "--help": ["--help"],
        "summary (cached)": ["summary", where],
        "summary --json (cached)": ["summary", "--json", where],
        "summary --no-cache": ["summary", "--no-cache", where],
        "verify": ["verify", where],
    }


def run_once(args: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `reportgen ARGS` in a fresh interpreter."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-c", _RUN, *args],
        check=True,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--round", type=Path, default=ARTICLE_ROUND)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        path = os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")])
        env = {**os.environ, "PYTHONPATH": path, "REPORTGEN_CACHE_DIR": cache}
        for name, args in commands(options.round).items():
            run_once(args, env)  # fills the cache (the --json run computes the results)
            runs = [run_once(args, env) for _ in range(options.repeat)]
            walls = [wall for wall, _ in runs]
            figures = {
                "command": name,
                "min_wall_s": round(min(walls), 3),
                "median_wall_s": round(statistics.median(walls), 3),
                "min_cpu_s": round(min(cpu for _, cpu in runs), 3),
                "runs": options.repeat,
            }
            if options.json:
                print(json.dumps(figures))
            else:
                print(
                    f"{name:<24} wall min {figures['min_wall_s']:.3f} s, median"
                    f" {figures['median_wall_s']:.3f} s; CPU min {figures['min_cpu_s']:.3f} s"
                )
    if not options.json:
        print(f"round {options.round}, {options.repeat} runs each; budget for the cached")
        print(f"summary {BUDGET_S} s wall (issue 19); {os.cpu_count()} CPUs, load may vary")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
