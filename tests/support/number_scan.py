"""Numbers a reader sees on a built page that skipped the locale formatter (issue 24, point 6).

A page's visible text is split into words; each word that is a number must be written the
way reportgen.i18n writes one in the page's language:

- pt-BR: no decimal point ("0.2" is "0,2"), thousands grouped with a point from 5 digits
  on ("73171" is "73.171"), no e-notation ("1,713e-05" is "1,713 × 10⁻⁵");
- English: thousands grouped with a comma from 5 digits on, no e-notation.

A table's numeric cell (`td.num`) holds a count or a value, never a year, so there a
4-digit integer must be grouped too ("2091" is "2.091" / "2,091"), as Babel groups it.

What is not a number to a reader's eye is left alone: code, scripts and styles; quoted
material in its own language (an item's or a template's text, `lang="…"` inside the page,
shown verbatim as the archive holds it); dates (2026-09-14), versions (1.6.1), identifiers
and hashes (i-juri-003, a3f90c1e, REG-BC-2026-001: words mixing digits with letters or
hyphens), URLs and paths, years and other 4-digit integers in running text, and the
version in a product's name ("Qwen 3.6 Flash": a number right after a capitalised word),
and a section of a document ("§2.3": a number right after the section sign).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

# Elements whose text is code or machinery, not prose a reader meets as numbers.
_SKIPPED = frozenset({"script", "style", "code", "pre", "kbd", "samp", "template", "noscript"})
_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
     "track", "wbr"}
)  # fmt: skip
_URL = re.compile(r"(?:https?://|www\.)\S+|\S+@\S+\.\S+")
# Punctuation around a number in running text: brackets, quotes, sentence marks, signs, units.
_EDGES = "()[]{}«»“”‘’\"'.,;:!?…%‰×=<>≤≥±+−–—*#§ºª°"
_E_NOTATION = re.compile(r"^\d+(?:[.,]\d+)?[eE][-+−]?\d+$")
_NUMERIC = re.compile(r"^[\d.,]*\d[\d.,]*$")
_VERSION = re.compile(r"^\d+(?:\.\d+){2,}$")
_WELL_FORMED = {
    # Up to 4 digits ungrouped (years, small counts), or grouped by thousands; any decimals.
    "pt-BR": re.compile(r"^(?:\d{1,4}|[1-9]\d{0,2}(?:\.\d{3})+)(?:,\d+)?$"),
    "en": re.compile(r"^(?:\d{1,4}|[1-9]\d{0,2}(?:,\d{3})+)(?:\.\d+)?$"),
}
# A version in a product's name: "3.6" right after a capitalised word ("Qwen 3.6 Flash").
_NAME = re.compile(r"[A-ZÀ-Ý][\w-]* $")
_NAME_VERSION = re.compile(r"^\d{1,2}\.\d{1,2}$")
# A section of a document, "§2.3" or "§ 2.3.1": the section sign, then dotted numbers.
_SECTION = re.compile(r"§\s?$")
# A random seed is an identifier a reader copies to reproduce a run, never a quantity.
_SEED = re.compile(r"\b(?:seeds?|sementes?)\b", re.IGNORECASE)


@dataclass(frozen=True)
class Finding:
    page: str
    word: str
    context: str

    def __str__(self) -> str:
        return f"{self.page}: {self.word!r} in …{self.context}…"


class _Text(HTMLParser):
    """A page's text in chunks (one per text node, each with the first cell of its table
    row: the row's label), outside skipped elements and quoted material, and the text of
    each numeric table cell."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.language = ""
        self.chunks: list[tuple[str, str]] = []
        self.numeric_cells: list[str] = []
        self._open: list[tuple[str, bool]] = []  # (tag, whether it hides its text)
        self._cell: list[str] | None = None
        self._label: list[str] = []
        self._cells_in_row = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag == "html":
            self.language = values.get("lang") or ""
        elif tag not in _VOID:
            self._open.append((tag, tag in _SKIPPED or "lang" in values))
        if tag == "tr":
            self._label, self._cells_in_row = [], 0
        elif tag in ("td", "th"):
            self._cells_in_row += 1
        if tag == "td" and "num" in (values.get("class") or "").split():
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.numeric_cells.append("".join(self._cell).strip())
            self._cell = None
        if tag == "table":
            self._label, self._cells_in_row = [], 0
        if any(open_tag == tag for open_tag, _ in self._open):
            while self._open.pop()[0] != tag:
                pass

    def handle_data(self, data: str) -> None:
        if any(hidden for _, hidden in self._open):
            return
        if self._cells_in_row == 1:
            self._label.append(data)
        self.chunks.append((data, "".join(self._label)))
        if self._cell is not None:
            self._cell.append(data)


def unformatted(word: str, language: str) -> bool:
    """Whether a word (stripped of punctuation) is a number the formatter did not write."""
    if _E_NOTATION.match(word):
        return True
    if not _NUMERIC.match(word) or _VERSION.match(word):
        return False
    return not _WELL_FORMED["pt-BR" if language == "pt-BR" else "en"].match(word)


def _excused(before: str, word: str, label: str) -> bool:
    """A version in a name, a section number, or a seed (after the word "seed" or in a row
    about one)."""
    if _NAME_VERSION.match(word) and _NAME.search(before):
        return True
    if re.fullmatch(r"\d{1,2}(?:\.\d{1,2})+", word) and _SECTION.search(before):
        return True
    previous = before.rstrip(" ,:").rpartition(" ")[2]
    return bool(_SEED.search(previous) or _SEED.search(label))


def chunk_findings(chunk: str, language: str, page: str = "", label: str = "") -> Iterator[Finding]:
    """The unformatted numbers of one piece of text (one text node)."""
    text = re.sub(r"\s+", " ", _URL.sub(" ", chunk))
    for match in re.finditer(r"[^\s/]+", text):
        raw = match.group()
        word = raw.strip(_EDGES)
        if not word or not unformatted(word, language):
            continue
        # The leading marks stripped from the word (a "§") belong to what comes before it.
        before = text[: match.start()] + raw[: raw.index(word)]
        if not _excused(before, word, label):
            yield Finding(page, word, text[max(0, match.start() - 40) : match.end() + 40])


def page_text(html: str) -> tuple[str, list[str]]:
    """A page's language and its text nodes as a reader sees them: outside code, scripts
    and quoted material in its own language (tests/test_page_words.py reads them too)."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return parser.language, [chunk for chunk, _label in parser.chunks]


def page_findings(html: str, page: str = "") -> list[Finding]:
    """Every unformatted number of one page."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    language = parser.language
    found = [
        finding
        for chunk, label in parser.chunks
        for finding in chunk_findings(chunk, language, page, label)
    ]
    found += [
        Finding(page, cell, f"numeric cell {cell}")
        for cell in parser.numeric_cells
        if re.fullmatch(r"\d{4}", cell)
    ]
    return found


def site_findings(site: Path) -> list[Finding]:
    """Every unformatted number on every HTML page of a built site."""
    return [
        finding
        for path in sorted(site.rglob("*.html"))
        for finding in page_findings(
            path.read_text(encoding="utf-8"), path.relative_to(site).as_posix()
        )
    ]
