"""Big HTML blocks kept out of Markdown and the search index, put back into the finished pages.

Python-Markdown's raw-HTML pass, MkDocs' anchor scan and the search plugin's indexer each
parse every raw HTML block of every page: on pages of long tables and charts with inline
data that was most of MkDocs' time, and it put every table cell into the search index and
its snippets. While a build collects (`collecting()`), a page writer hands such a block to
`defer`, which keeps it and returns a one-line placeholder; the MkDocs hook
(`reportgen/render/mkdocs_hooks.py`) puts each block back into the page's finished HTML
(`restore`), so the published page is the same, byte for byte, and its index leaves the
block out. Outside a build `defer` returns the block itself.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
from collections.abc import Iterator, Mapping
from contextvars import ContextVar

from markupsafe import Markup

from reportgen.errors import ReportgenError

_PLACEHOLDER = '<div data-rg-deferred="{key}"></div>'
_PLACEHOLDER_RE = re.compile(r'<div data-rg-deferred="([0-9a-f]{32})"></div>')

_blocks: ContextVar[dict[str, str] | None] = ContextVar("rg_deferred_blocks", default=None)


class DeferredBlockError(ReportgenError):
    """A finished page names a deferred block that no page writer kept."""


@contextlib.contextmanager
def collecting() -> Iterator[dict[str, str]]:
    """Keep the blocks deferred while the body runs (page writing and MkDocs)."""
    blocks: dict[str, str] = {}
    token = _blocks.set(blocks)
    try:
        yield blocks
    finally:
        _blocks.reset(token)


def defer(block: str, slot: str | None = None) -> Markup:
    """A placeholder for `block` while a build collects, else `block` itself.

    The placeholder is named by the block's content, or by `slot` where one is given: a
    block that changes from build to build (a rank among the models) then leaves its
    page's Markdown the same, and the page's conversion is kept
    (reportgen/render/page_cache.py). A slot names one block in a build (the page and
    language are part of it)."""
    blocks = _blocks.get()
    if blocks is None:
        return Markup(block)
    # Named by content (the same block on two pages is kept once) or by its slot: either
    # way builds stay deterministic.
    named = block if slot is None else f"slot\0{slot}"
    key = hashlib.sha256(named.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    if slot is not None and blocks.get(key, block) != block:
        raise DeferredBlockError(f"two blocks for the deferred slot {slot!r}")
    blocks[key] = block
    return Markup(_PLACEHOLDER.format(key=key))


def adopt(blocks: Mapping[str, str]) -> None:
    """Keep `blocks`, deferred by pages written in another process of this build
    (reportgen/render/forked_pages.py), as if they had been deferred here."""
    kept = _blocks.get()
    if kept is None:
        raise DeferredBlockError("deferred blocks handed back outside a collecting build")
    for key, block in blocks.items():
        if kept.get(key, block) != block:
            raise DeferredBlockError(f"two blocks for the deferred key {key!r}")
        kept[key] = block


def restore(page_html: str) -> str:
    """`page_html` with every placeholder replaced by its block."""
    blocks = _blocks.get()
    if blocks is None:
        if _PLACEHOLDER_RE.search(page_html):
            raise DeferredBlockError("a page holds deferred blocks outside a collecting build")
        return page_html

    def block(match: re.Match[str]) -> str:
        try:
            return blocks[match.group(1)]
        except KeyError:
            raise DeferredBlockError(f"no deferred block {match.group(1)!r}") from None

    return _PLACEHOLDER_RE.sub(block, page_html)
