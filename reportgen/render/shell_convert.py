"""The pages taken into shells (`PageTaker`), converted over the machine's cores.

The pages are taken before MkDocs (reportgen/render/shell_pages.py tells the whole story).
Converting a model page costs about 5 ms: its Markdown, then the search plugin's entries
(Material's HTML parser). A site of a thousand models has two thousand such pages, which
do not depend on one another. When the build starts worker processes ahead (a round of
many models whose pages the last build did not leave converted), each page goes to them
as it is written: the page writer tells the taker (`reportgen.render.pages.listening`),
and the workers convert a chunk while this process writes the next pages; the taker
starts them itself once a language has told `POOL_MIN` pages that are not kept.
Otherwise a language's pages are handed out once it is written (`PageTaker.add_language`),
to workers when it has `POOL_MIN` pages or more to convert. A page's
links are checked once its language is whole: a page converted before then takes every
page it names to exist, and is left to MkDocs if one does not. `add_language` reads each
page back, and converts again those written without being told, or changed since.
`PageTaker.groups` waits for the workers. Each worker makes its converters from the same
settings as this process (the MkDocs configuration's extension names and settings, which
pickle), so a page converts the same there as here, and the results come back in order
(tests/test_shell_pages.py builds a site both ways). `REPORTGEN_DRAW_WORKERS=1` keeps
the work in this process.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import pickle
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from reportgen.render.page_cache import KeptPages, page_key
from reportgen.render.shell_pages import (
    SHELL_MARKDOWN,
    SHELL_MIN,
    SHELL_STEM,
    PageConverter,
    ShellGroup,
    ShellPage,
    search_entries,
)
from reportgen.workers import chunked, pool_size, workers_for

# Below this many pages in a language the workers' start (a fresh interpreter importing
# Markdown and the search plugin, about half a second each) costs more than it saves.
POOL_MIN = 100
CHUNK = 50  # pages handed to a worker at a time


@dataclass(frozen=True)
class Conversion:
    """One page to convert."""

    language: str
    relative: str  # its path under the language's sources, e.g. "models/x.md"
    source: str  # its Markdown
    url: str  # its address in the search index, e.g. "en/models/x.html"
    key: str  # its conversion's key among the pages kept (reportgen/render/page_cache.py)


Settings = Mapping[str, tuple[list[Any], dict[str, Any]]]  # language -> converter settings


class PageTaker:
    """Takes the eligible pages of each language, language by language, then groups them.

    `page_written` for each page as it is written (`reportgen.render.pages.listening`);
    `add_language` once a language's sources are written; `groups` once every language
    is added (it waits for the workers), before MkDocs runs; `close` in any case.
    """

    def __init__(
        self,
        docs_dir: Path,
        nav_sources: Iterable[str],
        converters: Mapping[str, PageConverter],
        folders: Mapping[str, str],  # language -> its folder in the site ("", "en/")
        pool: ProcessPoolExecutor | None = None,  # workers started ahead (`start_workers`)
        kept: KeptPages | None = None,  # pages converted by the last build, for this one
    ) -> None:
        self.docs_dir = docs_dir
        self.in_nav = set(nav_sources)
        self.converters = converters
        self.folders = folders
        self.sources: dict[str, frozenset[str]] = {}  # language -> its pages
        self.conversions: list[Conversion] = []  # handed out, in the order of `_results`
        self._kept = kept or KeptPages(None)
        self._results: list[Future[list[ShellPage | None]] | list[ShellPage | None]] = []
        self._waiting: list[Conversion] = []  # pages told, not handed out yet
        self._told: dict[tuple[str, str], str] = {}  # (language, page) -> its text, told
        self._unkept = 0  # pages of this language told that no build left converted
        self._pool = pool
        self._settings: Settings = {
            language: (list(converter.extensions), dict(converter.extension_configs))
            for language, converter in converters.items()
        }
        # What a worker compares to know its converters (the settings may hold callables,
        # which compare by identity, and are new objects in every task).
        self._settings_key = hashlib.sha256(pickle.dumps(self._settings)).hexdigest()

    def page_written(self, path: Path, text: str) -> None:
        """A page just written: with workers started ahead, it is converted while the next
        pages are written (a chunk at a time), not once its language is whole."""
        language, _, relative = path.relative_to(self.docs_dir).as_posix().partition("/")
        if language not in self.converters or not self._may_take(relative):
            return
        if "\r" in text:  # as reading the file back would see it (universal newlines)
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        self._told[(language, relative)] = text
        conversion = self._conversion(language, relative, text)
        self._waiting.append(conversion)
        if conversion.key not in self._kept.found:
            self._unkept += 1
        if self._pool is None and self._unkept >= POOL_MIN:
            # Workers not started ahead (a small round, or kept pages that seemed to cover
            # the round), and a language with many pages to convert: started now, they
            # take what is written next.
            workers = pool_size()
            if workers >= 2:
                self._pool = start_workers(workers)
        if self._pool is not None and len(self._waiting) >= CHUNK:
            self._hand_out(self._waiting)
            self._waiting = []

    def add_language(self, language: str) -> None:
        """Convert the pages of `language`, now written, that may be taken (in a folder,
        outside the navigation) and were not told as written, or hold another text than
        the one told (each is read back: a few milliseconds); those missing from another
        language are dropped in `groups`."""
        pages_dir = self.docs_dir / language
        on_disk = {p.relative_to(pages_dir).as_posix(): p for p in pages_dir.rglob("*.md")}
        pages = frozenset(on_disk)
        self.sources[language] = pages
        found = _candidates([language], {language: pages}, self.in_nav)
        unseen: list[Conversion] = []
        for folder, stems in sorted(found.items()):
            for stem in sorted(stems) if len(stems) >= SHELL_MIN else ():
                relative = f"{folder}/{stem}.md"
                source = on_disk[relative].read_text(encoding="utf-8")
                if self._told.get((language, relative)) != source:
                    unseen.append(self._conversion(language, relative, source))
        self._hand_out(self._waiting + unseen)
        self._waiting = []
        self._unkept = 0

    def _conversion(self, language: str, relative: str, source: str) -> Conversion:
        url = f"{self.folders[language]}{relative.removesuffix('.md')}.html"
        key = page_key(self._settings_key, language, relative, url, source)
        return Conversion(language, relative, source, url, key)

    def _may_take(self, relative: str) -> bool:
        folder, _, name = relative.rpartition("/")
        return bool(folder) and name.endswith(".md") and relative not in self.in_nav

    def _hand_out(self, conversions: Sequence[Conversion]) -> None:
        """Take the pages of `conversions` that the last build converted from the same
        Markdown (`kept`), and convert the others in chunks: here, or by the workers
        (started here by a language of `POOL_MIN` pages or more, unless started ahead)."""
        unconverted: list[Conversion] = []
        for conversion in conversions:
            found, page = self._kept.get(conversion.key)
            if found:
                self.conversions.append(conversion)
                self._results.append([page])
            else:
                unconverted.append(conversion)
        workers = workers_for(len(unconverted), CHUNK)
        if self._pool is None and len(unconverted) >= POOL_MIN and workers >= 2:
            self._pool = start_workers(workers)
        for chunk in chunked(unconverted, CHUNK):
            self.conversions += chunk
            if self._pool is None:
                self._results.append(_convert_here(chunk, self.converters))
            else:
                task = (chunk, self._settings, self._settings_key)
                self._results.append(self._pool.submit(_convert_there, *task))

    def groups(self) -> list[ShellGroup]:
        """The pages taken, by folder and language (a page only when every language has it
        and it is eligible in every language, so the sitemap's entry for it, one per page
        with each language as an alternate, holds); writes a shell in each folder."""
        results = [
            page
            for result in self._results
            for page in (result.result() if isinstance(result, Future) else result)
        ]
        self.close()
        self._kept.keep((c.key, page) for c, page in zip(self.conversions, results, strict=True))
        self._kept.save()
        every = _candidates(list(self.sources), self.sources, self.in_nav)
        latest: dict[tuple[str, str], ShellPage | None] = {}  # a page converted again wins
        for conversion, page in zip(self.conversions, results, strict=True):
            language_pages = self.sources[conversion.language]
            links_hold = page is not None and page.links <= language_pages  # each one exists
            latest[(conversion.language, conversion.relative)] = page if links_hold else None
        converted: dict[tuple[str, str], dict[str, ShellPage]] = {}
        for (language, relative), page in latest.items():
            folder = relative.rpartition("/")[0]
            taken = converted.setdefault((language, folder), {})
            if page is not None and page.stem in every.get(folder, ()):
                taken[page.stem] = page
        groups = []
        for folder in sorted({folder for _, folder in converted}):
            kept = [converted.get((language, folder), {}) for language in self.sources]
            ready = set.intersection(*(set(pages) for pages in kept))
            if len(ready) < SHELL_MIN:
                continue
            for language, pages in zip(self.sources, kept, strict=True):
                groups.append(ShellGroup(language, folder, tuple(pages[s] for s in sorted(ready))))
                shell = self.docs_dir / language / folder / f"{SHELL_STEM}.md"
                shell.write_text(SHELL_MARKDOWN, encoding="utf-8")
        return groups

    def close(self) -> None:
        """Stop the workers (a build that failed meanwhile does not wait for them)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None


def _convert(converters: Mapping[str, PageConverter], conversion: Conversion) -> ShellPage | None:
    converter = converters[conversion.language]
    page = converter.convert(conversion.relative, conversion.source)
    if page is None:
        return None
    return replace(page, search=tuple(search_entries(page, conversion.url)))


def start_workers(workers: int) -> ProcessPoolExecutor:
    """`workers` worker processes, started now: each imports Markdown and the search plugin
    (about a second) while the build goes on; `PageTaker` hands them its pages."""
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),  # no fork of a process with threads
    )
    for _ in range(workers):  # the pool starts a process for each task no idle one takes
        pool.submit(_import_converters)
    return pool


# A worker's converters, made from the first settings it is given.
_worker: dict[str, Any] = {}


def _import_converters() -> None:
    import markdown  # noqa: F401
    from material.plugins.search import plugin  # noqa: F401


def _convert_here(
    conversions: Sequence[Conversion], converters: Mapping[str, PageConverter]
) -> list[ShellPage | None]:
    """The pages `conversions`, converted in this process."""
    return [_convert(converters, c) for c in conversions]


def _convert_there(
    conversions: Sequence[Conversion], settings: Settings, key: str
) -> list[ShellPage | None]:
    """The pages `conversions`, converted in a worker with the converters of `settings`
    (the MkDocs configuration's Markdown extensions and their settings; `key` names them)."""
    if _worker.get("key") != key:
        _worker["converters"] = {
            language: PageConverter(extensions, configs)
            for language, (extensions, configs) in settings.items()
        }
        _worker["key"] = key
    return _convert_here(conversions, _worker["converters"])


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
