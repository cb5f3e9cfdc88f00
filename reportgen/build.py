"""`reportgen build`: rounds -> pages -> MkDocs -> guard -> site/, atomically.

This module is the generic build (staging, sources, shell pages, downloads, guard,
atomic swap; the generated mkdocs.yml and MkDocs' run are in render/mkdocs_site.py);
what the pages show comes from each round's kind, through the registry (`Kind.site`, a
`SiteSource`). Rounds of one kind make that kind's site; rounds of several kinds make a
`SectionedSite` (a home page listing every round, then one section per kind).

Everything is written into a staging directory next to the output; the output is
replaced only after MkDocs succeeded and the leak guard found nothing, so a failed
build leaves the previous site untouched. Builds are deterministic: MkDocs'
timestamps come from SOURCE_DATE_EPOCH (the latest collection date of the rounds).
"""

from __future__ import annotations

import contextlib
import gc
import shutil
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path

import yaml

from reportgen.errors import ArchiveError, InputError
from reportgen.guard_cache import EarlyScan, check_site_cached
from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds import get_kind
from reportgen.kinds.rounds import check_across, read_round
from reportgen.model import Round
from reportgen.render import deferred, pages
from reportgen.render.citation import citation_cff
from reportgen.render.forked_pages import ForkedLanguage, may_fork
from reportgen.render.mkdocs_site import (
    BuildError,
    addressless_sitemap,
    language_sitemaps,
    load_mkdocs_config,
    mkdocs_config,
    nav_sources,
    page_converters,
    run_mkdocs,
)
from reportgen.render.page_cache import KeptPages
from reportgen.render.search_index import search_folder, split_search_index
from reportgen.render.shell_convert import POOL_MIN as SHELL_POOL_MIN
from reportgen.render.shell_convert import PageTaker, start_workers
from reportgen.render.shell_pages import excluded_sources, fill_shells
from reportgen.render.site_source import (
    DownloadsFirst,
    RoundListing,
    Section,
    SectionedSite,
    SiteSource,
)
from reportgen.render.siteconfig import SiteConfig, load_build_config, refuse_placeholders
from reportgen.results import default_cache_dir
from reportgen.site_output import SITE_MARKER, check_output, make_staging
from reportgen.site_output import swap as _swap  # by this name: bench/bench_site.py times it
from reportgen.vendor import vega_bundle
from reportgen.workers import pool_size

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildReport:
    out_dir: Path
    rounds: tuple[str, ...]
    files: int


def find_rounds(rounds_dir: Path) -> list[Path]:
    """Every round archive (a folder with round.json) directly under `rounds_dir`."""
    if not rounds_dir.is_dir():
        raise InputError(f"{rounds_dir}: no such directory of round archives")
    found = sorted(p for p in rounds_dir.iterdir() if (p / "round.json").is_file())
    if not found:
        raise InputError(f"{rounds_dir}: contains no round archive (no */round.json)")
    return found


def _write_and_run(
    site: SiteSource,
    config: SiteConfig,
    theme_dir: Path,
    work: Path,
    built: Path,
    *,
    shells: bool = True,
    workers: ProcessPoolExecutor | None = None,
    kept: KeptPages | None = None,
    after_pages: Callable[[], None] = lambda: None,  # see `_write_languages`
) -> None:
    """The Markdown sources, theme and mkdocs.yml in `work`; MkDocs builds them into `built`.

    With `shells`, the many pages of a folder outside the navigation are made from one
    shell page MkDocs builds per folder (reportgen/render/shell_pages.py); the pages are
    converted for it as they are written (by workers started ahead, in a big build), unless
    `kept` holds them from the last build (reportgen/render/page_cache.py)."""
    for language in SITE_LANGUAGES:  # MkDocs' configuration wants its docs_dir to exist
        (work / "docs" / language).mkdir(parents=True, exist_ok=True)
    shutil.copytree(theme_dir, work / "overrides")
    (work / "overrides" / "assets" / "rg" / "vega-bundle.js").write_text(
        vega_bundle(), encoding="utf-8"
    )
    config_file = work / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(
            mkdocs_config(config, built, site.nav, site.nav_translations),
            allow_unicode=True,
            sort_keys=False,
        ),
        encoding="utf-8",
    )
    loaded = load_mkdocs_config(config_file)
    converters = page_converters(loaded)
    folders = {language: search_folder(language, SITE_LANGUAGES) for language in SITE_LANGUAGES}
    taker = PageTaker(work / "docs", nav_sources(site.nav), converters, folders, workers, kept)
    listening = pages.listening(taker.page_written) if shells else contextlib.nullcontext()
    try:
        with listening:
            _write_languages(site, work, taker if shells else None, after_pages)
        groups = taker.groups() if shells else []
    finally:
        taker.close()
    if groups:
        from pathspec.gitignore import GitIgnoreSpec

        loaded["exclude_docs"] = GitIgnoreSpec.from_lines(excluded_sources(work / "docs", groups))
    run_mkdocs(
        config_file, loaded, int(datetime.combine(site.source_date, time(), UTC).timestamp())
    )
    fill_shells(built, groups, folders, converters)


def _write_languages(
    site: SiteSource, work: Path, taker: PageTaker | None, after_pages: Callable[[], None]
) -> None:
    """Every language's sources under `work/docs/`, each handed to `taker` once written.

    Where the site and this process allow it (reportgen/render/forked_pages.py), forked
    children write the later languages meanwhile, and the first language's charts are
    started once its pages are written, while this process waits for the children: a
    drawing worker's start then takes no core from the pages (a rebuild has a handful to
    draw). A build with many pages to convert starts its conversion workers ahead, so it
    forks nothing and starts each language's charts once its page contexts are made.
    `after_pages` runs, where the build forks, between the first language's pages and its
    charts: no thread runs yet."""
    forkable = site if may_fork(site) else None
    docs = work / "docs"
    forked: dict[str, ForkedLanguage] = {}
    try:
        if forkable is not None:
            for language in SITE_LANGUAGES[1:]:
                handback = work / f"forked-{language}.pickle"
                forked[language] = ForkedLanguage.start(
                    forkable, docs / language, language, handback
                )
        for language in SITE_LANGUAGES:
            if language in forked:
                forked[language].join()
            elif forkable is not None:
                written = forkable.write_pages(docs / language, language)
                # Before the charts start a pool's threads, and once the pages' work is
                # mostly done: the leak guard's early scan of the downloads, forked now.
                after_pages()
                forkable.adopt_pages(language, written)
            else:
                site.write_sources(docs / language, language)
            if taker is not None:
                taker.add_language(language)
    finally:
        for child in forked.values():
            child.stop()


def _stage(
    site: SiteSource,
    config: SiteConfig,
    theme_dir: Path,
    staging: Path,
    *,
    shells: bool = True,
    workers: ProcessPoolExecutor | None = None,  # for the shell pages, started ahead
    kept: KeptPages | None = None,  # the shell pages of the last build into the same folder
    after_pages: Callable[[], None] = lambda: None,
) -> Path:
    """Write the sources, run MkDocs and add the downloads in `staging`; returns the site."""
    work, built = staging / "src", staging / "site"
    # Page writers defer their big blocks; the MkDocs hook puts them back (see deferred).
    with deferred.collecting():
        _write_and_run(
            site, config, theme_dir, work, built,
            shells=shells, workers=workers, kept=kept, after_pages=after_pages,
        )  # fmt: skip
    for language in SITE_LANGUAGES:  # drawn while MkDocs ran
        site.write_assets(built / search_folder(language, SITE_LANGUAGES), language)
    for home in (built / "index.html", built / "en" / "index.html"):
        if not home.is_file():
            raise BuildError(f"{home}: MkDocs produced no home page; nothing was published")
    if config.site_url is None:
        addressless_sitemap(built)
    language_sitemaps(built)
    split_search_index(built, SITE_LANGUAGES)
    site.write_downloads(built)
    cff = citation_cff(config)
    if cff is not None:
        (built / "CITATION.cff").write_text(cff, encoding="utf-8")
    (built / SITE_MARKER).write_text("built by reportgen\n", encoding="utf-8")
    return built


def assemble_site(
    rounds: Sequence[Round],
    config: SiteConfig,
    *,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> SiteSource:
    """The pages of `rounds`: one kind's site, or one section per kind (by kind name)."""
    by_kind: dict[str, list[Round]] = {}
    for round_ in rounds:
        by_kind.setdefault(round_.manifest.kind, []).append(round_)
    depth = 0 if len(by_kind) == 1 else 1
    sites = {
        name: get_kind(name).site(
            members, config, cache_dir=cache_dir, progress=progress, section_depth=depth
        )
        for name, members in sorted(by_kind.items())
    }
    if len(sites) == 1:
        return next(iter(sites.values()))
    sections = tuple(
        Section(
            folder=name,
            title=get_kind(name).title,
            rounds=tuple(
                RoundListing(
                    r.round_id, r.manifest.title, r.manifest.collected_on, r.manifest.synthetic
                )
                for r in by_kind[name]
            ),
            source=source,
        )
        for name, source in sites.items()
    )
    return SectionedSite(config.title, sections)


def build_site(
    round_dirs: Sequence[Path],
    out_dir: Path,
    *,
    config_path: Path,
    theme_dir: Path,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
    strict: bool = False,
    as_of: date | None = None,  # the date the site speaks for (None: SOURCE_DATE_EPOCH, today)
    shells: bool = True,  # False: every page through MkDocs (tests compare the two)
) -> BuildReport:
    """Build the site from `round_dirs` into `out_dir`; nothing is written on failure.

    `theme_dir` is the MkDocs theme overrides folder (main.html, assets/); the page
    templates belong to the kind and ship with the package. `strict` is the publication
    build: it refuses to run while any metadata value is still a placeholder.
    """
    say = progress or (lambda _message: None)
    # MkDocs resolves a relative site_dir against the folder of mkdocs.yml, which lives in
    # the staging area: only absolute paths mean the same thing to both of us.
    out_dir = out_dir.absolute()
    config = load_build_config(config_path, as_of)
    if strict:
        refuse_placeholders(config, config_path)
    if not (theme_dir / "main.html").is_file():
        raise InputError(f"{theme_dir}: not a theme overrides folder (no main.html)")
    check_output(out_dir)
    staging = make_staging(out_dir)
    try:
        report = _build_in(
            staging, round_dirs, out_dir, config, theme_dir, cache_dir, say, shells=shells
        )
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"site written to {out_dir}")
    return report


def _build_in(
    staging: Path,
    round_dirs: Sequence[Path],
    out_dir: Path,
    config: SiteConfig,
    theme_dir: Path,
    cache_dir: Path | None,
    say: Progress,
    *,
    shells: bool = True,
) -> BuildReport:
    rounds: list[Round] = []
    for round_dir in round_dirs:
        say(f"reading {round_dir}")
        rounds.append(read_round(round_dir, with_text=True))
    across = check_across(rounds)
    if across:
        raise ArchiveError("across archives", across)
    ids = [r.round_id for r in rounds]
    if len(set(ids)) != len(ids):
        raise InputError(f"two archives share a round id: {sorted(ids)}")
    kept = KeptPages.load(cache_dir or default_cache_dir(), out_dir) if shells else None
    workers = _shell_workers(rounds, kept) if kept is not None else None
    try:
        built = _make_site(rounds, config, theme_dir, cache_dir, staging, say, workers, kept)
    finally:
        if workers is not None:
            workers.shutdown(cancel_futures=True)
    _swap(built, out_dir, staging)
    return BuildReport(out_dir, tuple(ids), sum(1 for p in out_dir.rglob("*") if p.is_file()))


def _shell_workers(rounds: Sequence[Round], kept: KeptPages) -> ProcessPoolExecutor | None:
    """The workers that will convert the shell pages, started now (their start, a second
    each, then runs beside the statistics) when the site will have many (a page per model
    and language) that the last build did not leave converted. Otherwise the taker starts
    them if many pages turn out changed after all (`PageTaker.page_written`)."""
    workers = pool_size()
    models = sum(len(r.models) for r in rounds)
    unkept = len(SITE_LANGUAGES) * models - len(kept.found)  # at least this many to convert
    if models < SHELL_POOL_MIN or unkept < SHELL_POOL_MIN or workers < 2:
        return None
    return start_workers(workers)


# long: one stage after the other, each a call
def _make_site(
    rounds: Sequence[Round],
    config: SiteConfig,
    theme_dir: Path,
    cache_dir: Path | None,
    staging: Path,
    say: Progress,
    workers: ProcessPoolExecutor | None,
    kept: KeptPages | None,  # None: no shell pages
) -> Path:
    # The rounds, then their statistics and page data, live to the end of the build: moved
    # out of the collector's generations, later collections do not traverse them again
    # (3.5 s of a 1,000-model rebuild went to collections that found nothing). Reference
    # counting still frees them; only a reference cycle among them would stay.
    gc.freeze()
    site = assemble_site(rounds, config, cache_dir=cache_dir, progress=say)
    gc.freeze()
    say("writing pages and running MkDocs")
    # The downloads, made before the pages, are scanned in the time MkDocs leaves idle
    # (`EarlyScan`).
    materials = [get_kind(r.manifest.kind).guard_material(r) for r in rounds]
    early = EarlyScan(materials, config.as_of)
    downloads = site.download_files if isinstance(site, DownloadsFirst) else dict
    try:
        gc.disable()
        try:
            built = _stage(
                site, config, theme_dir, staging, shells=kept is not None, workers=workers,
                kept=kept, after_pages=lambda: early.start(downloads()),
            )  # fmt: skip
        finally:
            gc.enable()
        say("leak guard")
        guard_dir = (cache_dir or default_cache_dir()) / "guard"  # files found clean: kept
        check_site_cached(built, materials, as_of=config.as_of, cache_dir=guard_dir, early=early)
    finally:
        early.close()  # the early scan's process, if the build failed before the guard
    return built
