"""Benchmark of the site at leaderboard scale (issue 19, goal 5): prints figures, asserts nothing.

    python bench/bench_site.py [--models N ...] [--json] [--rounds-cache DIR] [--profile FILE]
        [--profile-warm FILE]

For each N of `--models` (default 7, 100 and 1,000): a generated continuous Estigmas round
of N models (the demonstration's 500-item continuous round grown to N models,
`tests/support/continuous_round.py`; deterministic), then

1. cold: `reportgen build` of that round, both languages, with an empty results cache and
   no previous site;
2. warm: `reportgen add-model` of one more model, then `reportgen build` again with the
   cache of the cold build (the add-model command's own time is printed apart).

Each command runs in a child process; its wall seconds, CPU seconds (user + system) and
peak resident memory are its own (`os.wait4`). Targets at 1,000 models: cold build within
120 s and 4 GiB, warm rebuild within 20 s, search index within 5 MB per language. The
machine's load average is printed too: on shared cores, wall times are upper bounds.
`--json` prints one JSON object per line (keys models, step, wall_s, cpu_s, peak_rss_mib,
and for builds search_index_bytes per language, pages, load_average).
`--profile FILE` runs the cold build under cProfile and writes the stats to FILE,
`--profile-warm FILE` the warm rebuild. `--stages` has each build print, on standard error,
the wall and CPU seconds of its stages (reading, statistics, page writing per language,
shell pages, MkDocs, chart files, leak guard...), timed around the build's own functions.
Generating a round of 1,000 models takes minutes; `--rounds-cache DIR` keeps the generated
rounds there between runs.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))  # for tests.support (the round generator)

if TYPE_CHECKING:
    from tests.support.continuous_round import ScaleRound

TARGETS = {"cold": (120.0, 4096.0), "warm": (20.0, None)}
INDEX_LIMIT = 5_000_000


# What a build imports: compiled once before the figures (see `child_environment`).
WARM_IMPORTS = (
    "reportgen.build", "reportgen.kinds.estigmas.render.site_pages",
    "reportgen.kinds.estigmas.results", "reportgen.kinds.estigmas.render.chart_files",
    "reportgen.kinds.estigmas.freeze", "reportgen.cli.build", "reportgen.cli.add_model",
    "mkdocs.commands.build", "mkdocs.config", "material.plugins.search.plugin",
    "mkdocs_static_i18n.plugin", "markdown.extensions.toc", "markdown.extensions.tables",
    "markdown.extensions.attr_list", "markdown.extensions.admonition", "scipy.stats",
    "statsmodels.stats.multitest", "pandas", "altair", "pydantic", "jsonschema",
)  # fmt: skip


def child_environment(pycache: Path) -> dict[str, str]:
    """The children's environment: the worktree first, and their bytecode kept in `pycache`.

    A machine that sets PYTHONDONTWRITEBYTECODE compiles every imported module again in
    every process (tens of CPU seconds for scipy, pandas and altair); an installed site has
    its bytecode, so the children keep theirs under `pycache`, compiled before the figures.
    """
    env = dict(os.environ, PYTHONPATH=str(REPO), PYTHONPYCACHEPREFIX=str(pycache))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


CHILD_ENV: dict[str, str] = dict(os.environ)


def run_child(arguments: list[str]) -> dict[str, float]:
    """Run `arguments`; its wall and CPU seconds and peak RSS (MiB), from os.wait4."""
    env = CHILD_ENV
    start = time.perf_counter()
    process = subprocess.Popen(arguments, env=env, cwd=REPO)
    _, status, usage = os.wait4(process.pid, 0)
    wall = time.perf_counter() - start
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"{' '.join(arguments)} failed with status {process.returncode}")
    return {
        "wall_s": round(wall, 2),
        "cpu_s": round(usage.ru_utime + usage.ru_stime, 2),
        "peak_rss_mib": round(usage.ru_maxrss / 1024, 1),  # KiB on Linux
    }


def reportgen(*arguments: str, profile: Path | None = None) -> list[str]:
    """The command line of `reportgen ARGUMENTS` (this file runs it: see `main`)."""
    runner = [sys.executable, __file__, "--reportgen"]
    if profile is not None:
        runner = [sys.executable, "-m", "cProfile", "-o", str(profile), __file__, "--reportgen"]
    return [*runner, *arguments]


def index_sizes(site: Path) -> dict[str, int]:
    return {
        "pt-BR": (site / "search" / "search_index.json").stat().st_size,
        "en": (site / "en" / "search" / "search_index.json").stat().st_size,
    }


def round_of(models: int, rounds_cache: Path | None, work: Path, scale: ScaleRound) -> Path:
    """The generated round of `models` models (from `rounds_cache` when it holds it)."""
    folder = (rounds_cache or work / "generated") / f"models-{models}"
    if not (folder / "done").is_file():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        scale.write(folder, models)
        (folder / "done").write_text("", encoding="utf-8")
    archive = next(p for p in folder.iterdir() if p.is_dir())
    copy = work / "rounds" / archive.name
    shutil.rmtree(copy.parent, ignore_errors=True)
    copy.parent.mkdir(parents=True)
    shutil.copytree(archive, copy)
    return copy


def bench(
    models: int, scale: ScaleRound, args: argparse.Namespace, work: Path
) -> list[dict[str, Any]]:
    start = time.perf_counter()
    archive = round_of(models, args.rounds_cache, work, scale)
    generated = time.perf_counter() - start
    site, cache = work / "site", work / "cache"
    shutil.rmtree(site, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)
    common = ["--out", str(site), "--cache-dir", str(cache), "--config", str(REPO / "site.yml")]
    rows: list[dict[str, Any]] = []

    def record(step: str, figures: dict[str, float], built: bool) -> None:
        row: dict[str, Any] = {"models": models, "step": step, **figures}
        if built:
            row["search_index_bytes"] = index_sizes(site)
            row["pages"] = sum(1 for _ in site.rglob("*.html"))
        row["load_average"] = round(os.getloadavg()[0], 2)
        rows.append(row)

    record("generate", {"wall_s": round(generated, 2)}, False)
    record("cold", run_child(reportgen("build", str(archive), *common, profile=args.profile)), True)
    responses = work / "new-model.parquet"
    model = scale.write_responses(models, responses)
    added = reportgen(
        "add-model", str(archive), str(responses), "--model-id", model.model_id,
        "--display-name", model.display_name, "--provider", model.provider,
        "--api-identifier", model.api_identifier, "--evaluated-on", "2026-07-02",
    )  # fmt: skip
    record("add-model", run_child(added), False)
    warm = reportgen("build", str(archive), *common, profile=args.profile_warm)
    record("warm", run_child(warm), True)
    return rows


def verdict(row: dict[str, Any]) -> str:
    wall_limit, rss_limit = TARGETS.get(row["step"], (None, None))
    if wall_limit is None or row["models"] < 1000:
        return ""
    over = row["wall_s"] > wall_limit or (rss_limit is not None and row["peak_rss_mib"] > rss_limit)
    over = over or max(row["search_index_bytes"].values()) > INDEX_LIMIT
    return "  OVER" if over else "  ok"


def show(row: dict[str, Any]) -> str:
    text = f"{row['models']:5d} models  {row['step']:9s} wall {row['wall_s']:7.2f} s"
    if "cpu_s" in row:
        text += f"  cpu {row['cpu_s']:7.2f} s  peak RSS {row['peak_rss_mib']:7.1f} MiB"
    if "search_index_bytes" in row:
        sizes = row["search_index_bytes"]
        text += f"  index pt-BR {sizes['pt-BR'] / 1e6:.2f} MB, en {sizes['en'] / 1e6:.2f} MB"
        text += f"  {row['pages']} pages"
    return text + f"  (load {row['load_average']:.1f})" + verdict(row)


# The build's stages, as functions of its modules: (module, attribute, label).
STAGES = (
    ("reportgen.build", "read_round", "read a round"),
    ("reportgen.kinds.estigmas.render.site", "load_results", "statistics"),
    ("reportgen.build", "assemble_site", "statistics and page data"),
    ("reportgen.kinds.estigmas.render.site_pages", "EstigmasSite.write_sources", "write pages"),
    ("reportgen.kinds.estigmas.render.site_pages", "EstigmasSite.write_pages", "write pages"),
    ("reportgen.build", "ForkedLanguage.join", "join the forked language"),
    ("reportgen.render.shell_convert", "PageTaker.groups", "shell pages (waiting)"),
    ("reportgen.build", "run_mkdocs", "MkDocs"),
    ("reportgen.build", "fill_shells", "fill shells"),
    ("reportgen.kinds.estigmas.render.site_pages", "EstigmasSite.write_assets", "chart files"),
    ("reportgen.build", "check_site_cached", "leak guard"),
    ("reportgen.build", "_swap", "swap in the new site"),
    ("reportgen.build", "_build_in", "all but the cleanup"),
    ("reportgen.build", "build_site", "whole build"),
)  # fmt: skip


def time_stages() -> None:
    """Wrap each of STAGES so that every call prints its wall and CPU seconds."""
    import functools
    import importlib

    for module_name, attribute, label in STAGES:
        owner: Any = importlib.import_module(module_name)
        *path, name = attribute.split(".")
        for part in path:
            owner = getattr(owner, part)
        function = getattr(owner, name)

        def timed(*args: Any, _function: Any = function, _label: str = label, **kw: Any) -> Any:
            wall, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
            try:
                return _function(*args, **kw)
            finally:
                wall, after = time.perf_counter() - wall, resource.getrusage(resource.RUSAGE_SELF)
                user, system = after.ru_utime - before.ru_utime, after.ru_stime - before.ru_stime
                faults = after.ru_minflt - before.ru_minflt
                line = (
                    f"    stage {_label:26s} wall {wall:6.2f} s  cpu {user + system:6.2f} s"
                    f" (system {system:5.2f} s, {faults / 1000:6.0f}k page faults)"
                )
                print(line, file=sys.stderr)

        setattr(owner, name, functools.wraps(function)(timed))


def main() -> None:
    if sys.argv[1:2] == ["--reportgen"]:  # a child: run `reportgen` with the rest
        from reportgen.cli import main as reportgen_main

        if os.environ.get("BENCH_SITE_STAGES"):
            time_stages()

        sys.argv = ["reportgen", *sys.argv[2:]]
        reportgen_main()
        return
    from tests.support.continuous_round import ScaleRound

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, nargs="+", default=[7, 100, 1000])
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.add_argument("--rounds-cache", type=Path, default=None)
    parser.add_argument("--profile", type=Path, default=None, help="cProfile the cold build")
    parser.add_argument("--profile-warm", type=Path, default=None, help="cProfile the warm one")
    parser.add_argument("--stages", action="store_true", help="time each build's stages")
    args = parser.parse_args()
    if args.stages:
        CHILD_ENV["BENCH_SITE_STAGES"] = "1"
    scale = ScaleRound()
    # Kept with the generated rounds when they are kept, else removed at the end.
    pycache = (
        args.rounds_cache / "pycache"
        if args.rounds_cache
        else Path(tempfile.mkdtemp(prefix="bench-site-pycache-"))
    )
    CHILD_ENV.update(child_environment(pycache))
    CHILD_ENV.pop("PYTHONDONTWRITEBYTECODE", None)
    imports = "; ".join(f"import {name}" for name in WARM_IMPORTS)
    warm = run_child([sys.executable, "-c", imports])
    if not args.json:
        print(f"bytecode compiled in {warm['cpu_s']:.1f} CPU s (not counted below)")
    if not args.json:
        print(f"{os.cpu_count()} CPUs; targets at 1,000 models: cold <= 120 s and 4 GiB, "
              "warm <= 20 s, index <= 5 MB per language")  # fmt: skip
    for models in args.models:
        with tempfile.TemporaryDirectory(prefix="bench-site-") as scratch:
            for row in bench(models, scale, args, Path(scratch)):
                print(json.dumps(row) if args.json else show(row), flush=True)
    if not args.rounds_cache:
        shutil.rmtree(pycache, ignore_errors=True)


if __name__ == "__main__":
    main()
