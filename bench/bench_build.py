"""Benchmark `reportgen build`: a cold build and a rebuild after a template change.

Usage: python bench/bench_build.py [ROUNDS_DIR]

Builds every archive under ROUNDS_DIR (default rounds/; when it holds no archive, the
demonstration rounds are generated into a temporary folder first), both languages:

1. cold: empty results cache, empty output folder (budget 20 s);
2. rebuild after a template change: one page template edited, statistics cached (budget 5 s).

Prints both wall times and whether each is within its budget; exits 1 when one is not.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
import time
from pathlib import Path

from reportgen.build import BuildReport, build_site, find_rounds
from reportgen.kinds.estigmas.render import pages

REPO = Path(__file__).resolve().parent.parent
COLD_BUDGET_S = 20.0
REBUILD_BUDGET_S = 5.0


def _rounds(work: Path, requested: Path) -> list[Path]:
    if requested.is_dir() and any(requested.glob("*/round.json")):
        return find_rounds(requested)
    from reportgen.demo.generate import generate_demo_rounds

    print(f"{requested} holds no archive: generating the demonstration rounds")
    target = work / "rounds"
    target.mkdir()
    generate_demo_rounds(target)
    return find_rounds(target)


def main() -> int:
    requested = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO / "rounds"
    with tempfile.TemporaryDirectory(prefix="bench-build-") as scratch:
        work = Path(scratch)
        rounds = _rounds(work, requested)
        # A copy of the page templates, to edit one between the two builds.
        templates = work / "templates"
        shutil.copytree(pages.PAGE_TEMPLATES, templates)
        pages.PAGE_TEMPLATES = templates

        def build() -> BuildReport:
            return build_site(
                rounds,
                work / "site",
                config_path=REPO / "site.yml",
                theme_dir=REPO / "templates" / "overrides",
                cache_dir=work / "cache",
            )

        start = time.perf_counter()
        report = build()
        cold = time.perf_counter() - start

        page = templates / "methodology.md.j2"
        page.write_text(page.read_text(encoding="utf-8") + "\n<!-- edited -->\n", "utf-8")
        start = time.perf_counter()
        build()
        rebuild = time.perf_counter() - start

    print(f"rounds: {', '.join(report.rounds)}; {report.files} files; both languages")
    within_cold = cold <= COLD_BUDGET_S
    within_rebuild = rebuild <= REBUILD_BUDGET_S
    print(f"cold build:                      {cold:6.2f} s (budget {COLD_BUDGET_S:.0f} s) "
          f"{'ok' if within_cold else 'OVER BUDGET'}")  # fmt: skip
    print(f"rebuild after a template change: {rebuild:6.2f} s (budget {REBUILD_BUDGET_S:.0f} s) "
          f"{'ok' if within_rebuild else 'OVER BUDGET'}")  # fmt: skip
    return 0 if within_cold and within_rebuild else 1


if __name__ == "__main__":
    sys.exit(main())
