"""The pages taken into shells (`take_pages`), converted over the machine's cores.

`take_pages` runs before MkDocs (reportgen/render/shell_pages.py tells the whole story).
Converting a model page costs about 4 ms: its Markdown, then the search plugin's entries
(Material's HTML parser). A site of a thousand models has two thousand such pages, which
do not depend on one another; from `POOL_MIN` pages on they are handed to worker processes
in chunks. Each worker makes its converters from the same settings as this process (the
MkDocs configuration's extension names and settings, which pickle), so a page converts
the same there as here, and the results come back in order (tests/test_shell_pages.py
builds a site both ways). `REPORTGEN_DRAW_WORKERS=1` keeps the work in this process.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportgen.render.drawing import pool_size
from reportgen.render.shell_pages import (
    SHELL_MARKDOWN,
    SHELL_MIN,
    SHELL_STEM,
    PageConverter,
    ShellGroup,
    ShellPage,
    search_entries,
)

# Below this many pages the workers' start (a fresh interpreter importing Markdown and the
# search plugin, about half a second each) costs more than it saves.
POOL_MIN = 200
CHUNK = 50  # pages handed to a worker at a time


@dataclass(frozen=True)
class Conversion:
    """One page to convert."""

    language: str
    relative: str  # its path under the language's sources, e.g. "models/x.md"
    source: str  # its Markdown
    url: str  # its address in the search index, e.g. "en/models/x.html"


Settings = Mapping[str, tuple[list[Any], dict[str, Any]]]  # language -> converter settings


def convert_all(
    converters: Mapping[str, PageConverter],
    pages: Mapping[str, frozenset[str]],
    conversions: Sequence[Conversion],
) -> list[ShellPage | None]:
    """Each conversion's page with its search entries, in order (None: through MkDocs);
    `pages` are each language's pages, which links may name."""
    workers = min(pool_size(), -(-len(conversions) // CHUNK))
    if len(conversions) < POOL_MIN or workers < 2:
        return [_convert(converters, pages, conversion) for conversion in conversions]
    settings = {
        language: (list(converter.extensions), dict(converter.extension_configs))
        for language, converter in converters.items()
    }
    chunks = [conversions[i : i + CHUNK] for i in range(0, len(conversions), CHUNK)]
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),  # no fork of a process with threads
        initializer=_start_worker,
        initargs=(settings, dict(pages)),
    ) as pool:
        return [page for chunk in pool.map(_convert_chunk, chunks) for page in chunk]


def _convert(
    converters: Mapping[str, PageConverter],
    pages: Mapping[str, frozenset[str]],
    conversion: Conversion,
) -> ShellPage | None:
    converter = converters[conversion.language]
    page = converter.convert(conversion.relative, conversion.source, pages[conversion.language])
    if page is None:
        return None
    return replace(page, search=tuple(search_entries(page, conversion.url)))


# A worker's converters and pages, set once when it starts.
_worker: dict[str, Any] = {}


def _start_worker(settings: Settings, pages: Mapping[str, frozenset[str]]) -> None:
    _worker["converters"] = {
        language: PageConverter(extensions, configs)
        for language, (extensions, configs) in settings.items()
    }
    _worker["pages"] = pages


def _convert_chunk(conversions: Sequence[Conversion]) -> list[ShellPage | None]:
    return [_convert(_worker["converters"], _worker["pages"], c) for c in conversions]


def take_pages(
    docs_dir: Path,
    languages: Sequence[str],
    nav_sources: Iterable[str],
    converter: Mapping[str, PageConverter],
    folders: Mapping[str, str],
) -> list[ShellGroup]:
    """Convert the eligible pages under `docs_dir/<language>/` and write a shell in each of
    their folders; returns the groups to fill after MkDocs (which `excluded_sources` keeps
    from building them). `folders` maps a language to its folder in the site ("", "en/").

    A page is taken only when every language has it and it is eligible in every language,
    so the sitemap's entry for it (one per page, with each language as an alternate) holds.
    """
    sources = {
        language: frozenset(
            p.relative_to(docs_dir / language).as_posix()
            for p in (docs_dir / language).rglob("*.md")
        )
        for language in languages
    }
    candidates = _candidates(languages, sources, set(nav_sources))
    conversions = [
        Conversion(
            language,
            f"{folder}/{stem}.md",
            (docs_dir / language / folder / f"{stem}.md").read_text(encoding="utf-8"),
            f"{folders[language]}{folder}/{stem}.html",
        )
        for folder, stems in sorted(candidates.items())
        if len(stems) >= SHELL_MIN
        for language in languages
        for stem in sorted(stems)
    ]
    converted: dict[tuple[str, str], dict[str, ShellPage]] = {}
    for conversion, page in zip(
        conversions, convert_all(converter, sources, conversions), strict=True
    ):
        folder = conversion.relative.rpartition("/")[0]
        taken = converted.setdefault((conversion.language, folder), {})
        if page is not None:
            taken[page.stem] = page
    groups = []
    for folder in sorted({folder for _, folder in converted}):
        ready = set.intersection(*(set(converted[(lang, folder)]) for lang in languages))
        if len(ready) < SHELL_MIN:
            continue
        for language in languages:
            pages = converted[(language, folder)]
            groups.append(ShellGroup(language, folder, tuple(pages[s] for s in sorted(ready))))
            shell = docs_dir / language / folder / f"{SHELL_STEM}.md"
            shell.write_text(SHELL_MARKDOWN, encoding="utf-8")
    return groups


def _candidates(
    languages: Sequence[str], sources: Mapping[str, frozenset[str]], in_nav: set[str]
) -> dict[str, set[str]]:
    """folder -> the stems of its pages outside the navigation, present in every language."""
    candidates: dict[str, set[str]] = {}
    for index, language in enumerate(languages):
        found: dict[str, set[str]] = {}
        for relative in sources[language]:
            folder, _, name = relative.rpartition("/")
            stem = name.removesuffix(".md")
            if folder and relative not in in_nav and stem != SHELL_STEM:
                found.setdefault(folder, set()).add(stem)
        candidates = (
            found
            if index == 0
            else {f: s & found.get(f, set()) for f, s in candidates.items() if f in found}
        )
    return candidates
