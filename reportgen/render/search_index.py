"""One search index per site language.

mkdocs-static-i18n builds every language in one MkDocs run and hands Material's search
plugin the pages of all of them, so MkDocs writes a single `search/search_index.json`
where an English query finds Portuguese pages first. Material's search loads
`search/search_index.json` under the address the page names as its base, and opens each
result under that same base. After the build, this module splits the index: the default
language keeps `search/search_index.json` at the root; every other language gets
`<language>/search/search_index.json`, with its locations relative to its folder, and
the theme names that folder as the base of its pages (`extra.rg_search_base`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from reportgen.errors import ReportgenError

INDEX = Path("search") / "search_index.json"
# lunr.js language of each site language (lunr knows Portuguese, not its regional variants).
LUNR_LANGUAGE: Mapping[str, str] = {"pt-BR": "pt", "en": "en"}


class SearchIndexError(ReportgenError):
    """MkDocs wrote no search index, or one this module cannot read."""


def search_folder(language: str, languages: Sequence[str]) -> str:
    """The folder of `language`'s pages and index: "" for the default (first) language."""
    return "" if language == languages[0] else f"{language}/"


def _language_of(location: str, languages: Sequence[str]) -> str:
    for language in languages[1:]:
        if location.startswith(search_folder(language, languages)):
            return language
    return languages[0]


def split_search_index(site_dir: Path, languages: Sequence[str]) -> dict[str, Path]:
    """Rewrite `site_dir`'s combined index as one index per language; returns their paths."""
    combined = site_dir / INDEX
    try:
        data: dict[str, Any] = json.loads(combined.read_text(encoding="utf-8"))
        entries: list[dict[str, Any]] = list(data["docs"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise SearchIndexError(f"{combined}: no readable MkDocs search index ({error})") from None
    written: dict[str, Path] = {}
    for language in languages:
        folder = search_folder(language, languages)
        own = [
            dict(entry, location=entry["location"][len(folder) :])
            for entry in entries
            if _language_of(entry["location"], languages) == language
        ]
        config = dict(data.get("config", {}), lang=[LUNR_LANGUAGE.get(language, "en")])
        target = site_dir / folder / INDEX
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            json.dumps({"config": config, "docs": own}, ensure_ascii=False, separators=(",", ":")),
            encoding="utf-8",
        )
        written[language] = target
    return written
