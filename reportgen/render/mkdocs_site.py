"""The MkDocs side of a build: the generated mkdocs.yml, MkDocs loaded and run, and the
sitemaps it leaves.

`reportgen/build.py` writes the sources and calls these; the theme's per-language values
(`theme_extra`), the draft notice and the Open Graph locale are set here, and MkDocs'
failures become a `BuildError` naming the generated configuration.
"""

from __future__ import annotations

import contextlib
import gzip
import logging
import os
import shutil
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.errors import ReportgenError
from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.render import mkdocs_hooks
from reportgen.render.search_index import search_folder
from reportgen.render.shell_pages import PageConverter
from reportgen.render.site_source import NavEntry
from reportgen.render.siteconfig import SiteConfig

OPEN_GRAPH_LOCALE = {"pt-BR": "pt_BR", "en": "en_US"}  # the English pages spell American


class BuildError(ReportgenError):
    """MkDocs could not build the generated sources."""


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
def source_date_epoch(epoch: int) -> Iterator[None]:
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
def mkdocs_errors(config_file: Path) -> Iterator[None]:
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


def load_mkdocs_config(config_file: Path) -> Any:
    from mkdocs.config import load_config

    with mkdocs_errors(config_file):
        return load_config(str(config_file))


def run_mkdocs(config_file: Path, loaded: Any, epoch: int) -> None:
    from mkdocs.commands.build import build

    with mkdocs_errors(config_file), source_date_epoch(epoch):
        build(loaded)


def page_converters(loaded: Any) -> dict[str, PageConverter]:
    """One Markdown converter per language, set up as MkDocs sets up its own."""
    return {
        language: PageConverter(loaded["markdown_extensions"], loaded["mdx_configs"] or {})
        for language in SITE_LANGUAGES
    }


def addressless_sitemap(built: Path) -> None:
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


def language_sitemaps(built: Path) -> None:
    # Material's language selector fetches sitemap.xml beside the page it links to (for
    # every language) to keep the reader on the same page; mkdocs-static-i18n writes only
    # the root one, which already lists every page, so it is copied beside every page.
    folders = {page.parent for page in built.rglob("*.html")} - {built}
    for folder in sorted(folders):
        for name in ("sitemap.xml", "sitemap.xml.gz"):
            if (built / name).is_file():
                shutil.copyfile(built / name, folder / name)


def nav_sources(nav: Sequence[NavEntry]) -> list[str]:
    """Every Markdown file the navigation lists (a section's pages too)."""
    sources: list[str] = []
    for entry in nav:
        if isinstance(entry, str):
            sources.append(entry)
        else:
            sources += [page for pages in entry.values() for page in pages]
    return sources
