"""The review app's anonymiser measured on corpora (issue 23): prints figures, asserts nothing.

    python bench/bench_anonymiser_corpus.py [CORPUS_DIR ...] [--json] [--verbose]

The scrubber is built as the review app builds it, `Scrubber(round_names(models))`, with
the models of the demonstration rounds (rounds/*) and of the other kinds' example rounds
(examples/*/rounds/*). For each corpus folder (default: tests/data/anonymiser/heldout,
and tests/data/anonymiser/fresh when it exists; tests/data/anonymiser itself reads the
development corpus) it prints:

- removal: self-identifying answers none of whose names can still be read, as the
  independent checker of tests/support/anonymiser_corpus.py sees them;
- false removal: innocent answers that did not come out byte-identical;

overall, per language and per class, as "removed 182/210 = 86.7 %". --verbose lists the
failures (answer id, the names still readable or the altered stretches). Those quote the
corpus: whoever tunes the anonymiser reads only the figures of a held-out corpus, never
its failure lists. Exit status 1 (one line on stderr) for a missing or malformed corpus.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

# Run as `python bench/bench_anonymiser_corpus.py`, Python puts bench/ on the path, not the
# repository root: the root is needed for `tests.support` (test helpers).
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from review_app.anonymiser.anonymise import Scrubber, round_names
from tests.support.anonymiser_corpus import (
    CorpusError,
    Failure,
    Measurement,
    Tally,
    demonstration_models,
    measure,
    measurement_json,
    read_corpus,
)

ROOT = Path(__file__).resolve().parents[1]
CORPORA = ROOT / "tests" / "data" / "anonymiser"
# The evaluation corpora; those that exist are measured.
DEFAULT_DIRS = tuple(CORPORA / name for name in ("heldout", "fresh", "fresh2", "fresh3", "fresh4"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus_dirs", nargs="*", type=Path, metavar="CORPUS_DIR")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout")
    parser.add_argument("--verbose", action="store_true", help="list every failure")
    arguments = parser.parse_args(argv)
    directories = arguments.corpus_dirs or [d for d in DEFAULT_DIRS if d.is_dir()]
    try:
        corpora = [read_corpus(directory) for directory in directories]
    except CorpusError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    scrub = Scrubber(round_names(demonstration_models(ROOT)))
    results = {_shown(corpus.path): measure(corpus, scrub) for corpus in corpora}
    if arguments.json:
        print(json.dumps({path: measurement_json(m) for path, m in results.items()}, indent=2))
        return 0
    for path, measurement in results.items():
        print("\n".join(report_lines(path, measurement, verbose=arguments.verbose)))
    return 0


def _shown(path: Path) -> str:
    """`path` relative to the repository when it is inside it."""
    resolved = path.resolve()
    return str(resolved.relative_to(ROOT)) if resolved.is_relative_to(ROOT) else str(path)


def report_lines(path: str, measurement: Measurement, *, verbose: bool) -> list[str]:
    lines = [path, f"  self-identifying: removed {measurement.removed}"]
    lines += _grouped(measurement.removed_by)
    lines.append(f"  innocent: altered {measurement.altered}")
    lines += _grouped(measurement.altered_by)
    if verbose:
        lines += _failures("leaked (names still readable)", measurement.leaks)
        lines += _failures("altered (before -> after)", measurement.alterations)
    return lines


def _grouped(by: dict[str, dict[str, Tally]]) -> list[str]:
    lines = []
    for key, groups in by.items():
        lines.append(f"    by {key}:")
        width = max((len(value) for value in groups), default=0)
        lines += [f"      {value:<{width}}  {groups[value]}" for value in sorted(groups)]
    return lines


def _failures(title: str, failures: list[Failure]) -> list[str]:
    lines = [f"  {title}: {len(failures)}"]
    for failure in failures:
        entry = failure.entry
        label = f"{entry.entry_id} [{entry.language}, {entry.difficulty}]"
        lines.append(f"    {label}: " + "; ".join(failure.what))
    return lines


if __name__ == "__main__":
    sys.exit(main())
