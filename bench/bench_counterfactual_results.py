"""Benchmark of a counterfactual round's verification and results: prints figures, exits 1
over budget.

    python bench/bench_counterfactual_results.py [ROUND_DIR] [--replicates N]
        [--scale COPIES [--systems N] [--keep DIR]] [--profile N] [--json]

Times, in a fresh process, `read_round` (every refusal of `reportgen verify`, the
baseline round's too when the round names one beside it) and `build_results` (with
the import of its modules, scipy's among them, as `reportgen stats` pays it: the
score arrays, every group value and gap, every McNemar and Wilcoxon test of every
group pair and placebo pair, Benjamini-Hochberg, the calibration, the crossed
bootstrap, and the before/after view with a baseline), and prints verify seconds,
compute seconds, the CPU seconds of both and the process's peak RSS (the machine is
shared: read CPU seconds beside wall seconds).

- ROUND_DIR (default: the last archive under examples/counterfactual/rounds/, the
  re-run with a baseline). Budget: 5 s of results. When there is none (or it cannot be
  read), a battery built in memory stands in (3 attributes x 4 groups x 3 names, 24
  templates, 5 runs, 2 systems, 4 variables) and only its results are timed.
- `--scale COPIES`: the demonstration's first round generated with every template
  COPIES times and `--systems` systems (default 5): `--scale 10` is issue 19's battery,
  2,600 items and 7,800 calls per system (generating it takes a while, and is not
  timed; `--keep DIR` writes it there, and a later run reads DIR when it holds it).
  Budget: 10 s for verify and results together.
- `--profile N` prints the N costliest functions (cProfile, CPU time) of each stage.
- `--json` prints one JSON object with the keys `round`, `systems`, `items`,
  `extractions`, `baseline`, `replicates`, `tests`, `verify_s`, `compute_s`,
  `verify_cpu_s`, `compute_cpu_s`, `cpu_s` and `peak_rss_mib`.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import resource
import subprocess
import sys
import time
import zlib
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import TYPE_CHECKING, Any

# Run as `python bench/...`, Python puts bench/ on the path; the root is needed for
# `tests.factories` (test helpers, outside the shipped package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.stages import baseline_of

if TYPE_CHECKING:
    from reportgen.kinds.counterfactual.results import Results

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples" / "counterfactual" / "rounds"
BUDGET_S = 5.0  # the results of the demonstration's re-run
SCALED_BUDGET_S = 10.0  # verify and results of a battery 10 times the demonstration's


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


def _scaled(folder: Path, copies: int, systems: int) -> Path:
    """The demonstration's first round scaled up, written under `folder` (read back
    when a previous run left it there)."""
    from reportgen.demo.counterfactual.rounds import BEFORE_ID, Scale, before_round
    from reportgen.kinds.counterfactual.write import write_round

    path = folder / f"scale-{copies}x{systems}" / BEFORE_ID
    if not (path / "round.json").exists():
        started = time.perf_counter()
        path.parent.mkdir(parents=True, exist_ok=True)
        write_round(before_round(path, Scale(copies, systems)), path)
        print(f"generated {path} in {time.perf_counter() - started:.1f} s (not timed)")
    return path


def _stage(profile: int, what: str, call: Callable[[], Any]) -> tuple[Any, float, float]:
    """`call()`, its wall seconds and its CPU seconds; with `profile`, its costliest
    functions (CPU time) printed to stderr."""
    profiler = cProfile.Profile(time.process_time) if profile else None
    started, cpu = time.perf_counter(), time.process_time()
    if profiler is not None:
        profiler.enable()
    value = call()
    if profiler is not None:
        profiler.disable()
    elapsed, cpu = time.perf_counter() - started, time.process_time() - cpu
    if profiler is not None:
        print(f"--- profile of {what} (CPU seconds, by own time) ---", file=sys.stderr)
        pstats.Stats(profiler, stream=sys.stderr).sort_stats("tottime").print_stats(profile)
    return value, elapsed, cpu


def _measure(round_dir: Path, replicates: int | None, profile: int) -> dict[str, Any]:
    """Verify and compute `round_dir` in this process: the figures."""
    from reportgen.kinds.rounds import read_round

    def verify() -> tuple[Round, Round | None]:
        loaded = read_round(round_dir)
        if not isinstance(loaded, Round):
            raise ReportgenError(f"{round_dir}: not a counterfactual round")
        return loaded, baseline_of(loaded)

    def compute() -> Results:
        # Imported here, as `reportgen stats` does: scipy's import is part of the cost.
        from reportgen.kinds.counterfactual.results import build_results

        return build_results(round_, baseline=baseline, replicates=replicates)

    (round_, baseline), verify_s, verify_cpu = _stage(profile, "verify", verify)
    results, compute_s, compute_cpu = _stage(profile, "results", compute)
    return {
        "round": str(round_dir),
        "systems": len(round_.models),
        "items": len(round_.items),
        "extractions": sum(len(rows) for rows in round_.extractions.values()),
        "baseline": results.baseline_round,
        "replicates": results.replicates,
        "tests": sum(s.family_size + s.placebo_family_size for s in results.systems),
        "verify_s": round(verify_s, 3),
        "compute_s": round(compute_s, 3),
        "verify_cpu_s": round(verify_cpu, 3),
        "compute_cpu_s": round(compute_cpu, 3),
        "cpu_s": round(verify_cpu + compute_cpu, 3),
        # ru_maxrss is in KiB on Linux.
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def _in_child(round_dir: Path, replicates: int | None, profile: int) -> dict[str, Any]:
    """`_measure` in a fresh interpreter, so that the figures are verify's and the
    results' alone (not the generator's memory, nor modules it imported)."""
    command = [sys.executable, __file__, str(round_dir), "--measure", "--profile", str(profile)]
    if replicates is not None:
        command += ["--replicates", str(replicates)]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    sys.stderr.write(done.stderr)
    if done.returncode != 0:
        raise ReportgenError(f"{round_dir}: the measurement failed:\n{done.stdout}")
    figures: dict[str, Any] = json.loads(done.stdout.splitlines()[-1])
    return figures


def _report(figures: dict[str, Any], budget: float, as_json: bool) -> int:
    total = figures["verify_s"] + figures["compute_s"]
    if as_json:
        print(json.dumps(figures))
    else:
        print(
            f"round: {figures['round']} ({figures['systems']} systems, {figures['items']:,}"
            f" items, {figures['extractions']:,} extractions)"
        )
        print(f"baseline: {figures['baseline'] or 'none'}")
        print(f"verify: {figures['verify_s']:.2f} s ({figures['verify_cpu_s']:.2f} s CPU)")
        print(
            f"results: {figures['compute_s']:.2f} s ({figures['compute_cpu_s']:.2f} s CPU;"
            f" {figures['replicates']:,} replicates, {figures['tests']:,} tests)"
        )
        print(f"CPU: {figures['cpu_s']:.2f} s; peak RSS: {figures['peak_rss_mib']:.0f} MiB")
    timed = total if budget == SCALED_BUDGET_S else figures["compute_s"]
    if timed > budget:
        print(f"over budget ({budget:.1f} s)")
        return 1
    return 0


def _generated_figures(replicates: int | None) -> dict[str, Any]:
    from reportgen.kinds.counterfactual.results import build_results

    round_ = _generated()
    cpu = time.process_time()
    started = time.perf_counter()
    results = build_results(round_, baseline=None, replicates=replicates)
    cpu = time.process_time() - cpu
    return {
        "round": "generated battery (results only)",
        "systems": len(round_.models),
        "items": len(round_.items),
        "extractions": sum(len(rows) for rows in round_.extractions.values()),
        "baseline": None,
        "replicates": results.replicates,
        "tests": sum(s.family_size + s.placebo_family_size for s in results.systems),
        "verify_s": 0.0,
        "compute_s": round(time.perf_counter() - started, 3),
        "verify_cpu_s": 0.0,
        "compute_cpu_s": round(cpu, 3),
        "cpu_s": round(cpu, 3),
        "peak_rss_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
    }


def main(arguments: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("round_dir", nargs="?", type=Path)
    parser.add_argument("--replicates", type=int)
    parser.add_argument("--scale", type=int, metavar="COPIES")
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--keep", type=Path, metavar="DIR")
    parser.add_argument("--profile", type=int, default=0, metavar="N")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--measure", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(arguments)
    if options.measure:
        print(json.dumps(_measure(options.round_dir, options.replicates, options.profile)))
        return 0
    if options.scale is not None:
        if options.scale < 1 or options.systems < 2:
            parser.error("--scale needs at least 1 copy, and --systems at least 2")
        with TemporaryDirectory() as scratch:
            folder = options.keep or Path(scratch)
            path = _scaled(folder, options.scale, options.systems)
            figures = _in_child(path, options.replicates, options.profile)
        return _report(figures, SCALED_BUDGET_S, options.json)
    archive = _archive(options.round_dir)
    try:
        if archive is None:
            raise ReportgenError("no archive")
        figures = _in_child(archive, options.replicates, options.profile)
    except ReportgenError as problem:
        print(f"{archive}: not readable here ({problem}); using a generated battery")
        figures = _generated_figures(options.replicates)
    return _report(figures, BUDGET_S, options.json)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
