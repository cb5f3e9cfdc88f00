"""Benchmark reading an Estigmas archive of the article's size: prints figures.

Usage: python bench/bench_archive_read.py [--repeat N]

Writes a round of about 8,700 items x 7 models (with their texts) into a temporary folder,
then reads it N times (default 5) as `reportgen verify` does, and prints the minimum and
median wall time and the process's peak resident memory. The budget is 2 s.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reportgen.kinds.estigmas.archive import read_round
from tests.factories.estigmas_full_size import write_full_size_round

BUDGET_S = 2.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    with tempfile.TemporaryDirectory() as folder:
        round_dir = Path(folder) / "tiny-round"  # the folder must bear the round_id
        items = write_full_size_round(round_dir)
        timings = []
        for _ in range(repeat):
            started = time.perf_counter()
            read_round(round_dir)
            timings.append(time.perf_counter() - started)
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    best, median = min(timings), statistics.median(timings)
    print(f"read {items} items x 7 models: min {best:.3f} s, median {median:.3f} s")
    print(f"(budget {BUDGET_S:.1f} s), peak RSS {peak_mib:.0f} MiB, {repeat} runs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
