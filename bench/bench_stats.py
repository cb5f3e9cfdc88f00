"""Benchmark of the statistics engine (issues 3 and 19): prints figures, asserts nothing.

    python bench/bench_stats.py [--models N ...] [--json]
    python bench/bench_stats.py --compare-pairs [--models N ...] [--json]
    python bench/bench_stats.py --full [--round rounds/estigmas-2026-06] [--quick]

Leaderboard scale (issue 19, the default): for each N of `--models` (default 7, 100 and
1,000), a generated Estigmas round of the article's shape (101 stigmas, 27 structures,
7,626 scored items, 994 pairs) with N models, and the whole results object with 10,000
replicates and every test. Each N runs in a fresh process, so that its peak resident memory
is its own: compute seconds (wall), CPU seconds (`time.process_time`, the process's own
threads included) and peak RSS (MiB) of that process, then the growth exponents fitted by
least squares on log(seconds) against log(N). Targets: 1,000 models within 30 s and 4 GiB,
7 models within 0.3 s. `--json` prints one JSON object per line instead (keys models,
compute_s, cpu_s, peak_rss_mib).

`--compare-pairs` measures instead what the compare page computes at build time for the same
rounds: the index differences of the pairs it lists (every ordered pair up to 50 models,
each model and the next both ways beyond), read from 10,000 replicates drawn again
(`results.pair_differences`): compute and CPU seconds of that call alone (the round's
scores before it are not counted), peak RSS, and the number of pairs (JSON key `pairs`).

`--full` runs the older figures of issue 3:

1. The whole results object (10,000 replicates, every test, the language study) for the
   round: wall time (bound 3 s) and the process's peak resident memory (bound 1 GiB).
   Without a round archive, a generated round of the same shape (7 models, 101 stigmas,
   27 structures, 7,626 scored items, 994 pairs) stands in.
2. The slow reference bootstrap on the same round, timed on a few hundred replicates and
   scaled to 10,000, against the fast bootstrap (bound: fast at least 200 times faster).
3. Scale: 100 models x 7,626 items (bound 30 s), and how time grows with models, items
   and replicates.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import numpy as np

# Run as `python bench/bench_stats.py`, Python puts bench/ on the path, not the repository
# root: the root is needed for `tests.support` (test helpers, outside the shipped package).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.results import compute_results, listed_pairs, pair_differences
from reportgen.kinds.estigmas.score import build_cube, paired_sample, score_models, scored_items
from reportgen.kinds.estigmas.stats.bootstrap import (
    MODEL_STATISTICS,
    ModelTables,
    draw_replicates,
    model_replicates,
    percentile_interval,
)
from tests.support.reference import reference_replicates
from tests.support.synthetic import random_round

_T = TypeVar("_T")
DEFAULT_ROUND = Path(__file__).resolve().parents[1] / "rounds" / "estigmas-2026-06"


def timed(action: Callable[..., _T], *arguments: object) -> tuple[_T, float]:
    start = time.perf_counter()
    value = action(*arguments)
    return value, time.perf_counter() - start


def score_stage(round_: Round) -> None:
    """What compute_results reads from the items: the cube, the item arrays, the pairs."""
    build_cube(round_)
    scored_items(round_)
    paired_sample(round_)


def peak_rss_mib() -> float:
    # ru_maxrss is in KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def load_round(path: Path) -> tuple[Round, str]:
    if path.is_dir():
        from reportgen.kinds.estigmas.archive import read_round

        round_, seconds = timed(lambda: read_round(path, with_text=True))
        return round_, f"{path.name} (read with text in {seconds:.2f} s, not counted below)"
    return random_round(2026), "generated round of the demo's shape (no archive found)"


def whole_results(round_: Round) -> None:
    print("\n1. Whole results object, 10,000 replicates")
    replicates = round_.manifest.bootstrap_replicates
    results, seconds = timed(lambda: compute_results(round_, replicates))
    print(f"   models {len(results.models)}, replicates {results.replicates}")
    print(f"   wall time   {seconds:6.2f} s   (bound 3 s)   {'OK' if seconds <= 3 else 'OVER'}")
    peak = peak_rss_mib()
    print(f"   peak memory {peak:6.0f} MiB (bound 1024 MiB, whole process, loading included)")
    _, again = timed(lambda: compute_results(round_, replicates))
    print(f"   second run  {again:6.2f} s   (warm BLAS threads and caches)")


def reference_speed(round_: Round, reference_replicate_count: int) -> None:
    print("\n2. Fast bootstrap against the slow reference (same statistics, same round)")
    cube = build_cube(round_)
    items = scored_items(round_)
    tables = ModelTables.from_cube(cube)
    shape = tables.scored.shape
    replicates = 10_000

    def fast() -> None:
        draws = draw_replicates(round_.manifest.bootstrap_seed, replicates, *shape)
        values = model_replicates(tables, draws).values
        for name in MODEL_STATISTICS:
            percentile_interval(values[name])

    def slow() -> None:
        draws = draw_replicates(1, reference_replicate_count, *shape)
        values = reference_replicates(items, draws)
        for name in MODEL_STATISTICS:
            percentile_interval(values[name])

    fast()  # warm-up: BLAS threads start on the first product
    fast_seconds = min(timed(fast)[1] for _ in range(3))
    _, slow_seconds = timed(slow)
    scaled = slow_seconds * replicates / reference_replicate_count
    speedup = scaled / fast_seconds
    print(f"   fast, {replicates:,} replicates: {fast_seconds:.3f} s (best of 3)")
    print(
        f"   reference, {reference_replicate_count} replicates: {slow_seconds:.2f} s"
        f" -> {scaled:.1f} s scaled to {replicates:,}"
    )
    verdict = "OK" if speedup >= 200 else "UNDER"
    print(f"   speed-up {speedup:,.0f}x (bound 200x)   {verdict}")


def scale(quick: bool) -> None:
    print("\n3. Scale (generated rounds; time of compute_results, loading not included)")
    big = random_round(7, models=100, with_text=False)
    _, seconds = timed(lambda: compute_results(big, 10_000))
    verdict = "OK" if seconds <= 30 else "OVER"
    print(
        f"   100 models x 7,626 items, 10,000 replicates: {seconds:.2f} s (bound 30 s)   {verdict}"
    )
    print("   growth with models (7,626 items, 10,000 replicates):")
    for models in (7, 25, 50) if quick else (7, 25, 50, 100):
        round_ = random_round(7, models=models, with_text=False)
        _, seconds = timed(compute_results, round_, 10_000)
        print(f"     {models:4d} models   {seconds:6.2f} s")
    print("   growth with items (7 models, same 101 x 27 cells, 10,000 replicates);")
    print("   scoring (cube, item arrays, pairs) reads items, the statistics do not:")
    for repeats in (1, 4) if quick else (1, 4, 16):
        round_ = random_round(7, repeats=repeats, with_text=False)
        scored = 3 * 2542 * repeats
        _, seconds = timed(compute_results, round_, 10_000)
        _, scoring = timed(score_stage, round_)
        print(
            f"     {scored:7,d} items   {seconds:6.2f} s in all, of which scoring {scoring:5.2f} s"
        )
    print("   growth with replicates (7 models, 7,626 items):")
    round_ = random_round(7, with_text=False)
    for replicates in (1_000, 10_000) if quick else (1_000, 5_000, 10_000, 20_000):
        _, seconds = timed(compute_results, round_, replicates)
        print(f"     {replicates:7,d} replicates   {seconds:6.2f} s")


DEFAULT_MODELS = (7, 100, 1000)


def measure_models(models: int, replicates: int) -> dict[str, float | int]:
    """One N in this process: the round is generated first and not counted."""
    round_ = random_round(7, models=models, with_text=False)
    wall, cpu = time.perf_counter(), time.process_time()
    compute_results(round_, replicates)
    return {
        "models": models,
        "compute_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "peak_rss_mib": round(peak_rss_mib(), 1),
    }


def measure_pairs(models: int, replicates: int) -> dict[str, float | int]:
    """The compare page's pairs of one N in this process: the round and its scores first."""
    round_ = random_round(7, models=models, with_text=False)
    scores = score_models(round_)
    pairs = listed_pairs(scores)
    wall, cpu = time.perf_counter(), time.process_time()
    pair_differences(round_, scores, pairs, replicates, round_.manifest.bootstrap_seed)
    return {
        "models": models,
        "pairs": len(pairs),
        "compute_s": round(time.perf_counter() - wall, 3),
        "cpu_s": round(time.process_time() - cpu, 3),
        "peak_rss_mib": round(peak_rss_mib(), 1),
    }


def compare_pairs(models: list[int], replicates: int, as_json: bool) -> None:
    if not as_json:
        print(f"Compare page's pairs: 7,626 items, {replicates:,} replicates drawn again")
        print("  models     pairs   compute s     CPU s   peak RSS MiB")
    for n in models:
        row = in_fresh_process(n, replicates, "--pairs-worker")
        if as_json:
            print(json.dumps(row), flush=True)
            continue
        print(
            f"  {n:6,d}  {row['pairs']:8,d}   {row['compute_s']:9.2f}   {row['cpu_s']:7.2f}"
            f"   {row['peak_rss_mib']:12.0f}",
            flush=True,
        )


def in_fresh_process(
    models: int, replicates: int, worker: str = "--worker"
) -> dict[str, float | int]:
    command = [sys.executable, __file__, worker, str(models), "--replicates", str(replicates)]
    done = subprocess.run(command, check=True, capture_output=True, text=True)
    figures: dict[str, float | int] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def growth_exponent(models: list[int], seconds: list[float]) -> float | None:
    """Slope of log(seconds) against log(models), least squares; None below two sizes."""
    points = [(math.log(n), math.log(s)) for n, s in zip(models, seconds, strict=True) if s > 0]
    if len({x for x, _ in points}) < 2:
        return None
    xs, ys = np.array([x for x, _ in points]), np.array([y for _, y in points])
    return float(np.polyfit(xs, ys, 1)[0])


def leaderboard(models: list[int], replicates: int, as_json: bool) -> None:
    rows = []
    if not as_json:
        print(f"Leaderboard scale: 7,626 items, {replicates:,} replicates, every test")
        print("(one fresh process per N; the machine may be shared: compare CPU seconds)")
        print("  models   compute s     CPU s   peak RSS MiB")
    for n in models:
        row = in_fresh_process(n, replicates)
        rows.append(row)
        if as_json:
            print(json.dumps(row), flush=True)
        else:
            print(
                f"  {n:6,d}   {row['compute_s']:9.2f}   {row['cpu_s']:7.2f}"
                f"   {row['peak_rss_mib']:12.0f}",
                flush=True,
            )
    if as_json:
        return
    sizes = [int(r["models"]) for r in rows]
    for key in ("compute_s", "cpu_s"):
        exponent = growth_exponent(sizes, [float(r[key]) for r in rows])
        shown = "n/a" if exponent is None else f"{exponent:.2f}"
        print(f"  fitted growth exponent of {key} in models: {shown}")
    for row in rows:
        if row["models"] == 1000:
            ok = row["compute_s"] <= 30 and row["peak_rss_mib"] <= 4096
            print(f"  1,000 models: target 30 s and 4 GiB   {'OK' if ok else 'OVER'}")
        if row["models"] == 7:
            print(f"  7 models: target 0.3 s   {'OK' if row['compute_s'] <= 0.3 else 'OVER'}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--models",
        type=int,
        nargs="+",
        action="extend",
        help="model counts (repeatable; default 7 100 1000)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--replicates", type=int, default=10_000)
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--pairs-worker", type=int, help=argparse.SUPPRESS)
    parser.add_argument(
        "--compare-pairs", action="store_true", help="the compare page's pairs on demand"
    )
    parser.add_argument("--full", action="store_true", help="the older figures of issue 3")
    parser.add_argument("--round", type=Path, default=DEFAULT_ROUND, help="round archive")
    parser.add_argument("--quick", action="store_true", help="fewer scale points")
    parser.add_argument("--reference-replicates", type=int, default=300)
    arguments = parser.parse_args()
    if arguments.worker is not None:
        print(json.dumps(measure_models(arguments.worker, arguments.replicates)))
        return 0
    if arguments.pairs_worker is not None:
        print(json.dumps(measure_pairs(arguments.pairs_worker, arguments.replicates)))
        return 0
    models = arguments.models or list(DEFAULT_MODELS)
    if arguments.compare_pairs:
        compare_pairs(models, arguments.replicates, arguments.json)
        return 0
    if not arguments.full:
        leaderboard(models, arguments.replicates, arguments.json)
        return 0
    round_, described = load_round(arguments.round)
    print(f"Round: {described}")
    print(f"numpy {np.__version__}, Python {sys.version.split()[0]}")
    whole_results(round_)
    reference_speed(round_, arguments.reference_replicates)
    scale(arguments.quick)
    return 0


if __name__ == "__main__":
    sys.exit(main())
