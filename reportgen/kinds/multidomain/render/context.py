"""What every page of a multidomain round draws on: the verified round as of the date the
site speaks for (its ledger cut at that date), its results object, the ids the embargo
still covers; the fixed list of the report's sections."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from fractions import Fraction
from functools import cached_property

from markupsafe import Markup

from reportgen.kinds.multidomain.model import Item, Participant, Round, Screening
from reportgen.kinds.multidomain.render.embargo import IdEmbargo, id_embargo
from reportgen.kinds.multidomain.render.text import Text
from reportgen.kinds.multidomain.results import Results
from reportgen.kinds.multidomain.stats.item_points import item_points
from reportgen.kinds.multidomain.stats.jury_effect import JuryEffect, jury_effect
from reportgen.render.pages import Notice, PageHead, TableBlock
from reportgen.render.text import synthetic_notice

# (file stem = heading anchor, catalogue key of the title), in the spec's order (1..14).
SECTIONS: tuple[tuple[str, str], ...] = (
    ("methodology", "section.methodology"),
    ("cast", "section.cast"),
    ("classification", "section.classification"),
    ("domains-languages", "section.domains_languages"),
    ("technical-ties", "section.technical_ties"),
    ("head-to-head", "section.head_to_head"),
    ("process", "section.process"),
    ("refusals", "section.refusals"),
    ("discarded", "section.discarded"),
    ("human-audit", "section.human_audit"),
    ("calibration", "section.calibration"),
    ("contamination", "section.contamination"),
    ("limitations", "section.limitations"),
    ("items", "section.items"),
)
ITEMS_SECTION = "items"


def items_page(domain_id: str) -> str:
    """The file stem of one domain's items page (a domain id is a slug: refusal 4)."""
    return f"{ITEMS_SECTION}-{domain_id}"


@dataclass(frozen=True)
class RoundContext:
    """One round as its pages see it, on the date `as_of` (`round_`: as of that date,
    terms.round_as_of; `results`: computed from it)."""

    round_: Round
    results: Results
    as_of: date
    contact: str | None = None  # site.yml `contestations.contact`; None: not set yet

    @property
    def round_id(self) -> str:
        return self.round_.round_id

    @property
    def embargo_over(self) -> bool:
        """Test items, keys, justifications and secret rubrics may be shown (Art. 42)."""
        return self.as_of >= self.results.dates.embargo_end

    @cached_property
    def id_embargo(self) -> IdEmbargo:
        return id_embargo(self.round_, self.results.contamination)

    def shows_id(self, item_id: str) -> bool:
        """`item_id` may be named on `as_of` (the one rule of every page and download)."""
        return self.id_embargo.shown(item_id, self.as_of)

    def item_ref(self, item_id: str, text: Text) -> str:
        """`item_id`, or "published when the embargo ends" while the embargo hides it."""
        return item_id if self.shows_id(item_id) else text.t("item.embargoed")

    @property
    def provisional(self) -> bool:
        """Contestation windows still open or unanswered (Art. 43)."""
        return self.as_of < self.results.dates.provisional_until

    @property
    def sections(self) -> tuple[tuple[str, str], ...]:
        """The sections shown on `as_of` (the items only once the embargo is over)."""
        return tuple(s for s in SECTIONS if s[0] != ITEMS_SECTION or self.embargo_over)

    @property
    def item_domains(self) -> tuple[str, ...]:
        """The domains (manifest order) that have test items: one items page each, shown
        with the items once the embargo is over."""
        if not self.embargo_over:
            return ()
        used = {item.domain_id for item in self.round_.items if not item.calibration}
        return tuple(d.id for d in self.round_.manifest.domains if d.id in used)

    # Computed from the archive once for both languages and every page (cached here).
    @cached_property
    def jury_effect(self) -> JuryEffect:
        return jury_effect(self.round_)

    @cached_property
    def item_points(self) -> dict[tuple[str, str], Fraction]:
        """p̄(m, i) of every test item and participant: (item_id, model_id) -> points."""
        return item_points(self.round_)

    @cached_property
    def screening(self) -> dict[str, Screening]:
        """Each item's personal-data screening (Art. 37), by item id."""
        return {row.item_id: row for row in self.round_.screening}

    def participant(self, model_id: str) -> Participant:
        return next(m for m in self.round_.models if m.model_id == model_id)

    def name_of(self, model_id: str) -> str:
        return self.participant(model_id).display_name

    def item(self, item_id: str) -> Item:
        return next(i for i in self.round_.items if i.item_id == item_id)

    def domain_name(self, domain_id: str, text: Text) -> str:
        domain = next(d for d in self.round_.manifest.domains if d.id == domain_id)
        return text.pick(domain.name)


def notices(
    text: Text, synthetic: str | None, until: date | None, provisional_key: str
) -> tuple[Notice, ...]:
    """The notices of a page: Art. 2 first, then synthetic data (`synthetic`: the body,
    None for real data) and the provisional status until `until` (the body's message)."""
    found = [Notice(Markup("rg-art2"), text.t("notice.art2.title"), text.t("notice.art2.body"))]
    if synthetic is not None:
        found.append(synthetic_notice(text, synthetic))
    if until is not None:
        day = text.date(until)
        title = text.t("notice.provisional.title", date=day)
        found.append(Notice(Markup("rg-provisional"), title, text.t(provisional_key, date=day)))
    return tuple(found)


def page_head(context: RoundContext, title: str, text: Text) -> PageHead:
    """The title and the notices of every page of the round: Art. 2 first, then synthetic
    data and the provisional status when they apply."""
    synthetic = text.t("notice.synthetic.body") if context.round_.manifest.synthetic else None
    until = context.results.dates.provisional_until if context.provisional else None
    return PageHead(title, notices(text, synthetic, until, "notice.provisional.body"))


def rubric_block(context: RoundContext, text: Text, rubric_id: str, table_id: str) -> TableBlock:
    """A rubric's criteria with their three anchors (0, 3, 5)."""
    criteria = sorted(
        (c for c in context.round_.rubrics if c.rubric_id == rubric_id), key=lambda c: c.position
    )
    rows = [
        (c.name_pt if text.language == "pt-BR" else c.name_en, c.anchor_0, c.anchor_3, c.anchor_5)
        for c in criteria
    ]
    return text.block(
        table_id,
        text.t("calibration.rubric", rubric=rubric_id),
        text.headers(("criterion", "a0", "a3", "a5"), "rubric.column"),
        rows,
        numeric_from=99,
    )
