"""`reportgen build`: rounds -> pages -> MkDocs -> guard -> site/, atomically.

This module is the generic build (staging, MkDocs config and run, sitemaps, downloads,
guard, atomic swap); what the pages show comes from each round's kind, through the
registry (`Kind.site`, a `SiteSource`). Rounds of one kind make that kind's site;
rounds of several kinds make a `SectionedSite` (a home page listing every round, then
one section per kind).

Everything is written into a staging directory next to the output; the output is
replaced only after MkDocs succeeded and the leak guard found nothing, so a failed
build leaves the previous site untouched. Builds are deterministic: MkDocs'
timestamps come from SOURCE_DATE_EPOCH (the latest collection date of the rounds).
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any

import yaml

from reportgen.errors import ArchiveError, InputError, OutputExistsError, ReportgenError
from reportgen.guard_cache import check_site_cached
from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.kinds import get_kind
from reportgen.kinds.rounds import check_across, read_round
from reportgen.model import Round
from reportgen.render import deferred, mkdocs_hooks
from reportgen.render.citation import citation_cff
from reportgen.render.search_index import search_folder, split_search_index
from reportgen.render.shell_pages import (
    PageConverter,
    excluded_sources,
    fill_shells,
    take_pages,
)
from reportgen.render.site_source import (
    NavEntry,
    RoundListing,
    Section,
    SectionedSite,
    SiteSource,
)
from reportgen.render.siteconfig import SiteConfig, load_build_config, refuse_placeholders
from reportgen.results import default_cache_dir
from reportgen.vendor import vega_bundle

SITE_MARKER = ".reportgen-site"  # marks a directory this command may replace
OPEN_GRAPH_LOCALE = {"pt-BR": "pt_BR", "en": "en_US"}  # the English pages spell American

Progress = Callable[[str], None]


@dataclass(frozen=True)
class BuildReport:
    out_dir: Path
    rounds: tuple[str, ...]
    files: int


class BuildError(ReportgenError):
    """MkDocs could not build the generated sources."""


class OutputNotWritableError(ReportgenError):
    """The output folder cannot be written (a file in the way, no permission, no such place)."""


def find_rounds(rounds_dir: Path) -> list[Path]:
    """Every round archive (a folder with round.json) directly under `rounds_dir`."""
    if not rounds_dir.is_dir():
        raise InputError(f"{rounds_dir}: no such directory of round archives")
    found = sorted(p for p in rounds_dir.iterdir() if (p / "round.json").is_file())
    if not found:
        raise InputError(f"{rounds_dir}: contains no round archive (no */round.json)")
    return found


def draft_notice(config: SiteConfig, tr: Translator) -> dict[str, str] | None:
    """The notice every page of a draft carries (metadata still tagged !placeholder), with
    what is missing named for readers; the theme prints it as a banner above each page."""
    if not config.draft:
        return None
    missing = dict.fromkeys(tr(f"draft.field.{key}") for key, _line in config.placeholders)
    return {"title": tr("draft.title"), "body": tr("draft.body", missing=", ".join(missing))}


def theme_extra(config: SiteConfig, language: str) -> dict[str, Any]:
    """What the theme overrides read per language: the draft notice, the folder whose
    search index the pages load, the footer's words and the Open Graph locale."""
    tr = Translator(language)
    return {
        "rg_draft": draft_notice(config, tr),
        "rg_search_folder": search_folder(language, SITE_LANGUAGES).rstrip("/"),
        "rg_made_with": tr("footer.made_with"),
        "rg_og_locale": OPEN_GRAPH_LOCALE[language],
    }


def mkdocs_config(
    config: SiteConfig,
    site_dir: Path,
    nav: Sequence[NavEntry],
    nav_translations: Mapping[str, Mapping[str, str]] | None = None,
) -> dict[str, Any]:
    """The generated mkdocs.yml (pt-BR at the root, English under /en/)."""
    names = {"pt-BR": "Português", "en": "English"}
    languages = []
    for language in SITE_LANGUAGES:
        tr = Translator(language)
        languages.append(
            {
                "locale": language,
                "name": names[language],
                "default": language == SITE_LANGUAGES[0],
                "build": True,
                "site_name": tr.pick(config.short_title),
                "site_description": tr.pick(config.title),
                "nav_translations": dict((nav_translations or {}).get(language, {})),
                "extra": theme_extra(config, language),
            }
        )
    return {
        "site_name": config.short_title["pt-BR"],
        # A placeholder address is left out: MkDocs then writes no canonical links.
        "site_url": config.site_url,
        "site_description": config.title["pt-BR"],
        "docs_dir": "docs",
        "site_dir": str(site_dir),
        "use_directory_urls": False,
        "strict": False,
        "theme": {
            "name": "material",
            "custom_dir": "overrides",
            "language": "pt-BR",
            "font": False,
            "features": ["navigation.sections", "navigation.top", "toc.integrate"],
            "palette": {"scheme": "default", "primary": "indigo", "accent": "indigo"},
        },
        "extra_css": ["assets/rg/site.css"],
        "extra_javascript": ["assets/rg/vega-bundle.js", "assets/rg/site.js"],
        "markdown_extensions": ["tables", "attr_list", "admonition", {"toc": {"permalink": True}}],
        "nav": list(nav),
        "extra": theme_extra(config, SITE_LANGUAGES[0]),
        "hooks": [mkdocs_hooks.__file__],
        "plugins": [
            "search",
            {
                "i18n": {
                    "docs_structure": "folder",
                    "fallback_to_default": False,
                    # Its de-duplication drops English entries that match Portuguese ones;
                    # the index is split per language after the build instead.
                    "reconfigure_search": False,
                    "languages": languages,
                }
            },
        ],
    }


@contextlib.contextmanager
def _source_date(epoch: int) -> Iterator[None]:
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = str(epoch)
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop("SOURCE_DATE_EPOCH", None)
        else:
            os.environ["SOURCE_DATE_EPOCH"] = previous


@contextlib.contextmanager
def _mkdocs_errors(config_file: Path) -> Iterator[None]:
    """MkDocs' failures as a BuildError naming `config_file`; its log quiet but for errors."""
    from mkdocs.exceptions import MkDocsException

    quiet = logging.getLogger("mkdocs")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        yield
    except (MkDocsException, OSError) as error:
        raise BuildError(f"{config_file}: MkDocs failed: {error}") from None
    finally:
        quiet.setLevel(level)


def _load_mkdocs_config(config_file: Path) -> Any:
    from mkdocs.config import load_config

    with _mkdocs_errors(config_file):
        return load_config(str(config_file))


def _run_mkdocs(config_file: Path, loaded: Any, epoch: int) -> None:
    from mkdocs.commands.build import build

    with _mkdocs_errors(config_file), _source_date(epoch):
        build(loaded)


def _converters(loaded: Any) -> dict[str, PageConverter]:
    """One Markdown converter per language, set up as MkDocs sets up its own."""
    return {
        language: PageConverter(loaded["markdown_extensions"], loaded["mdx_configs"] or {})
        for language in SITE_LANGUAGES
    }


def _addressless_sitemap(built: Path) -> None:
    """A draft without a site address: mkdocs-static-i18n then writes "None" before every path
    of the sitemap; root-relative paths keep it usable (the language selector strips them)."""
    xml = built / "sitemap.xml"
    if not xml.is_file():
        return
    text = xml.read_text(encoding="utf-8")
    text = text.replace("<loc>None", "<loc>/").replace('href="None', 'href="/')
    xml.write_text(text, encoding="utf-8")
    with gzip.GzipFile(built / "sitemap.xml.gz", "wb", mtime=0) as packed:
        packed.write(text.encode("utf-8"))


def _language_sitemaps(built: Path) -> None:
    # Material's language selector fetches sitemap.xml beside the page it links to (for
    # every language) to keep the reader on the same page; mkdocs-static-i18n writes only
    # the root one, which already lists every page, so it is copied beside every page.
    folders = {page.parent for page in built.rglob("*.html")} - {built}
    for folder in sorted(folders):
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            if (built / name).is_file():
                shutil.copyfile(built / name, folder / name)


def _check_output(out_dir: Path) -> None:
    if out_dir.exists() and (
        not out_dir.is_dir() or (any(out_dir.iterdir()) and not (out_dir / SITE_MARKER).exists())
    ):
        raise OutputExistsError(
            f"{out_dir}: exists and was not written by `reportgen build`; refusing to replace it"
        )


def _make_staging(out_dir: Path) -> Path:
    """The staging folder beside `out_dir` (created before any work, so a bad --out fails fast)."""
    try:
        out_dir.parent.mkdir(parents=True, exist_ok=True)
        return Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}-staging-"))
    except OSError as error:
        in_the_way = next((p for p in out_dir.parents if p.exists() and not p.is_dir()), None)
        detail = (
            f"{in_the_way} is a file, not a folder"
            if in_the_way is not None
            else f"cannot create a folder in {out_dir.parent}: {error.strerror or error}"
        )
        raise OutputNotWritableError(f"{out_dir}: cannot write the site there ({detail})") from None


def _swap(built: Path, out_dir: Path, staging: Path) -> None:
    """Replace `out_dir` by `built`; the old site is moved aside first and restored on failure."""
    aside = staging / "previous"
    had_previous = out_dir.exists()
    if had_previous:
        out_dir.rename(aside)
    try:
        built.rename(out_dir)
    except OSError:
        if had_previous:
            aside.rename(out_dir)
        raise


def _write_and_run(
    site: SiteSource,
    config: SiteConfig,
    theme_dir: Path,
    work: Path,
    built: Path,
    *,
    shells: bool = True,
) -> None:
    """The Markdown sources, theme and mkdocs.yml in `work`; MkDocs builds them into `built`.

    With `shells`, the many pages of a folder outside the navigation are made from one
    shell page MkDocs builds per folder (reportgen/render/shell_pages.py)."""
    for language in SITE_LANGUAGES:
        site.write_sources(work / "docs" / language, language)
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
    loaded = _load_mkdocs_config(config_file)
    converters = _converters(loaded)
    groups = (
        take_pages(work / "docs", SITE_LANGUAGES, _nav_sources(site.nav), converters)
        if shells
        else []
    )
    if groups:
        from pathspec.gitignore import GitIgnoreSpec

        loaded["exclude_docs"] = GitIgnoreSpec.from_lines(excluded_sources(work / "docs", groups))
    _run_mkdocs(
        config_file, loaded, int(datetime.combine(site.source_date, time(), UTC).timestamp())
    )
    folders = {language: search_folder(language, SITE_LANGUAGES) for language in SITE_LANGUAGES}
    fill_shells(built, groups, folders, converters)


def _nav_sources(nav: Sequence[NavEntry]) -> list[str]:
    """Every Markdown file the navigation lists (a section's pages too)."""
    sources: list[str] = []
    for entry in nav:
        if isinstance(entry, str):
            sources.append(entry)
        else:
            sources += [page for pages in entry.values() for page in pages]
    return sources


def _stage(
    site: SiteSource, config: SiteConfig, theme_dir: Path, staging: Path, *, shells: bool = True
) -> Path:
    """Write the sources, run MkDocs and add the downloads in `staging`; returns the site."""
    work, built = staging / "src", staging / "site"
    # Page writers defer their big blocks; the MkDocs hook puts them back (see deferred).
    with deferred.collecting():
        _write_and_run(site, config, theme_dir, work, built, shells=shells)
    for home in (built / "index.html", built / "en" / "index.html"):
        if not home.is_file():
            raise BuildError(f"{home}: MkDocs produced no home page; nothing was published")
    if config.site_url is None:
        _addressless_sitemap(built)
    _language_sitemaps(built)
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
    _check_output(out_dir)
    staging = _make_staging(out_dir)
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
    site = assemble_site(rounds, config, cache_dir=cache_dir, progress=say)
    say("writing pages and running MkDocs")
    built = _stage(site, config, theme_dir, staging, shells=shells)
    say("leak guard")
    materials = [get_kind(r.manifest.kind).guard_material(r) for r in rounds]
    guard_dir = (cache_dir or default_cache_dir()) / "guard"  # files found clean: not rescanned
    check_site_cached(built, materials, as_of=config.as_of, cache_dir=guard_dir)
    _swap(built, out_dir, staging)
    return BuildReport(out_dir, tuple(ids), sum(1 for p in out_dir.rglob("*") if p.is_file()))
