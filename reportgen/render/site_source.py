"""What the build needs from the pages of a site, and a site made of several kinds.

Each kind builds a `SiteSource` from its rounds (`Kind.site`). A site of one kind is
that kind's source as it is; a site of several kinds is a `SectionedSite`: a home page
that lists every round, and each kind's pages in a section (folder) of their own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Protocol, runtime_checkable

from markupsafe import escape

from reportgen.i18n import SITE_LANGUAGES, Translator
from reportgen.render.table import escape_markdown

# One navigation entry: a page (Markdown path), or a titled section of pages.
NavEntry = str | Mapping[str, Sequence[str]]


class SiteSource(Protocol):
    """The pages of a site (or of one section of it), as the build writes them."""

    @property
    def nav(self) -> tuple[NavEntry, ...]: ...  # the navigation's Markdown files, in order

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]: ...  # language -> names

    @property
    def source_date(self) -> date: ...  # the date the built site is stamped with

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        """Write the pages of `language` (and what they show) into `pages_dir`."""
        ...

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        """Write the files beside the built pages of `language` that the pages only link
        to and that take long to make (drawn charts), into `pages_dir` (the language's
        folder of the built site), after MkDocs: they are made while MkDocs runs."""
        ...

    def write_downloads(self, site_dir: Path) -> list[Path]:
        """Write the downloads under `site_dir` (the built site's root)."""
        ...


@runtime_checkable
class DownloadsFirst(SiteSource, Protocol):
    """A site that can give its downloads before they are written (the leak guard reads
    them while MkDocs runs: reportgen/guard_cache.py, `EarlyScan`)."""

    def download_files(self) -> Mapping[str, bytes]:
        """Files `write_downloads` writes: each one's path under the site's root -> its bytes."""
        ...


@dataclass(frozen=True)
class RoundListing:
    """One round as the home page of a site of several kinds lists it."""

    round_id: str
    title: Mapping[str, str]  # per language
    collected_on: date
    synthetic: bool


@dataclass(frozen=True)
class Section:
    """One kind's part of a site of several kinds."""

    folder: str  # the kind's name: its pages are under <language>/<folder>/
    title: Mapping[str, str]  # the section's name, per language
    rounds: tuple[RoundListing, ...]
    source: SiteSource


@dataclass(frozen=True)
class SectionedSite:
    """A site of several kinds: a home page listing the rounds, then one section per kind."""

    title: Mapping[str, str]  # the site's title, per language
    sections: tuple[Section, ...]

    @property
    def nav(self) -> tuple[NavEntry, ...]:
        entries: list[NavEntry] = ["index.md"]
        for section in self.sections:
            pages = [f"{section.folder}/{_flat(entry)}" for entry in section.source.nav]
            entries.append({section.title[SITE_LANGUAGES[0]]: pages})
        return tuple(entries)

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]:
        """Section titles per language (the navigation names them in the default one)."""
        return {
            language: {s.title[SITE_LANGUAGES[0]]: s.title[language] for s in self.sections}
            for language in SITE_LANGUAGES
        }

    @property
    def source_date(self) -> date:
        return max(section.source.source_date for section in self.sections)

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        written = [self._write_home(pages_dir, language)]
        for section in self.sections:
            written += section.source.write_sources(pages_dir / section.folder, language)
        return written

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return [
            path
            for section in self.sections
            for path in section.source.write_assets(pages_dir / section.folder, language)
        ]

    def write_downloads(self, site_dir: Path) -> list[Path]:
        return [path for s in self.sections for path in s.source.write_downloads(site_dir)]

    def _write_home(self, pages_dir: Path, language: str) -> Path:
        pages_dir.mkdir(parents=True, exist_ok=True)
        path = pages_dir / "index.md"
        path.write_text(home_markdown(self, Translator(language)), encoding="utf-8")
        return path


def _flat(entry: NavEntry) -> str:
    if not isinstance(entry, str):
        raise TypeError("a section's navigation cannot itself hold sections")
    return entry


def home_markdown(site: SectionedSite, tr: Translator) -> str:
    """The home page of a site of several kinds: every round, by kind, linked to its section."""
    title = escape_markdown(tr.pick(site.title))
    lines = [f"---\ntitle: {tr('sections.home_title')}\n---", "", f"# {title}", ""]
    synthetic = [r.round_id for s in site.sections for r in s.rounds if r.synthetic]
    if synthetic:
        notice_title = escape(tr("notice.synthetic.title"))
        notice = escape(tr("notice.synthetic.body", rounds=", ".join(synthetic)))
        lines += [
            f'<div class="admonition warning rg-synthetic" role="note">'
            f'<p class="admonition-title">{notice_title}</p><p>{notice}</p></div>',
            "",
        ]
    lines += [tr("sections.intro"), ""]
    for section in site.sections:
        lines += [f"## {escape_markdown(tr.pick(section.title))}", ""]
        for listing in section.rounds:
            name = escape_markdown(tr.pick(listing.title))
            when = tr.date(listing.collected_on)
            lines.append(
                f"- [{name}]({section.folder}/index.md) — "
                f"{tr('sections.round_line', round=listing.round_id, date=when)}"
            )
        lines.append("")
    return "\n".join(lines)
