"""One page of each kind of page of a built site, for the browser checks that judge a
page's layout and accessibility (tests/test_browser_fit.py, tests/test_browser_axe_kinds.py).

A site has many pages of one kind: the same section in each round, one items page a
domain, one history page a participant. Such pages come from one template and one page
context class (the kinds' render/page_types.py), with the same tables (the same columns)
and the same charts; only the rows and the words differ. A browser visit takes a second
or more a page, and the multidomain example alone has 134 pages; so the browser visits one
page of each kind, in each language, and a cheap check reads every page's HTML.

What makes two pages "of one kind" is read from the pages, not from a list:

- their path, with the parts that name data put aside (`page_kind`): a round's id, a
  domain (`items-<domain>`), a participant's history (`series/<participant>`);
- their layout (`layout_of`): every table's number of columns and its pinned column, every
  chart's kind, every folded part, in the page's order.

Pages that share both are one kind; a page whose layout differs from the others of its path
(a round with one more column, a participant in one round only) is a kind of its own, and
is visited too. Of a kind's pages, the largest (the most rows and words) is the one
visited: the one most likely to be wider than the window.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import unescape
from pathlib import Path

# A round's id in a path: "reg-2026-1", "atendimento-2026-09", "idje-avalia-2026-07".
_ROUND = re.compile(r"(?<![^/])[a-z][a-z-]*-\d{4}-\d{1,2}(?=/)")
# One page a domain's items, one page a participant's history (the series' own pages,
# its index and the bank's version register, keep their names).
_DATA_NAMED = (
    (re.compile(r"/items-[a-z0-9-]+\.html$"), "/items-<domain>.html"),
    (re.compile(r"(?<![^/])series/(?!index\.html|bank-versions\.html)[^/]+\.html$"),
     "series/<participant>.html"),
)  # fmt: skip
_TABLE = re.compile(r"<table\b([^>]*)>(.*?)</table>", re.S)
_FIRST_ROW = re.compile(r"<tr\b[^>]*>(.*?)</tr>", re.S)
_PARTS = re.compile(r"<figure\b[^>]*class=\"([^\"]*)\"|<details\b|<table\b", re.S)


def page_kind(path: str) -> str:
    """`path` (relative to the site, "en/" first for English) with its data-named parts
    put aside: "en/reg-2026-2/items-bank.html" → "en/<round>/items-<domain>.html"."""
    kind = _ROUND.sub("<round>", path)
    for pattern, replacement in _DATA_NAMED:
        kind = pattern.sub(replacement, kind)
    return kind


def layout_of(html: str) -> tuple[str, ...]:
    """What of a page's HTML lays it out: the kinds of its parts, each once, whatever their
    number (a domain's items page has as many folded items as the domain has items): a
    table by its columns, whether its first is pinned and its classes (cells that wrap),
    a chart by its classes, a folded part."""
    tables = iter(_TABLE.findall(html))
    layout = []
    for match in _PARTS.finditer(html):
        if match.group(0).startswith("<table"):
            attributes, body = next(tables)
            row = _FIRST_ROW.search(body)
            cells = re.findall(r"<t[hd]\b([^>]*)>", row.group(1)) if row else []
            pinned = ":pinned" if cells and "rg-sticky" in cells[0] else ""
            classes = re.search(r'class="([^"]*)"', attributes)
            layout.append(f"table:{len(cells)}{pinned}:{classes.group(1) if classes else ''}")
        elif match.group(0).startswith("<details"):
            layout.append("details")
        else:
            layout.append(f"figure:{match.group(1)}")
    return tuple(sorted(set(layout)))


def sample_pages(root: Path, paths: Iterable[str]) -> dict[str, list[str]]:
    """One page of each kind among `paths` (site-relative), mapped to every page of its
    kind: the largest of them, its HTML's size deciding (then its path, for a fixed order)."""
    kinds: dict[tuple[str, tuple[str, ...]], list[str]] = {}
    for path in paths:
        layout = layout_of((root / path).read_text(encoding="utf-8"))
        kinds.setdefault((page_kind(path), layout), []).append(path)
    sample = {}
    for members in kinds.values():
        largest = max(members, key=lambda path: ((root / path).stat().st_size, path))
        sample[largest] = sorted(members)
    return dict(sorted(sample.items()))


_CELL = re.compile(r"<(t[hd])\b[^>]*>(.*?)</\1>", re.S)
_TOGETHER = re.compile(r'<span class="rg-together">[^<]*</span>')
_TAG = re.compile(r"<[^>]+>")
# An interval as tests/support/page_fit.js finds one in a cell's text ("[80,59; 86,05]").
_INTERVAL = re.compile(r"\[[^\[\]\n]{1,32}\]")
_WRAPPED_TABLE = re.compile(r'<div class="rg-table-wrap"[^>]*>\s*<table\b')


def loose_layout(html: str) -> list[str]:
    """What in a page's HTML lets it break out of the window, whatever the browser: a table
    outside its scrolling box (`rg-table-wrap`), an interval in a table's cell that is not
    kept on one line (`rg-together`). Read from every page, where the browser visits one
    page of each kind."""
    found = []
    tables = len(re.findall(r"<table\b", html))
    wrapped = len(_WRAPPED_TABLE.findall(html))
    if wrapped != tables:
        found.append(f"{tables - wrapped} of {tables} tables outside a scrolling box")
    for _, cell in _CELL.findall(html):
        text = unescape(_TAG.sub("", _TOGETHER.sub("", cell)))
        found += [f'"{interval}" may break across lines' for interval in _INTERVAL.findall(text)]
    return found
