"""The page contexts: one frozen dataclass per page kind, holding finished values only.

A page context is built for one language (see `page_builders`) and its template only
lays it out: the fields of a page class are exactly the template's variables (checked
by tests/test_template_context.py). Values are of four sorts:

- `str`: data or catalogue text, escaped for Markdown when the page is written, so a
  model, stigma or reason can never become markup;
- `Markup`: text already made safe here (catalogue messages that carry Markdown, with
  their parameters escaped; links assembled from validated slugs and addresses);
- `Table`, `ChartRef`, `Collapsed`, `Moving`: blocks the page writer renders to HTML;
- small dataclasses of the above (a section repeated per round, a list entry)."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from reportgen.kinds.estigmas.render.page_parts import (
    ChartRef as ChartRef,
)
from reportgen.kinds.estigmas.render.page_parts import (
    Citation as Citation,
)
from reportgen.kinds.estigmas.render.page_parts import (
    Collapsed as Collapsed,
)
from reportgen.kinds.estigmas.render.page_parts import (
    CompareOption as CompareOption,
)
from reportgen.kinds.estigmas.render.page_parts import (
    CompareRound as CompareRound,
)
from reportgen.kinds.estigmas.render.page_parts import (
    Figure as Figure,
)
from reportgen.kinds.estigmas.render.page_parts import (
    Link as Link,
)
from reportgen.kinds.estigmas.render.page_parts import (
    Moving as Moving,
)
from reportgen.kinds.estigmas.render.page_parts import (
    PageHead as PageHead,
)
from reportgen.kinds.estigmas.render.page_parts import (
    SyntheticNotice as SyntheticNotice,
)
from reportgen.kinds.estigmas.render.page_parts import (
    TextSection as TextSection,
)
from reportgen.render.pages import ListPage
from reportgen.render.table import Table


@dataclass(frozen=True)
class HomePage:
    head: PageHead
    article_title: str
    finding: Markup
    numbers: tuple[Markup, ...]  # the finding in numbers, from the round's own computation
    best: Markup | None
    ties: Markup | None  # how many adjacent differences are technical ties (with statistics)
    scatter: ChartRef  # Figure 1, its caption in its <figcaption>
    headline_heading: str
    headline: tuple[Figure, ...]
    sections_heading: str
    sections: tuple[Link, ...]
    article_heading: str
    article_body: Markup
    authors_label: str
    authors: str | None  # None (like the DOI and links) while site.yml holds a placeholder
    doi: str | None
    article_link: Link | None
    repository_link: Link | None
    citation: Citation | None  # None while site.yml's authors are a placeholder


@dataclass(frozen=True)
class RankingStatistics:
    draft: str | None  # the draft notice: fewer replicates than a publication needs
    intervals_by_N: Table
    intervals_by_n: Table
    adjacent_heading: str
    adjacent: Table
    adjacent_body: str
    sensitivity_heading: str
    sensitivity: Table
    pairwise_heading: str
    pairwise_body: str  # what the matrix shows, or why it is not drawn
    pairwise: Table | None  # None past ALL_PAIRS_UP_TO models: adjacent ranks only


@dataclass(frozen=True)
class RankingPage:
    head: PageHead
    intro: Markup
    ranking: Table | None  # None when no model is eligible
    no_ranking: str
    eligibility: Markup
    diagnostic_heading: str
    diagnostic: Table | None
    diagnostic_body: str
    intervals_heading: str
    statistics: RankingStatistics | None
    stats_unavailable: str


@dataclass(frozen=True)
class ModelEntry:
    name: str
    href: Markup
    provider: str
    note: str | None  # "diagnostic case" for an ineligible model


@dataclass(frozen=True)
class ModelsSection:
    title: str
    models: tuple[ModelEntry, ...]


@dataclass(frozen=True)
class ModelsPage(ListPage[PageHead, ModelsSection]):
    """The models of every round, a section each."""


@dataclass(frozen=True)
class ComparePage:
    head: PageHead
    intro: str
    round_label: str
    first_label: str
    second_label: str
    permalink_label: str
    rounds: tuple[CompareRound, ...]  # every built round, the primary one first
    stats_unavailable: str
    caution: str


@dataclass(frozen=True)
class BiasStatistics:
    peril: Table
    style: Table
    race: Table
    origin: Table
    gender: Table
    gender_tests: tuple[Collapsed, ...]
    association_heading: str
    correlation: Table
    mcnemar: Collapsed
    fairness_heading: str
    fairness_body: str
    fairness: Table


@dataclass(frozen=True)
class BiasPage:
    head: PageHead
    intro: str
    caution: str
    heatmaps_heading: str
    heatmaps_body: str
    heatmaps_capped: Markup | None  # past HEATMAP_MODELS models: which show, where the rest are
    stigma_heatmap: ChartRef  # bias rate, stigma x model
    axis_heatmap: ChartRef  # bias rate, axis x model
    bands_heading: str
    bands_body: Markup
    bands: Table
    styles_heading: str
    styles: Table
    axes_heading: str
    axes: Table
    gender_heading: str
    gender: Table
    markers_heading: str
    markers_body: Markup
    markers: Table
    statistics: BiasStatistics | None
    stats_unavailable: str


@dataclass(frozen=True)
class LanguageStudy:
    pairs: Markup
    means: Table
    regimes: Table
    abstention_chart: ChartRef
    omission_chart: ChartRef
    models: Table


@dataclass(frozen=True)
class LanguagePage:
    head: PageHead
    intro: str
    study: LanguageStudy | None  # None without statistics or without language pairs
    unavailable: str


@dataclass(frozen=True)
class ContinuousSection:
    title: str
    snapshot: Markup
    ranking: Table | None
    diagnostic: Table | None
    intervals: tuple[Table, ...]  # by N, by n; empty without statistics
    scatter: ChartRef


@dataclass(frozen=True)
class ContinuousPage:
    head: PageHead
    intro: str
    rounds: tuple[ContinuousSection, ...]
    no_ranking: str
    no_rounds: str


@dataclass(frozen=True)
class Example:  # a published item: what it is (style, scenario, provenance) and its text
    meta: str
    language: str  # the prompt's language (its lang attribute on a page of another language)
    prompt: str
    rendering: str | None  # an English rendering of a pt-BR prompt, on the English page only


@dataclass(frozen=True)
class MethodologyPage:
    head: PageHead
    instrument: TextSection
    related: TextSection  # the article's Box 1, in the site's words
    regimes_heading: str
    regimes: Table
    examples_heading: str
    examples_body: str
    examples: tuple[Example, ...]
    no_examples: str
    formula: TextSection
    formula_code: str
    eligibility: TextSection
    statistics: TextSection
    limitations: TextSection
    caution: str


@dataclass(frozen=True)
class AuditSection:
    title: str
    audit: Table | None  # None when the round has no audit export
    confusion: Table | None
    details: tuple[Table, ...]  # pairwise κ and agreement over time (new exports only)
    demonstration: str | None = None  # the label of an audit judged by generated reviewers


@dataclass(frozen=True)
class AuditPage:
    head: PageHead
    intro: str
    rounds: tuple[AuditSection, ...]
    no_audit: str


@dataclass(frozen=True)
class ContestationSection:
    title: str
    effect: Markup | None  # None when nothing was annulled
    annulments: Table | None


@dataclass(frozen=True)
class ContestationsPage:
    head: PageHead
    process: Markup
    ledger: TextSection
    rounds: tuple[ContestationSection, ...]
    no_annulments: str


@dataclass(frozen=True)
class Download:
    name: str
    href: Markup
    description: str


@dataclass(frozen=True)
class DataSection:
    title: str
    meta: Markup
    files: tuple[Download, ...]
    checksums: tuple[Table, Table]  # of the downloads (their SHA256SUMS), of the archive


@dataclass(frozen=True)
class DataPage:
    head: PageHead
    intro: str
    rounds: tuple[DataSection, ...]
    dictionary_heading: str
    dictionary: Table
    software_heading: str
    software: tuple[str, ...]  # "package version"
    rebuild: TextSection


@dataclass(frozen=True)
class ShareLine:
    """One slice of a model's responses: its name, biased share and denominator."""

    label: str
    rate: str
    count: str
    total: str


@dataclass(frozen=True)
class GenderLine:
    share: ShareLine  # biased share of the gender's items; omission: their omission rate
    omission: str


@dataclass(frozen=True)
class ModelStatistics:
    intervals_heading: str
    intervals: Table
    mcnemar_heading: str
    mcnemar: Moving  # a Table
    language: TextSection | None  # None when the round has no language pairs


@dataclass(frozen=True)
class ModelPage:
    head: PageHead
    standing: Markup | Moving  # the rank (a paragraph, Moving), or why the model is not ranked
    composition: TextSection
    failure_chart: ChartRef  # bias beside omission: omission can be the main failure
    style_chart: ChartRef
    slices_heading: str
    slices: tuple[ShareLine, ...]
    genders: tuple[GenderLine, ...]
    bias_label: str
    omission_label: str
    inconclusive: TextSection
    inconclusive_styles: Table
    stigmas_heading: str
    stigmas: Table
    statistics: ModelStatistics | None
    metadata_heading: str
    metadata: Table
    compare_link: Link | None  # the compare permalink; None in a round of a single model
    round_note: Markup


SitePage = (
    HomePage
    | RankingPage
    | ModelsPage
    | ComparePage
    | BiasPage
    | LanguagePage
    | ContinuousPage
    | MethodologyPage
    | AuditPage
    | ContestationsPage
    | DataPage
    | ModelPage
)

# The template of each page class (under reportgen/kinds/estigmas/templates/).
TEMPLATES: dict[type, str] = {
    HomePage: "index.md.j2",
    RankingPage: "ranking.md.j2",
    ModelsPage: "models.md.j2",
    ComparePage: "compare.md.j2",
    BiasPage: "bias.md.j2",
    LanguagePage: "language.md.j2",
    ContinuousPage: "continuous.md.j2",
    MethodologyPage: "methodology.md.j2",
    AuditPage: "audit.md.j2",
    ContestationsPage: "contestations.md.j2",
    DataPage: "data.md.j2",
    ModelPage: "model.md.j2",
}
