"""Benchmark of the counterfactual results object: prints figures, exits 1 over budget.

    python bench/bench_counterfactual_results.py [ROUND_DIR] [--replicates N]

Times `build_results` after loading: the score arrays, every group value and gap, every
McNemar and Wilcoxon test of every group pair and placebo pair, Benjamini-Hochberg, the
calibration and the crossed bootstrap (and the before/after view when the round names a
baseline round beside it). Budget: 5 s. With ROUND_DIR (default: the last archive under
examples/counterfactual/rounds/, the re-run with a baseline) it reads that archive; when
there is none (or it cannot be read), a battery built in memory stands in (3 attributes x
4 groups x 3 names, 24 templates, 5 runs, 2 systems, 4 variables).
"""

from __future__ import annotations

import argparse
import sys
import time
import zlib
from fractions import Fraction
from pathlib import Path

# Run as `python bench/...`, Python puts bench/ on the path; the root is needed for
# `tests.factories` (test helpers, outside the shipped package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.counterfactual.stages import baseline_of

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "counterfactual" / "rounds"
BUDGET_S = 5.0


def _archive(requested: Path | None) -> Path | None:
    if requested is not None:
        return requested
    found = sorted(EXAMPLES.glob("*/round.json")) if EXAMPLES.is_dir() else []
    return found[-1].parent if found else None


def _generated() -> Round:
    from tests.factories.counterfactual_batteries import Battery, Cell, VariableSpec

    def value(cell: Cell) -> str:
        seed = zlib.crc32(repr(cell).encode()) % 97  # hash() is salted per process
        if cell.variable_id in {"reembolso", "escalar"}:
            return "na" if seed == 0 else ("yes" if seed % 3 else "no")
        return str(1 + seed % 5)

    return Battery(
        groups={a: tuple(f"{a}-g{g}" for g in range(1, 5)) for a in ("nome", "idade", "bairro")},
        positions=3,
        templates=24,
        runs=5,
        systems=("sys-a", "sys-b"),
        variables=(
            VariableSpec("reembolso"),
            VariableSpec("escalar"),
            VariableSpec("opcoes", type="count", level="quality", acceptable=Fraction(1, 2)),
            VariableSpec(
                "tom",
                type="score",
                level="tone",
                scale=(1, 5),
                extractor="model",
                acceptable=Fraction(1, 2),
            ),
        ),
        default=value,
        calibration=[(h, min(5, h + h % 2)) for h in (1, 2, 3, 4, 5)] * 12,
        replicates=2000,
    ).build()


def _round(requested: Path | None) -> tuple[Round, str]:
    archive = _archive(requested)
    if archive is not None:
        from reportgen.archive import read_round

        try:
            loaded = read_round(archive)
        except ReportgenError as problem:
            print(f"{archive}: not readable here ({problem}); using a generated battery")
        else:
            if isinstance(loaded, Round):
                return loaded, str(archive)
            print(f"{archive}: not a counterfactual round; using a generated battery")
    return _generated(), "generated battery"


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_dir", nargs="?", type=Path)
    parser.add_argument("--replicates", type=int)
    options = parser.parse_args(arguments)
    started = time.perf_counter()
    round_, source = _round(options.round_dir)
    baseline = baseline_of(round_)
    loaded = time.perf_counter()
    results = build_results(round_, baseline=baseline, replicates=options.replicates)
    finished = time.perf_counter()
    extractions = sum(len(rows) for rows in round_.extractions.values())
    tests = sum(s.family_size + s.placebo_family_size for s in results.systems)
    print(
        f"round: {source} ({len(round_.models)} systems, {len(round_.items):,} items,"
        f" {extractions:,} extractions)"
    )
    print(f"baseline: {results.baseline_round or 'none'}")
    print(f"load: {loaded - started:.2f} s")
    print(
        f"full results: {finished - loaded:.2f} s ({results.replicates:,} replicates,"
        f" {tests:,} tests)"
    )
    if finished - loaded > BUDGET_S:
        print(f"over budget ({BUDGET_S:.1f} s)")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
