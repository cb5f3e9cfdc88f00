"""Benchmark the multidomain kind's cross-table rules (`check_rules`) at a given size.

Usage: python bench/bench_multidomain_rules.py [--participants N] [--items N] [--runs N]
       [--repeat N] [--keep DIR] [--json]

Generates the demonstration round at that size (default: the regulation's, 15 x 700 x 3:
31,500 responses, the committed round `reg-2026-1`) with the demonstration generator, in
memory (`--keep DIR` keeps it between runs), runs `check_rules` on it `--repeat` times and
prints the compute time (wall) and CPU time (minimum of the repeats), the peak resident
memory and the problems found (none: the round is valid). Budget: 1 s at the regulation's
size (issue 19). The test suite checks only that such a round passes; it never asserts
on time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reportgen.archive import Problems
from reportgen.kinds.multidomain.rules import check_rules
from tests.support.multidomain_bench import (
    add_size_arguments,
    measure,
    report,
    size_in,
    size_of,
    sized_round,
)

BUDGET_S = 1.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_size_arguments(parser)
    options = parser.parse_args()
    size = size_of(options)
    round_ = sized_round(size, options.keep)
    found: list[int] = []

    def work() -> None:
        problems = Problems()
        check_rules(round_, problems)
        found.append(len(problems.as_list()))

    figures = measure(work, options.repeat)
    report(
        "check_rules",
        size_in(round_),
        figures,
        BUDGET_S,
        as_json=options.json,
        responses=sum(len(rows) for rows in round_.responses.values()),
        jury_scores=len(round_.jury),
        problems=found[-1],
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
