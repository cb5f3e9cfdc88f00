"""The page contexts of a multidomain round: one frozen class per page template.

Every value is finished for one language: `Markup` is printed as is, a `TableBlock` is
rendered by the page writer (HTML table + its CSV download link), any other string is
escaped. Templates only lay these fields out (tests/test_template_context.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from reportgen.render.pages import ListPage, PageHead, TableBlock

Block = Markup | TableBlock  # a paragraph or list (finished Markdown/HTML), or a table


@dataclass(frozen=True)
class SectionLink:
    number: int
    title: str
    href: Markup  # a file name built here from a fixed list, never from data


@dataclass(frozen=True)
class RoundHomePage:
    """The round's first page: what it is, its dates and the list of its sections."""

    head: PageHead
    intro: Markup
    facts: TableBlock
    contest: tuple[Block, ...]  # how to contest an item (Art. 43)
    sections_title: str
    sections: tuple[SectionLink, ...]


@dataclass(frozen=True)
class SectionPage:
    """One of the report's sections (report spec, "Sections, in this order")."""

    head: PageHead
    anchor: Markup  # stable id of the section's heading (a fixed slug, not data)
    number: int  # 1..14
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class KindHomePage(ListPage[PageHead, SectionLink]):
    """The kind's landing page (the site's home when it is the only kind): its rounds."""

    series: tuple[SectionLink, ...] = ()  # the history pages, with two rounds or more


@dataclass(frozen=True)
class AnnexPage:
    """A page of the round beside the report's numbered sections: the register of
    changes (Art. 43) and the released items (Art. 40, 42)."""

    head: PageHead
    anchor: Markup  # stable id of the page's heading (a fixed slug, not data)
    blocks: tuple[Block, ...]


RoundPage = RoundHomePage | SectionPage | KindHomePage | AnnexPage

TEMPLATES: dict[type, str] = {
    RoundHomePage: "round.md.j2",
    SectionPage: "section.md.j2",
    KindHomePage: "home.md.j2",
    AnnexPage: "annex.md.j2",
}
