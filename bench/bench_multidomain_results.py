"""Benchmark of the multidomain results object: prints figures, exits 1 over budget.

    python bench/bench_multidomain_results.py [ROUND_DIR] [--replicates N]

Times `build_results` after loading: the scores, the 1,000-replicate stratified bootstrap,
Elo and Bradley-Terry with their intervals and every check (audit, calibration,
contamination). Budget: 2 s on the REG demonstration round. With ROUND_DIR (default: the
first archive under examples/multidomain/rounds/) it reads that archive; when there is none
(or it cannot be read), a REG-sized round built in memory stands in (15 participants,
7 domains x 100 items, 3 runs, a jury on every open response).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from tempfile import TemporaryDirectory

# Run as `python bench/...`, Python puts bench/ on the path; the root is needed for
# `tests.support` (test helpers, outside the shipped package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportgen.errors import ReportgenError
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import build_results

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "multidomain" / "rounds"
BUDGET_S = 2.0


def _archive(requested: Path | None) -> Path | None:
    if requested is not None:
        return requested
    found = sorted(EXAMPLES.glob("*/round.json")) if EXAMPLES.is_dir() else []
    return found[0].parent if found else None


def _round(requested: Path | None, work: Path) -> tuple[Round, str]:
    archive = _archive(requested)
    if archive is not None:
        from reportgen.archive import read_round

        try:
            loaded = read_round(archive)
        except ReportgenError as problem:
            print(f"{archive}: not readable here ({problem}); using a synthetic round")
        else:
            if isinstance(loaded, Round):
                return loaded, str(archive)
            print(f"{archive}: not a multidomain round; using a synthetic round")
    from reportgen.demo.multidomain.tiny import tiny_round
    from tests.support.multidomain_synthetic import reg_sized_round

    return reg_sized_round(tiny_round(work / "tiny")), "synthetic REG-sized round"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_dir", nargs="?", type=Path)
    parser.add_argument("--replicates", type=int, default=None)
    options = parser.parse_args(arguments)
    with TemporaryDirectory() as work:
        round_, source = _round(options.round_dir, Path(work))
        items = sum(1 for item in round_.items if not item.calibration)
        print(f"{source}: {len(round_.models)} participants, {items} test items")
        start = time.perf_counter()
        results = build_results(round_, replicates=options.replicates)
        elapsed = time.perf_counter() - start
    within = elapsed <= BUDGET_S
    print(
        f"build_results: {elapsed:.2f} s for {results.replicates:,} replicates,"
        f" {results.pairwise.battles:,} battles (budget {BUDGET_S:.0f} s:"
        f" {'within' if within else 'OVER'})"
    )
    return 0 if within else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
