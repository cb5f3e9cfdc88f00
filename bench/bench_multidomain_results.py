"""Benchmark of the multidomain results object at a given size: prints figures.

    python bench/bench_multidomain_results.py [ROUND_DIR] [--participants N] [--items N]
        [--runs N] [--replicates N] [--repeat N] [--keep DIR] [--json]

Times `build_results` after loading: the scores, the 1,000-replicate stratified bootstrap,
Elo and Bradley-Terry with their intervals and every check (audit, calibration,
contamination). With ROUND_DIR it reads that archive; without, it generates the
demonstration round at the size given (default: the regulation's, 15 x 700 x 3, the
committed `reg-2026-1`) in memory (`--keep DIR` keeps it between runs). Prints compute
time (wall) and CPU time, the minimum of `--repeat` runs (default 1: the first run in a
process, caches cold), and the peak resident memory. Budgets (issue 19): 2 s for the
demonstration round, 20 s for 60 participants x 2,100 items x 3 runs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# Run as `python bench/...`, Python puts bench/ on the path; the root is needed for
# `tests.support` (test helpers, outside the shipped package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import build_results
from tests.support.multidomain_bench import (
    add_size_arguments,
    measure,
    report,
    size_in,
    size_of,
    sized_round,
)

REGULATION_BUDGET_S, LARGE_BUDGET_S = 2.0, 20.0


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_dir", nargs="?", type=Path)
    add_size_arguments(parser)
    parser.add_argument("--replicates", type=int, default=None)
    parser.set_defaults(repeat=1)
    options = parser.parse_args(arguments)
    if options.round_dir is not None:
        from reportgen.kinds.rounds import read_round

        loaded = read_round(options.round_dir)
        if not isinstance(loaded, Round):
            raise SystemExit(f"{options.round_dir}: not a multidomain round")
        round_ = loaded
    else:
        round_ = sized_round(size_of(options), options.keep)
    battles: list[int] = []

    def work() -> None:
        results = build_results(round_, replicates=options.replicates)
        battles.append(results.pairwise.battles)

    figures = measure(work, options.repeat)
    regulation = len(round_.models) <= 15 and len(round_.items) <= 710
    report(
        "build_results",
        size_in(round_),
        figures,
        REGULATION_BUDGET_S if regulation else LARGE_BUDGET_S,
        as_json=options.json,
        battles=battles[-1],
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
