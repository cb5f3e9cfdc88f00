"""The page contexts of a counterfactual round: one frozen class per page template.

Every value is finished for one language: `Markup` is printed as is, a `TableBlock` or a
`DetailsBlock` is rendered by the page writer (HTML table + its CSV download link), an
int as its digits, any other string is escaped. Templates only lay these fields out
(tests/test_template_context.py).
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from reportgen.render.pages import ListPage, PageHead, TableBlock


@dataclass(frozen=True)
class DetailsBlock:
    """A table folded in an expandable block (<details>), e.g. the other pairs of a row."""

    summary: str
    table: TableBlock


Block = Markup | TableBlock | DetailsBlock  # finished Markdown/HTML, a table, a folded table


@dataclass(frozen=True)
class Part:
    """One part of the report (report spec, "Order of the page", parts 2 to 11)."""

    number: int
    anchor: Markup  # stable id of the part's heading (a fixed slug, not data)
    title: str
    blocks: tuple[Block, ...]


@dataclass(frozen=True)
class RoundLink:
    title: str
    href: Markup  # built here from the round id (an identifier of [A-Za-z0-9_-])
    note: str  # "" or "synthetic data"


@dataclass(frozen=True)
class RoundReportPage:
    """A round's one page: the header (part 1), then parts 2 to 11 in the spec's order."""

    head: PageHead
    intro: str  # what was audited (system_under_test, in the page's language)
    facts: TableBlock  # dates, systems, preregistration status, baseline
    parts: tuple[Part, ...]


@dataclass(frozen=True)
class KindHomePage(ListPage[PageHead, RoundLink]):
    """The section's landing page: its rounds."""


Page = RoundReportPage | KindHomePage

TEMPLATES: dict[type, str] = {
    RoundReportPage: "round.md.j2",
    KindHomePage: "home.md.j2",
}
