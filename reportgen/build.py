"""`reportgen build`: rounds -> pages -> MkDocs -> guard -> site/, atomically.

This module is the generic build (staging, MkDocs config and run, sitemaps, downloads,
guard, atomic swap); what the pages show comes from the kind through one entry point
(`estigmas_site`, a `SiteSource`), which is given the SVG cache the build creates.

Everything is written into a staging directory next to the output; the output is
replaced only after MkDocs succeeded and the leak guard found nothing, so a failed
build leaves the previous site untouched. Builds are deterministic: MkDocs'
timestamps come from SOURCE_DATE_EPOCH (the latest collection date of the rounds).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import Any, Protocol

import yaml

from reportgen.errors import InputError, OutputExistsError, ReportgenError
from reportgen.guard import check_site
from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.guard import guard_material
from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.render.charts import SvgCache
from reportgen.kinds.estigmas.render.site_pages import estigmas_site
from reportgen.kinds.estigmas.results import default_cache_dir
from reportgen.render.siteconfig import SiteConfig, load_site_config
from reportgen.vendor import vega_bundle

SITE_MARKER = ".reportgen-site"  # marks a directory this command may replace

Progress = Callable[[str], None]


class SiteSource(Protocol):
    """What the build needs from a kind's pages (today only Estigmas: `estigmas_site`)."""

    @property
    def nav(self) -> tuple[str, ...]: ...  # the navigation's Markdown files, in order

    @property
    def source_date(self) -> date: ...  # the date the built site is stamped with

    def write_sources(self, docs_dir: Path, language: str) -> list[Path]: ...

    def write_downloads(self, site_dir: Path) -> list[Path]: ...


@dataclass(frozen=True)
class BuildReport:
    out_dir: Path
    rounds: tuple[str, ...]
    files: int


class BuildError(ReportgenError):
    """MkDocs could not build the generated sources."""


def find_rounds(rounds_dir: Path) -> list[Path]:
    """Every round archive (a folder with round.json) directly under `rounds_dir`."""
    if not rounds_dir.is_dir():
        raise InputError(f"{rounds_dir}: no such directory of round archives")
    found = sorted(p for p in rounds_dir.iterdir() if (p / "round.json").is_file())
    if not found:
        raise InputError(f"{rounds_dir}: contains no round archive (no */round.json)")
    return found


def mkdocs_config(config: SiteConfig, site_dir: Path, nav: Sequence[str]) -> dict[str, Any]:
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
                "nav_translations": {},
            }
        )
    return {
        "site_name": config.short_title["pt-BR"],
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
        "plugins": [
            "search",
            {
                "i18n": {
                    "docs_structure": "folder",
                    "fallback_to_default": False,
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


def _run_mkdocs(config_file: Path, epoch: int) -> None:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config
    from mkdocs.exceptions import MkDocsException

    quiet = logging.getLogger("mkdocs")
    level = quiet.level
    quiet.setLevel(logging.ERROR)
    try:
        with _source_date(epoch):
            build(load_config(str(config_file)))
    except (MkDocsException, OSError) as error:
        raise BuildError(f"{config_file}: MkDocs failed: {error}") from None
    finally:
        quiet.setLevel(level)


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


def _stage(site: SiteSource, config: SiteConfig, theme_dir: Path, staging: Path) -> Path:
    """Write the sources, run MkDocs and add the downloads in `staging`; returns the site."""
    work, built = staging / "src", staging / "site"
    for language in SITE_LANGUAGES:
        site.write_sources(work / "docs", language)
    shutil.copytree(theme_dir, work / "overrides")
    (work / "overrides" / "assets" / "rg" / "vega-bundle.js").write_text(
        vega_bundle(), encoding="utf-8"
    )
    config_file = work / "mkdocs.yml"
    config_file.write_text(
        yaml.safe_dump(mkdocs_config(config, built, site.nav), allow_unicode=True, sort_keys=False),
        encoding="utf-8",
    )
    _run_mkdocs(config_file, int(datetime.combine(site.source_date, time(), UTC).timestamp()))
    for home in (built / "index.html", built / "en" / "index.html"):
        if not home.is_file():
            raise BuildError(f"{home}: MkDocs produced no home page; nothing was published")
    _language_sitemaps(built)
    site.write_downloads(built)
    (built / SITE_MARKER).write_text("built by reportgen\n", encoding="utf-8")
    return built


def build_site(
    round_dirs: Sequence[Path],
    out_dir: Path,
    *,
    config_path: Path,
    theme_dir: Path,
    cache_dir: Path | None = None,
    progress: Progress | None = None,
) -> BuildReport:
    """Build the site from `round_dirs` into `out_dir`; nothing is written on failure.

    `theme_dir` is the MkDocs theme overrides folder (main.html, assets/); the page
    templates belong to the kind and ship with the package.
    """
    say = progress or (lambda _message: None)
    # MkDocs resolves a relative site_dir against the folder of mkdocs.yml, which lives in
    # the staging area: only absolute paths mean the same thing to both of us.
    out_dir = out_dir.absolute()
    config = load_site_config(config_path)
    if not (theme_dir / "main.html").is_file():
        raise InputError(f"{theme_dir}: not a theme overrides folder (no main.html)")
    _check_output(out_dir)
    rounds: list[Round] = []
    for round_dir in round_dirs:
        say(f"reading {round_dir}")
        rounds.append(read_round(round_dir, with_text=True))
    ids = [r.round_id for r in rounds]
    if len(set(ids)) != len(ids):
        raise InputError(f"two archives share a round id: {sorted(ids)}")
    svgs = SvgCache((cache_dir or default_cache_dir()) / "svg")
    site = estigmas_site(rounds, config, cache_dir=cache_dir, svgs=svgs, progress=say)
    out_dir.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out_dir.parent, prefix=f".{out_dir.name}-staging-"))
    try:
        say("writing pages and running MkDocs")
        built = _stage(site, config, theme_dir, staging)
        say("leak guard")
        check_site(built, [guard_material(r) for r in rounds])
        files = sum(1 for p in built.rglob("*") if p.is_file())
        _swap(built, out_dir, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    say(f"site written to {out_dir}")
    return BuildReport(out_dir, tuple(ids), files)
