"""Pages filled into a shell: the many pages of one folder, made without MkDocs' page loop.

A site of a thousand models has two thousand model pages. They sit outside the navigation
in one folder, so the theme prints the same frame around each of them (header, navigation,
footer) with only a few differences: the page's file name in its links, its title, and
the anchor of its first heading. MkDocs spent about 25 ms on each (Markdown, the Material
template, the search plugin's HTML parser, the language plugin's second pass); most of it
rendered that same frame again.

Here MkDocs builds one shell page per such folder and language, whose title and file name
are tokens, and the build fills it for every page of the folder:

1. `PageTaker` (reportgen/render/shell_convert.py), before MkDocs: each eligible page's
   Markdown is converted with the Markdown extensions and settings of the MkDocs
   configuration (over the cores when there are many), with its search entries, and
   removed from the sources; one shell page takes the group's place.
2. `fill_shells`, after MkDocs: each page is the shell's frame around its own content,
   with its file name, title and first anchor put in place of the tokens; the sitemap
   and the search index list the pages in place of the shell.

A page is eligible only where the frame cannot differ from the one MkDocs would print
(`_eligible`): outside the navigation, in a folder, with a title alone in its front
matter, a first-level heading, and no link MkDocs would rewrite. Every other page goes
through MkDocs as before. tests/test_shell_pages.py builds sites both ways and compares
them byte for byte.
"""

from __future__ import annotations

import json
import posixpath
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import markdown
from markdown.treeprocessors import Treeprocessor
from markupsafe import Markup, escape
from mkdocs.structure.toc import TableOfContents, get_toc
from mkdocs.utils.meta import get_data

from reportgen.errors import ReportgenError
from reportgen.render.deferred import restore

SHELL_STEM = "rg-shell-page"  # the shell's file name: one that no slug of ours takes
TITLE_TOKEN = "RgShellPageTitle"
CONTENT_TOKEN = "RgShellPageContent"
SHELL_MARKDOWN = f"---\ntitle: {TITLE_TOKEN}\n---\n# {TITLE_TOKEN}\n\n{CONTENT_TOKEN}\n"
# A shell pays for itself from two pages on (MkDocs renders it once per language).
SHELL_MIN = 2
_STEM = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")  # file names MkDocs keeps as they are
_PLAIN = re.compile(r"[A-Za-z0-9._/-]+")  # paths MkDocs neither quotes nor unquotes
_SEARCH_ATTRIBUTE = re.compile(r"\s?data-search-\w+=\"[^\"]+\"")  # as Material strips them


class ShellPageError(ReportgenError):
    """A shell page MkDocs built is not the one this module wrote (a theme change)."""


@dataclass(frozen=True)
class ShellPage:
    """One page of a group, converted: what its frame and the search index need."""

    stem: str  # its file name without .md
    title: str  # the front matter's title, as MkDocs reads it
    content: str  # its HTML (deferred blocks still placeholders, as MkDocs sees them)
    toc: TableOfContents
    search: tuple[dict[str, Any], ...] = ()  # its search entries, as Material makes them
    # The pages its links name (under its language's sources), which must exist for the
    # links to read as MkDocs would write them (checked once the language is whole).
    links: frozenset[str] = frozenset()


@dataclass(frozen=True)
class ShellGroup:
    """The pages of one folder in one language, filled into that folder's shell."""

    language: str
    folder: str  # under the language's sources, e.g. "models"
    pages: tuple[ShellPage, ...]


class _LinkCheck(Treeprocessor):
    """Links and images as MkDocs' own tree processor leaves them: a relative link to a
    page (`.md`) that exists becomes a link to its HTML; any other link MkDocs would
    change (to a missing page, to a folder, a path it would tidy or quote) is noted, and
    the page then goes through MkDocs."""

    folder = ""  # the converted page's folder, under the language's sources
    # Every page of the language, e.g. "models/x.md"; None: not known yet, so every page a
    # link names is taken to exist, and noted in `named` for the caller to check.
    pages: frozenset[str] | None = None
    named: set[str]
    rewritten = False

    def run(self, root: Any) -> None:
        for element in root.iter():
            key = {"a": "href", "img": "src"}.get(element.tag)
            url = element.get(key) if key else None
            if key is None or url is None:
                continue
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith(("/", "\\")) or not parts.path:
                continue  # left as it is (external, absolute, or an anchor on the page)
            path = parts.path
            tidy = posixpath.normpath(path) == path and _PLAIN.fullmatch(path) is not None
            target = posixpath.normpath(posixpath.join(self.folder, path))
            if tidy and path.endswith(".md") and (self.pages is None or target in self.pages):
                self.named.add(target)
                html_path = path.removesuffix(".md") + ".html"
                element.set(key, urlunsplit(("", "", html_path, parts.query, parts.fragment)))
            elif not tidy or PurePosixPath(path).suffix in ("", ".md"):
                self.rewritten = True


@dataclass
class PageConverter:
    """Markdown to HTML as MkDocs converts a page, with one converter for many pages."""

    extensions: Sequence[Any]
    extension_configs: Mapping[str, Any]
    _md: markdown.Markdown = field(init=False, repr=False)
    _links: _LinkCheck = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self._md = markdown.Markdown(
            extensions=list(self.extensions), extension_configs=dict(self.extension_configs)
        )
        self._links = _LinkCheck(self._md)
        self._md.treeprocessors.register(self._links, "rg_link_check", 0)

    def convert(
        self, relative: str, source: str, pages: frozenset[str] | None = None
    ) -> ShellPage | None:
        """The page at `relative` (under its language's sources) converted, or None when it
        must go through MkDocs; `pages` are the language's pages, which links may name
        (None: every page named is taken to exist, and listed in the result's `links`)."""
        folder, _, name = relative.rpartition("/")
        stem = name.removesuffix(".md")
        body, meta = get_data(source)
        title = meta.get("title")
        if set(meta) != {"title"} or not isinstance(title, str) or not _STEM.fullmatch(stem):
            return None
        # mkdocs-static-i18n rejoins the lines of every page before MkDocs converts it.
        body = "\n".join(body.splitlines())
        self._md.reset()
        self._links.rewritten = False
        self._links.folder, self._links.pages, self._links.named = folder, pages, set()
        content = self._md.convert(body)
        toc = get_toc(getattr(self._md, "toc_tokens", []))
        if self._links.rewritten or "<h1" not in content or not list(toc):
            return None
        content = _SEARCH_ATTRIBUTE.sub("", content)
        return ShellPage(stem, title, content, toc, links=frozenset(self._links.named))


def excluded_sources(docs_dir: Path, groups: Sequence[ShellGroup]) -> list[str]:
    """The `exclude_docs` lines (gitignore patterns) that keep MkDocs from building the
    pages of `groups`. Their sources stay, excluded: MkDocs still knows them, so a link
    from another page to one of them becomes a link to its HTML as before."""
    lines: list[str] = []
    for group in groups:
        folder = f"/{group.language}/{group.folder}"
        taken = {page.stem for page in group.pages}
        kept = sorted(p.stem for p in (docs_dir / group.language / group.folder).glob("*.md"))
        lines.append(f"{folder}/*.md")
        lines += [f"!{folder}/{stem}.md" for stem in kept if stem not in taken]
    return lines


_OG_TITLE = 'property="og:title" content="'  # Material prints it `striptags | e` there


@dataclass(frozen=True)
class _Frame:
    """The shell's page cut at its content and at each token: the literal pieces, and
    between two pieces what goes there ("content", "stem", "anchor", "title", "og")."""

    pieces: tuple[str, ...]
    gaps: tuple[str, ...]

    def page(self, page: ShellPage) -> str:
        first = next(iter(page.toc))
        values = {
            "content": page.content,
            "stem": f"{page.stem}.html",
            "anchor": f'href="{first.url}"',
            "title": page.title,
            "og": str(escape(Markup(page.title).striptags())),
        }
        parts = [self.pieces[0]]
        for gap, piece in zip(self.gaps, self.pieces[1:], strict=True):
            parts += [values[gap], piece]
        return restore("".join(parts))


def _frame(shell_html: str, shell: ShellPage, where: Path) -> _Frame:
    """`shell_html` cut once, before any page's text is in it: a title or a content that
    happens to hold a token cannot be taken for one. The content is matched first, so the
    shell's own heading inside it is not cut."""
    tokens = {
        shell.content: "content",
        f"{SHELL_STEM}.html": "stem",
        f'href="#{next(iter(shell.toc)).id}"': "anchor",
        TITLE_TOKEN: "title",
    }
    pattern = re.compile("|".join(re.escape(token) for token in tokens))
    pieces: list[str] = []
    gaps: list[str] = []
    start = 0
    for match in pattern.finditer(shell_html):
        piece = shell_html[start : match.start()]
        kind = tokens[match.group(0)]
        gaps.append("og" if kind == "title" and piece.endswith(_OG_TITLE) else kind)
        pieces.append(piece)
        start = match.end()
    pieces.append(shell_html[start:])
    if gaps.count("content") != 1:
        raise ShellPageError(f"{where}: the shell's content is not once in the page MkDocs built")
    return _Frame(tuple(pieces), tuple(gaps))


def fill_shells(
    site_dir: Path,
    groups: Sequence[ShellGroup],
    folders: Mapping[str, str],
    converter: Mapping[str, PageConverter],
) -> list[Path]:
    """Write every page of `groups` into `site_dir` from its shell, and list the pages in
    the sitemap and the search index in place of the shells. `folders` maps a language to
    its folder in the site ("" or "en/")."""
    written: list[Path] = []
    index_entries: dict[str, list[dict[str, Any]]] = {}  # shell location -> entries
    for group in groups:
        shell = converter[group.language].convert(f"{SHELL_STEM}.md", SHELL_MARKDOWN)
        if shell is None:  # SHELL_MARKDOWN is eligible whatever the Markdown settings
            raise ShellPageError(f"{SHELL_STEM}: the shell page cannot be converted")
        where = site_dir / folders[group.language] / group.folder
        shell_file = where / f"{SHELL_STEM}.html"
        frame = _frame(shell_file.read_text(encoding="utf-8"), shell, shell_file)
        for page in group.pages:
            target = where / f"{page.stem}.html"
            target.write_text(frame.page(page), encoding="utf-8")
            written.append(target)
        shell_file.unlink()
        location = f"{folders[group.language]}{group.folder}/{SHELL_STEM}.html"
        index_entries[location] = [entry for page in group.pages for entry in page.search]
    _replace_in_index(site_dir / "search" / "search_index.json", index_entries)
    _expand_sitemap(site_dir / "sitemap.xml", groups)
    return written


def search_entries(page: ShellPage, url: str) -> list[dict[str, Any]]:
    """The page's entries as Material's search plugin makes them from its content."""
    from material.plugins.search.plugin import SearchIndex

    index = SearchIndex()
    index.add_entry_from_context(_IndexedPage(page, url))
    return list(index.entries)


@dataclass(frozen=True)
class _IndexedPage:
    """What Material's indexer reads of a page."""

    shell_page: ShellPage
    url: str

    @property
    def meta(self) -> dict[str, Any]:
        return {"title": self.shell_page.title}

    @property
    def title(self) -> str:
        return self.shell_page.title

    @property
    def content(self) -> str:
        return self.shell_page.content

    @property
    def toc(self) -> TableOfContents:
        return self.shell_page.toc


def _replace_in_index(index_file: Path, entries: Mapping[str, list[dict[str, Any]]]) -> None:
    """Each shell's entries in the combined index replaced, where they stood, by its pages'."""
    if not entries or not index_file.is_file():
        return
    data = json.loads(index_file.read_text(encoding="utf-8"))
    docs: list[dict[str, Any]] = []
    placed: set[str] = set()
    for entry in data["docs"]:
        page = str(entry.get("location", "")).partition("#")[0]
        if page not in entries:
            docs.append(entry)
        elif page not in placed:
            docs += entries[page]
            placed.add(page)
    data["docs"] = docs
    index_file.write_text(json.dumps(data, separators=(",", ":"), default=str), encoding="utf-8")


_LOC = re.compile(r"<loc>([^<]*)</loc>")
_URL_BLOCK = re.compile(r"[ \t]*<url>\n(?:(?!</url>).)*?</url>\n", re.S)


def _is_shell_of(location: str, folder: str) -> bool:
    """Whether a sitemap `location` (the site's address, or "None" in a draft without
    one, then the page's path) is the shell of `folder`."""
    suffix = f"{folder}/{SHELL_STEM}.html"
    base = location.removesuffix(suffix)
    return location.endswith(suffix) and (base in ("", "None") or base.endswith("/"))


def _expand_sitemap(sitemap: Path, groups: Sequence[ShellGroup]) -> None:
    """Each shell's entry in the sitemap replaced by one entry per page of its folder."""
    if not sitemap.is_file():
        return
    stems: dict[str, list[str]] = {}
    for group in groups:
        stems.setdefault(group.folder, [p.stem for p in group.pages])

    # The longest folder first: "a/models" is not taken for "models", whose path it ends in.
    by_length = sorted(stems, key=len, reverse=True)

    def expand(match: re.Match[str]) -> str:
        block = match.group(0)
        location = _LOC.search(block)
        for folder in by_length:
            if location and _is_shell_of(location.group(1), folder):
                shell = f"{SHELL_STEM}.html"
                return "".join(block.replace(shell, f"{s}.html") for s in stems[folder])
        return block

    sitemap.write_text(_URL_BLOCK.sub(expand, sitemap.read_text(encoding="utf-8")), "utf-8")
