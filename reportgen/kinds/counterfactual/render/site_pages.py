"""The counterfactual pages as the build sees them: `site(...)`, the kind's `Kind.site` hook.

Layout under each language's folder (and the kind's section, "Auditorias contrafactuais /
Counterfactual audits", in a site of several kinds): `index.md` lists the rounds;
`<round_id>/index.md` is a round's one page, its parts in the report spec's order, with
each table's CSV beside it; `data/<round_id>/` at the site's root holds the downloads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from markupsafe import Markup

from reportgen.errors import ReportgenError
from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds._site import ResultsSite
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.render import (
    sections_findings,
    sections_review,
    sections_setup,
    sections_tables,
)
from reportgen.kinds.counterfactual.render.context import RoundContext, page_head
from reportgen.kinds.counterfactual.render.downloads import DOWNLOAD_NAMES, write_downloads
from reportgen.kinds.counterfactual.render.page_types import (
    Block,
    KindHomePage,
    Part,
    RoundLink,
    RoundReportPage,
)
from reportgen.kinds.counterfactual.render.text import Text
from reportgen.kinds.counterfactual.render.writer import WRITER
from reportgen.kinds.counterfactual.results import Results, load_results
from reportgen.kinds.counterfactual.stages import baseline_of
from reportgen.model import Round as CoreRound
from reportgen.render.downloads import SUMS_FILE
from reportgen.render.pages import PageHead, TableBlock
from reportgen.render.text import paragraph

Progress = Callable[[str], None]
PartBuilder = Callable[[RoundContext, Text, int], tuple[Block, ...]]


def _downloads(context: RoundContext, text: Text, section_depth: int) -> tuple[Block, ...]:
    """Links to the round's downloads, at the site's root (shared by both languages)."""
    root = "../" * (section_depth + 1) + ("" if text.language == SITE_LANGUAGES[0] else "../")
    rid = context.round_id
    links = Markup("\n").join(
        Markup(f'- <a href="{root}data/{rid}/{name}" download>{name}</a>')
        for name in (*DOWNLOAD_NAMES, SUMS_FILE)
    )
    return (paragraph(text.t("downloads.intro")), links)


def _ignoring_depth(builder: Callable[[RoundContext, Text], tuple[Block, ...]]) -> PartBuilder:
    return lambda context, text, _depth: builder(context, text)


# (anchor, catalogue key of the title, builder): parts 2 to 11 of the report spec, in order.
PARTS: tuple[tuple[str, str, PartBuilder], ...] = (
    ("findings", "part.findings", _ignoring_depth(sections_findings.findings)),
    ("tables", "part.tables", _ignoring_depth(sections_tables.tables)),
    ("placebo", "part.placebo", _ignoring_depth(sections_review.placebo)),
    ("before-after", "part.regression", _ignoring_depth(sections_review.regression)),
    ("calibration", "part.calibration", _ignoring_depth(sections_review.calibration)),
    ("setup", "part.setup", _ignoring_depth(sections_setup.setup)),
    ("preregistration", "part.preregistration", _ignoring_depth(sections_setup.preregistration)),
    ("methodology", "part.methodology", _ignoring_depth(sections_setup.methodology)),
    ("limitations", "part.limitations", _ignoring_depth(sections_setup.limitations)),
    ("downloads", "part.downloads", _downloads),
)


def counterfactual_round(round_: CoreRound) -> Round:
    if not isinstance(round_, Round):
        raise ReportgenError(
            f"{round_.path}: not a counterfactual round (kind {round_.manifest.kind})"
        )
    return round_


def _facts(context: RoundContext, text: Text) -> TableBlock:
    manifest = context.round_.manifest
    plan = manifest.preregistration
    status = "status.preregistered" if plan.preregistered else "status.not_preregistered"
    collected = text.t(
        "header.collected_value",
        start=text.date(manifest.collected_on),
        end=text.date(manifest.ended_on or manifest.collected_on),
    )
    rows = [
        (text.t("header.collected"), collected),
        (text.t("header.frozen"), text.date(manifest.protocol_frozen_on)),
        (
            text.t("header.systems"),
            ", ".join(context.system_name(m.model_id, text) for m in context.round_.models),
        ),
        (text.t("header.preregistration"), text.t(status, date=text.date(plan.preregistered_on))),
        (text.t("header.baseline"), manifest.baseline_round or text.t("number.none")),
    ]
    header = (text.t("tables.column.row"), text.t("tables.column.value"))
    return text.block(
        f"cf-{context.round_id}-header", text.t("header.facts"), header, rows, numeric_from=99
    )


def round_page(context: RoundContext, text: Text, section_depth: int = 0) -> RoundReportPage:
    """The round's one page in one language."""
    manifest = context.round_.manifest
    parts = tuple(
        Part(number, Markup(anchor), text.t(key), builder(context, text, section_depth))
        for number, (anchor, key, builder) in enumerate(PARTS, start=2)
    )
    return RoundReportPage(
        page_head(context, text.pick(manifest.title), text),
        text.t("header.intro", system=text.pick(manifest.system_under_test)),
        _facts(context, text),
        parts,
    )


@dataclass(frozen=True)
class CounterfactualSite:
    """The counterfactual pages of one build (a reportgen.render.site_source.SiteSource)."""

    contexts: tuple[RoundContext, ...]
    section_depth: int = 0

    @property
    def nav(self) -> tuple[str, ...]:
        return ("index.md", *(f"{c.round_id}/index.md" for c in self.contexts))

    @property
    def nav_translations(self) -> Mapping[str, Mapping[str, str]]:
        return {}  # page titles come from each page's front matter

    @property
    def source_date(self) -> date:
        return max(
            c.round_.manifest.ended_on or c.round_.manifest.collected_on for c in self.contexts
        )

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        text = Text(language)
        written: list[Path] = []
        links = []
        for context in self.contexts:
            page = round_page(context, text, self.section_depth)
            written += WRITER.write_page(pages_dir, f"{context.round_id}/index.md", page)
            note = text.t("home.synthetic") if context.round_.manifest.synthetic else ""
            title = text.pick(context.round_.manifest.title)
            links.append(RoundLink(title, Markup(f"{context.round_id}/index.md"), note))
        home = KindHomePage(PageHead(text.t("home.title"), ()), text.t("home.intro"), tuple(links))
        written += WRITER.write_page(pages_dir, "index.md", home)
        return written

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return []  # every file beside the pages is written with them

    def write_downloads(self, site_dir: Path) -> list[Path]:
        return [path for context in self.contexts for path in write_downloads(context, site_dir)]


def _load(round_: Round, rounds: Mapping[str, Round], cache_dir: Path | None) -> Results:
    """Computed or read from the results cache, against the baseline round: one of the
    rounds built, else the archive beside this one (as verify and the results command
    read it)."""
    baseline = rounds.get(round_.manifest.baseline_round or "") or baseline_of(round_)
    return load_results(round_, cache_dir=cache_dir, baseline=baseline)


# The pages of verified counterfactual rounds (`results`: given results objects by round
# id, else `_load`ed). `config` is the site's: the page takes the systems' names in each
# language from it (a counterfactual round has no embargo).
site = ResultsSite(
    lambda rounds, config: [counterfactual_round(r) for r in rounds],
    _load,
    lambda found, config, depth: CounterfactualSite(
        tuple(RoundContext(r, res, config.system_names) for r, res in found), depth
    ),
)
