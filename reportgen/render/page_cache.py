"""Shell pages converted by the last build into the same folder, kept for the next build.

Converting a page taken into a shell (reportgen/render/shell_pages.py) costs about 5 ms:
its Markdown, then Material's search entries. A continuous round of a thousand models has
two thousand such pages, and adding one model leaves the Markdown of nearly all of them
as it was: the parts of a model page that move with the other models (its rank among
them, its paired comparisons, whose adjusted p-values count every pair) are deferred
blocks (reportgen.render.deferred), outside the Markdown and put back into the finished
page. So a page is converted again only when what its conversion reads has changed.

A kept page is found under the SHA-256 of length-prefixed parts: the converter's
settings (the MkDocs configuration's Markdown extensions and their settings), the
versions of the packages that convert (Python-Markdown, MkDocs, Material and PyMdown
Extensions), the source of this module and of the two that convert, then the page's
language, path, address and Markdown. One JSON file per output folder,
`<cache>/pages/<folder's SHA-256>.json`, holds the pages of its last build and no
others, so it never grows past one site. A file that cannot be read back, or one of
another format, is ignored: the pages are converted, and the file is written again.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib.metadata
import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from mkdocs.structure.toc import AnchorLink, TableOfContents, get_toc

from reportgen.atomic import write_atomic
from reportgen.digest import parts_digest
from reportgen.render.shell_pages import ShellPage

FORMAT = 1  # of the file; another is ignored
_PACKAGES = ("markdown", "mkdocs", "mkdocs-material", "pymdown-extensions")
_CODE = ("page_cache.py", "shell_pages.py", "shell_convert.py")


@cache
def _stamp() -> str:
    """What every key holds besides the page: the converting packages and this code."""
    parts = []
    for package in _PACKAGES:
        try:
            parts.append(f"{package}=={importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            parts.append(f"{package} absent")
    here = Path(__file__).resolve().parent
    parts += [hashlib.sha256((here / name).read_bytes()).hexdigest() for name in _CODE]
    return "\n".join(parts)


def page_key(settings_key: str, language: str, relative: str, url: str, source: str) -> str:
    """The key of a page's conversion (hex SHA-256 of the length-prefixed parts)."""
    return parts_digest((_stamp(), settings_key, language, relative, url, source))


@dataclass
class KeptPages:
    """The pages kept by the last build into one folder (`found`), and those this build
    converted or found (`used`), which `save` keeps for the next."""

    path: Path | None  # None: nothing is read or kept
    found: dict[str, ShellPage | None] = field(default_factory=dict)
    used: dict[str, ShellPage | None] = field(default_factory=dict)

    @classmethod
    def load(cls, directory: Path | None, out_dir: Path) -> KeptPages:
        """The pages kept for `out_dir` under `directory` (none when it is None)."""
        if directory is None:
            return cls(None)
        name = hashlib.sha256(str(out_dir.resolve()).encode("utf-8", "surrogatepass"))
        path = directory / "pages" / f"{name.hexdigest()}.json"
        try:
            data = json.loads(path.read_bytes())
            found = _pages(data) if data.get("format") == FORMAT else {}
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            found = {}  # absent or unreadable: every page is converted
        return cls(path, found)

    def get(self, key: str) -> tuple[bool, ShellPage | None]:
        """Whether the page of `key` was kept, and its conversion (None: not taken)."""
        if key not in self.found:
            return False, None
        page = self.found[key]
        self.used[key] = page
        return True, page

    def keep(self, pairs: Iterable[tuple[str, ShellPage | None]]) -> None:
        self.used.update(pairs)

    def save(self) -> None:
        """Write the pages this build used, for the next build (an unwritable cache only
        costs the conversions)."""
        if self.path is None:
            return
        data = {
            "format": FORMAT,
            "pages": {key: _record(page) for key, page in self.used.items()},
        }
        with contextlib.suppress(OSError):
            self.path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(self.path, json.dumps(data, ensure_ascii=False, separators=(",", ":")))


def _record(page: ShellPage | None) -> dict[str, Any] | None:
    if page is None:
        return None
    return {
        "stem": page.stem,
        "title": page.title,
        "content": page.content,
        "toc": [_token(anchor) for anchor in page.toc],
        "search": list(page.search),
        "links": sorted(page.links),
    }


def _token(anchor: AnchorLink) -> dict[str, Any]:
    """An anchor as the toc extension's token, which MkDocs' `get_toc` reads."""
    children = [_token(child) for child in anchor.children]
    return {"level": anchor.level, "id": anchor.id, "name": anchor.title, "children": children}


def _pages(data: dict[str, Any]) -> dict[str, ShellPage | None]:
    pages: dict[str, ShellPage | None] = {}
    for key, record in data["pages"].items():
        if record is None:
            pages[key] = None
            continue
        toc: TableOfContents = get_toc(record["toc"])
        search = tuple(dict(entry) for entry in record["search"])
        links = frozenset(str(link) for link in record["links"])
        fields = (record["stem"], record["title"], record["content"])
        if not all(isinstance(value, str) for value in fields):
            raise TypeError("a kept page's stem, title and content are text")
        pages[key] = ShellPage(*fields, toc=toc, search=search, links=links)
    return pages
