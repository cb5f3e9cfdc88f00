"""Benchmark `reportgen verify` on a multidomain archive: prints figures, exits 1 over budget.

Usage: python bench/bench_multidomain_verify.py [ROUND_DIR]

Verifies ROUND_DIR (default: the REG demonstration round under
examples/multidomain/rounds/) exactly as `reportgen verify` does: every file, the typed
round, the rules across tables and across archives (its previous round included). Prints
the wall time (budget 5 s), the process's peak resident memory, the problems found (none
for a valid archive) and the round's size.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

from reportgen.errors import ArchiveError
from reportgen.kinds.rounds import check_across, read_round

REPO = Path(__file__).resolve().parent.parent
BUDGET_S = 5.0


def _default_round() -> Path:
    found = sorted((REPO / "examples" / "multidomain" / "rounds").glob("*/round.json"))
    if not found:
        raise SystemExit("no archive under examples/multidomain/rounds/: pass ROUND_DIR")
    return found[-1].parent


def _peak_mib() -> float:
    # ru_maxrss is in KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    round_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else _default_round()
    start = time.perf_counter()
    try:
        round_ = read_round(round_dir, with_text=True)
        problems = check_across([round_])
        summary = (
            f"{len(round_.models)} participants, {len(round_.items)} items, "
            f"{sum(len(rows) for rows in getattr(round_, 'responses', {}).values())} responses, "
            f"{len(getattr(round_, 'jury', ()))} jury scores"
        )
    except ArchiveError as error:
        problems, summary = list(error.problems), "invalid archive"
    wall = time.perf_counter() - start
    print(f"round      {round_dir}")
    print(f"size       {summary}")
    print(f"problems   {len(problems)}")
    for problem in problems[:20]:
        print(f"  - {problem}")
    within = "within" if wall <= BUDGET_S else "OVER"
    print(f"wall time  {wall:.2f} s ({within} the {BUDGET_S:.0f} s budget)")
    print(f"peak RSS   {_peak_mib():.0f} MiB")
    return 0 if wall <= BUDGET_S else 1


if __name__ == "__main__":
    sys.exit(main())
