"""The multidomain pages as the build sees them: `site(...)`, the kind's `Kind.site` hook.

Layout under each language's folder (and the kind's section, in a site of several
kinds): `index.md` lists the rounds; `<round_id>/index.md` is a round's first page and
`<round_id>/<section>.md` each of the report's 14 sections, with each table's CSV beside
its page, and `<round_id>/items-<domain_id>.md` the items of one domain under the items'
index; `data/<round_id>/` at the site's root holds the downloads. The date the site
speaks for (`config.as_of`) decides the embargo of the items and of flagged ids, the
provisional notice, and which ledger lines count: pages and results see the round as of
that date (`terms.round_as_of`), so a decision taken later is neither shown nor applied.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path

from markupsafe import Markup

from reportgen.errors import InputError, ReportgenError
from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds._site import ResultsSite
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.render import (
    sections_contest,
    sections_integrity,
    sections_items,
    sections_method,
    sections_process,
    sections_scores,
)
from reportgen.kinds.multidomain.render.annex_pages import (
    annex_downloads,
    annex_links,
    annex_pages,
    annex_stems,
)
from reportgen.kinds.multidomain.render.context import (
    ITEMS_SECTION,
    RoundContext,
    items_page,
    page_head,
)
from reportgen.kinds.multidomain.render.downloads import DOWNLOAD_NAMES, write_downloads
from reportgen.kinds.multidomain.render.page_types import (
    Block,
    KindHomePage,
    RoundHomePage,
    RoundPage,
    SectionLink,
    SectionPage,
)
from reportgen.kinds.multidomain.render.sections_series import (
    history_link,
    series_nav,
    series_pages,
)
from reportgen.kinds.multidomain.render.series import Series, series
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.render.writer import WRITER
from reportgen.kinds.multidomain.results import Dates, Results, load_results
from reportgen.kinds.multidomain.terms import round_as_of
from reportgen.model import Round as CoreRound
from reportgen.render.downloads import SUMS_FILE
from reportgen.render.pages import PageHead, TableBlock
from reportgen.render.siteconfig import SiteConfig, default_as_of
from reportgen.render.text import paragraph

Progress = Callable[[str], None]
SectionBuilder = Callable[[RoundContext, Text], tuple[Block, ...]]

BUILDERS: Mapping[str, SectionBuilder] = {
    "methodology": sections_method.methodology,
    "cast": sections_method.cast,
    "classification": sections_scores.classification,
    "domains-languages": sections_scores.domains_languages,
    "technical-ties": sections_scores.technical_ties,
    "head-to-head": sections_scores.head_to_head,
    "process": sections_process.process,
    "refusals": sections_process.refusals,
    "discarded": sections_process.discarded,
    "human-audit": sections_process.human_audit,
    "calibration": sections_process.calibration,
    "contamination": sections_integrity.contamination,
    "limitations": sections_method.limitations,
    "items": sections_items.items,
}


def multidomain_round(round_: CoreRound) -> Round:
    if not isinstance(round_, Round):
        raise ReportgenError(
            f"{round_.path}: not a multidomain round (kind {round_.manifest.kind})"
        )
    return round_


def _download_links(round_id: str, text: Text, section_depth: int) -> Markup:
    """Links to the round's downloads, at the site's root (shared by both languages)."""
    root = "../" * (section_depth + 1) + ("" if text.language == SITE_LANGUAGES[0] else "../")
    return Markup("\n").join(
        Markup(f"- [{name}]({root}data/{round_id}/{name})") for name in (*DOWNLOAD_NAMES, SUMS_FILE)
    )


def _reverify_rows(dates: Dates, text: Text) -> list[tuple[str, str]]:
    """Art. 6: the last day to revert a divergence found on re-verification (none without
    participants)."""
    if dates.reverified_on is None or dates.reverify_until is None:
        return []
    value = text.t(
        "home.reverify_value",
        until=text.date(dates.reverify_until),
        verified=text.date(dates.reverified_on),
    )
    return [(text.t("home.reverify_until"), value)]


def _dates_table(context: RoundContext, text: Text) -> TableBlock:
    dates = context.results.dates
    window = text.t(
        "home.contest_value",
        opens=text.date(dates.contest_opens),
        closes=text.date(dates.contest_closes),
    )
    rows = [
        (text.t("home.ended_on"), text.date(dates.ended_on)),
        (text.t("home.embargo_end"), text.date(dates.embargo_end)),
        (text.t("home.contest"), window),
        (text.t("home.provisional_until"), text.date(dates.provisional_until)),
        (text.t("home.retain_until"), text.date(dates.retain_until)),
        *_reverify_rows(dates, text),
        (text.t("home.as_of"), text.date(context.as_of)),
    ]
    header = (text.t("column.parameter"), text.t("column.value"))
    return text.block(
        f"md-{context.round_id}-dates", text.t("home.dates"), header, rows, numeric_from=99
    )


def _domain_pages(context: RoundContext, text: Text, number: int) -> list[tuple[str, RoundPage]]:
    """One items page per domain, under the items' index (section `number`)."""
    pages: list[tuple[str, RoundPage]] = []
    for domain_id in context.item_domains:
        stem = items_page(domain_id)
        title = text.t("items.domain_title", domain=context.domain_name(domain_id, text))
        blocks = sections_items.domain_items(context, text, domain_id)
        page = SectionPage(page_head(context, title, text), Markup(stem), number, blocks)
        pages.append((f"{context.round_id}/{stem}.md", page))
    return pages


def round_pages(
    context: RoundContext, text: Text, section_depth: int, extra: tuple[Block, ...] = ()
) -> list[tuple[str, RoundPage]]:
    """(path under the language's folder, page) of every page of one round (`extra`: blocks
    its first page adds at the end, such as the link to the round history)."""
    rid = context.round_id
    pages: list[tuple[str, RoundPage]] = []
    links = []
    for number, (stem, key) in enumerate(context.sections, start=1):
        blocks = BUILDERS[stem](context, text)
        head = page_head(context, text.t(key), text)
        pages.append((f"{rid}/{stem}.md", SectionPage(head, Markup(stem), number, blocks)))
        links.append(SectionLink(number, text.t(key), Markup(f"{stem}.md")))
        if stem == ITEMS_SECTION:
            pages += _domain_pages(context, text, number)
    pages += annex_pages(context, text, section_depth)
    intro = Markup("\n\n").join(
        [
            paragraph(
                text.t(
                    "home.round_intro", participants=text.integer(len(context.results.participants))
                )
            ),
            paragraph(text.t("home.downloads")),
            _download_links(rid, text, section_depth),
        ]
    )
    home = RoundHomePage(
        page_head(context, text.pick(context.round_.manifest.title), text),
        intro,
        _dates_table(context, text),
        (*sections_contest.contestation(context, text), *annex_links(context, text), *extra),
        text.t("home.sections"),
        tuple(links),
    )
    return [(f"{rid}/index.md", home), *pages]


@dataclass(frozen=True)
class MultidomainSite:
    """The multidomain pages of one build (a reportgen.render.site_source.SiteSource)."""

    contexts: tuple[RoundContext, ...]
    section_depth: int = 0

    @cached_property
    def series(self) -> Series | None:
        """The series across rounds (Art. 2(d)); None with a single round."""
        return series(self.contexts) if len(self.contexts) > 1 else None

    @property
    def nav(self) -> tuple[str, ...]:
        entries = ["index.md"]
        for context in self.contexts:
            entries.append(f"{context.round_id}/index.md")
            for stem, _ in context.sections:
                entries.append(f"{context.round_id}/{stem}.md")
                if stem == ITEMS_SECTION:
                    pages = (items_page(domain_id) for domain_id in context.item_domains)
                    entries += [f"{context.round_id}/{page}.md" for page in pages]
            entries += [f"{context.round_id}/{stem}.md" for stem in annex_stems(context)]
        found = self.series
        return tuple(entries + (series_nav(found) if found is not None else []))

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]:
        return {}  # page titles come from each page's front matter

    @property
    def source_date(self) -> date:
        return max(c.results.dates.ended_on for c in self.contexts)

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        text = Text(language)
        written: list[Path] = []
        links = []
        extra = () if self.series is None else history_link(text)
        for context in self.contexts:
            for relative, page in round_pages(context, text, self.section_depth, extra):
                written += WRITER.write_page(pages_dir, relative, page)
            title = text.pick(context.round_.manifest.title)
            links.append(SectionLink(0, title, Markup(f"{context.round_id}/index.md")))
        found = self.series
        history: tuple[SectionLink, ...] = ()
        if found is not None:
            for relative, series_page in series_pages(found, text):
                written += WRITER.write_page(pages_dir, relative, series_page)
            history = (SectionLink(0, text.t("series.title"), Markup("series/index.md")),)
        home = KindHomePage(
            PageHead(text.t("home.title"), ()),
            paragraph(text.t("home.intro")),
            tuple(links),
            history,
        )
        written += WRITER.write_page(pages_dir, "index.md", home)
        return written

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return []  # every file beside the pages is written with them

    def write_downloads(self, site_dir: Path) -> list[Path]:
        return [
            path
            for context in self.contexts
            for path in write_downloads(
                context, site_dir, annex_downloads(context, self.section_depth)
            )
        ]


def refuse_early(rounds: Sequence[Round], as_of: date) -> None:
    """A build speaking for a date before a round ended is refused (metrics §9)."""
    for round_ in rounds:
        ended = round_.manifest.ended_on
        if ended is not None and as_of < ended:
            raise InputError(
                f"--as-of {as_of.isoformat()}: earlier than the end of round {round_.round_id}"
                f" ({ended.isoformat()}); a multidomain round is reported only after it ends"
            )


def _rounds_as_of(rounds: Sequence[CoreRound], config: SiteConfig) -> list[Round]:
    """The multidomain rounds as of `config.as_of` (a build before a round ended is refused)."""
    as_of = config.as_of or default_as_of()
    typed = [multidomain_round(r) for r in rounds]
    refuse_early(typed, as_of)
    return [round_as_of(whole, as_of) for whole in typed]


def _pages(
    found: Sequence[tuple[Round, Results]], config: SiteConfig, section_depth: int
) -> MultidomainSite:
    as_of = config.as_of or default_as_of()
    contexts = (RoundContext(r, res, as_of, config.contest_contact) for r, res in found)
    return MultidomainSite(tuple(contexts), section_depth)


# The pages of verified multidomain rounds on `config.as_of` (`results`: given results
# objects by round id, which must be those of the round as of that date; else computed from
# the round as of that date, or read from the results cache).
site = ResultsSite(
    _rounds_as_of, lambda round_, _, cache_dir: load_results(round_, cache_dir=cache_dir), _pages
)
