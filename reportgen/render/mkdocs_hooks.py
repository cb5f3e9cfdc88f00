"""MkDocs hooks of the generated mkdocs.yml (`hooks:`), loaded by MkDocs from this file's path.

MkDocs loads this file as a module of its own, so it holds no state: the deferred blocks
live in `reportgen.render.deferred`, filled by the page writers of the same build.

404 pages: mkdocs-static-i18n builds each language in turn into the same site folder, so
the theme's 404.html of the last language overwrote the first one, with the language
links of whichever page was built last. Here each language's 404 page goes to its own
folder (`404.html` at the root, `en/404.html`), its language links lead to the other
404 pages, and its text comes from the catalogue. Links are absolute (from site_url's
path), since a 404 page is served at whatever address was missing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from reportgen.i18n import DEFAULT_LANGUAGE, SITE_LANGUAGES, Translator
from reportgen.render.deferred import restore

NOT_FOUND = "404.html"


def language_root(config: Any, language: str) -> str:
    """The absolute path of a language's folder on the server ("/" or "/en/")."""
    base = urlsplit(str(config.get("site_url") or "")).path.rstrip("/")
    return f"{base}/" if language == DEFAULT_LANGUAGE else f"{base}/{language}/"


def _building_language(config: Any) -> str:
    language = str(config.theme["language"])
    return language if language in SITE_LANGUAGES else DEFAULT_LANGUAGE


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Put the deferred blocks (long tables, charts) back into the finished page."""
    return restore(output)


def on_template_context(context: Any, template_name: str, config: Any) -> Any:
    """The 404 page's language links and text, in the language being built."""
    if template_name != NOT_FOUND:
        return context
    language = _building_language(config)
    # mkdocs-static-i18n resets extra.alternate before every page, so this lasts for
    # this template only. It sets it both as an item and as an attribute (which then
    # hides the item), so both are set here.
    links = [
        {**alternate, "link": language_root(config, alternate["lang"]) + NOT_FOUND}
        for alternate in config.extra.get("alternate", [])
    ]
    config.extra["alternate"] = links
    config.extra.alternate = links
    tr = Translator(language)
    context["rg_not_found"] = {
        "title": tr("notfound.title"),
        "body": tr("notfound.body"),
        "home": language_root(config, language) + "index.html",
        "home_label": tr("notfound.home"),
    }
    return context


def on_post_template(output: str, template_name: str, config: Any) -> str:
    """Write a non-default language's 404 page into its own folder, not over the root one."""
    language = _building_language(config)
    if template_name != NOT_FOUND or language == DEFAULT_LANGUAGE:
        return output
    target = Path(config["site_dir"]) / language / NOT_FOUND
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(output, encoding="utf-8")
    return ""  # MkDocs skips a template whose output is empty
