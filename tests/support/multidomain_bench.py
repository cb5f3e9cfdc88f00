"""What bench/bench_multidomain_rules.py and bench_multidomain_results.py share: the round
sizes as arguments, the demonstration generator at that size (kept in a pickle between
runs when asked: a 60 x 2,100 x 3 round takes minutes to generate), and the figures.
"""

from __future__ import annotations

import argparse
import json
import pickle
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from tempfile import TemporaryDirectory

from reportgen.demo.multidomain.reg import ROUND_ID, Size
from reportgen.kinds.multidomain.model import Round


def add_size_arguments(parser: argparse.ArgumentParser) -> None:
    default = Size()
    parser.add_argument("--participants", type=int, default=default.participants)
    parser.add_argument("--items", type=int, default=default.items, help="a multiple of 700")
    parser.add_argument("--runs", type=int, default=default.runs)
    parser.add_argument("--repeat", type=int, default=3, help="runs timed (minimum reported)")
    parser.add_argument(
        "--keep", type=Path, default=None, help="folder that keeps each generated round"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per line")


def size_of(options: argparse.Namespace) -> Size:
    return Size(options.participants, options.items, options.runs)


def sized_round(size: Size, keep: Path | None) -> Round:
    """The demonstration round at `size`, generated (or read back from `keep`)."""
    kept = None
    if keep is not None:
        kept = keep / f"reg-{size.participants}x{size.items}x{size.runs}.pickle"
        if kept.exists():
            with kept.open("rb") as stream:
                loaded: Round = pickle.load(stream)
            return loaded
    from reportgen.demo.multidomain.reg import reg_round

    with TemporaryDirectory() as work:
        round_ = reg_round(Path(work) / ROUND_ID, size)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        with kept.open("wb") as stream:
            pickle.dump(round_, stream, protocol=pickle.HIGHEST_PROTOCOL)
    return round_


@dataclass(frozen=True)
class Figures:
    compute_s: float  # wall, minimum over the repeats
    cpu_s: float  # process CPU, minimum over the repeats
    peak_rss_mib: float  # of the whole process (the round included)


def measure(work: Callable[[], object], repeat: int) -> Figures:
    walls, cpus = [], []
    for _ in range(max(1, repeat)):
        wall, cpu = time.perf_counter(), time.process_time()
        work()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return Figures(min(walls), min(cpus), peak)


def size_in(round_: Round) -> Size:
    """The round's size as generated: participants, test items (a variant included), runs."""
    items = sum(1 for item in round_.items if not item.calibration)
    return Size(len(round_.models), items, round_.manifest.runs)


def _verdict(seconds: float, budget_s: float) -> str:
    return "within" if seconds <= budget_s else "OVER"


def report(
    what: str, size: Size, figures: Figures, budget_s: float, *, as_json: bool, **extra: object
) -> None:
    """One line of JSON, or two of text. The budget is compared with both figures: on a
    machine other work loads, wall time grows and CPU time hardly does."""
    if as_json:
        record = {
            "what": what,
            "participants": size.participants,
            "items": size.items,
            "runs": size.runs,
            "compute_s": round(figures.compute_s, 3),
            "cpu_s": round(figures.cpu_s, 3),
            "peak_rss_mib": round(figures.peak_rss_mib, 1),
            "budget_s": budget_s,
            **extra,
        }
        print(json.dumps(record, sort_keys=True))
        return
    details = ", ".join(f"{key} {value:,}" for key, value in extra.items())
    print(
        f"{what} on {size.participants} participants x {size.items} items x {size.runs} runs"
        + (f" ({details})" if details else "")
    )
    print(
        f"  compute {figures.compute_s:.2f} s, CPU {figures.cpu_s:.2f} s (minimum of the"
        f" repeats), peak RSS {figures.peak_rss_mib:.0f} MiB; budget {budget_s:g} s:"
        f" wall {_verdict(figures.compute_s, budget_s)}, CPU {_verdict(figures.cpu_s, budget_s)}"
    )
