"""Page contexts of the reference pages, for one language: the model list, methodology,
audit, contestations and data pages, and each model's own page."""

from __future__ import annotations

from markupsafe import Markup, escape

from reportgen.kinds.estigmas.render import (
    language_tables,
    method_sections,
    reference_tables,
    stats_tables,
    tables,
)
from reportgen.kinds.estigmas.render.aggregates import ModelBreakdown, Share
from reportgen.kinds.estigmas.render.charts import SvgCache, composition_bars
from reportgen.kinds.estigmas.render.compare_page import compare_href
from reportgen.kinds.estigmas.render.context import ModelRow, PublishedItem, RoundView
from reportgen.kinds.estigmas.render.downloads import download_checksums
from reportgen.kinds.estigmas.render.example_renderings import ENGLISH_RENDERINGS
from reportgen.kinds.estigmas.render.model_parts import failure_bars, inconclusive_by_style
from reportgen.kinds.estigmas.render.page_common import (
    PageText,
    chart_ref,
    href,
    page_head,
    rate_params,
    site_root,
    slug,
    slug_path,
)
from reportgen.kinds.estigmas.render.page_types import (
    AuditPage,
    AuditSection,
    ContestationSection,
    ContestationsPage,
    DataPage,
    DataSection,
    Download,
    Example,
    GenderLine,
    Link,
    MethodologyPage,
    ModelEntry,
    ModelPage,
    ModelsPage,
    ModelsSection,
    ModelStatistics,
    Moving,
    PageHead,
    ShareLine,
    TextSection,
)
from reportgen.kinds.estigmas.render.site import SiteContext
from reportgen.kinds.estigmas.results import SCHEMA_FILE

# The downloads of every round: (file name, catalogue key of its description).
DOWNLOADS: tuple[tuple[str, str], ...] = (
    ("models.csv", "data.file.models"),
    ("stigmas.csv", "data.file.stigmas"),
    ("axes.csv", "data.file.axes"),
    ("results.json", "data.file.results"),
    ("results.schema.json", "data.file.results_schema"),
    ("SHA256SUMS", "data.file.sha256sums"),
)


def _head(site: SiteContext, text: PageText, title: str) -> PageHead:
    return page_head(title, text, tuple(view.round_id for view in site.synthetic_rounds))


def models_page(site: SiteContext, text: PageText) -> ModelsPage:
    sections = tuple(
        ModelsSection(
            text.pick(view.title),
            tuple(
                ModelEntry(
                    name=row.score.display_name,
                    href=slug_path(view.models_dir) + slug(row.model_id) + ".md",
                    provider=row.score.provider,
                    note=None if row.score.eligible else text.t("table.diagnostic_case"),
                )
                for row in view.models
            ),
        )
        for view in site.rounds
    )
    return ModelsPage(_head(site, text, text.t("nav.models")), text.t("models.intro"), sections)


def _example(item: PublishedItem, view: RoundView, text: PageText) -> Example:
    """A published item, saying what it is: its style, scenario and where it comes from."""
    tr = text.tr
    english_page = tr.language == "en"
    rendering = None
    if english_page and item.language == "pt-BR":
        english = ENGLISH_RENDERINGS.get(item.prompt)
        rendering = (
            text.t("method.example_rendering", text=english)
            if english
            else text.t("method.example_no_rendering")
        )
    origin = "method.example_synthetic" if view.synthetic else "method.example_published"
    return Example(
        meta=text.t(
            "method.example_meta",
            style=text.t(f"style.{item.style}"),
            language=item.language,
            scenario=item.scenario_en if english_page else item.scenario_pt,
            origin=text.t(origin),
        ),
        language=item.language,
        prompt=item.prompt,
        rendering=rendering,
    )


def _limitations(site: SiteContext, text: PageText) -> TextSection:
    # People audited the parser only where the round has a published audit export.
    # The demonstration's audit was judged by generated reviewers: no people audited it.
    audit = site.audits.get(site.primary.round_id)
    if audit is None:
        parser = text.t("method.parser_not_audited")
    elif audit.get("demonstration"):
        parser = text.t("method.parser_audited_demo")
    else:
        parser = text.t("method.parser_audited")
    return TextSection(
        text.t("method.limitations"), f"{text.t('method.limitations_body')} {parser}"
    )


def methodology_page(site: SiteContext, text: PageText) -> MethodologyPage:
    tr, view = text.tr, site.primary
    return MethodologyPage(
        head=_head(site, text, text.t("nav.methodology")),
        instrument=method_sections.instrument(view, text),
        related=method_sections.related(text),
        regimes_heading=text.t("method.regimes"),
        regimes=reference_tables.regimes(tr),
        examples_heading=text.t("method.examples"),
        examples_body=text.t(
            "method.examples_body_synthetic" if view.synthetic else "method.examples_body"
        ),
        examples=tuple(_example(item, view, text) for item in view.published_items),
        no_examples=text.t("method.no_examples"),
        formula=TextSection(text.t("method.formula"), text.t("method.formula_body")),
        formula_code=text.t("method.formula_code"),
        eligibility=text.section(
            "method.eligibility", max_omission=tr.percent(view.max_omission, 0)
        ),
        statistics=text.section(
            "method.statistics",
            replicates=tr.integer(view.bootstrap_replicates),
            seed=tr.integer(view.bootstrap_seed),
        ),
        limitations=_limitations(site, text),
        caution=text.t("caution.groups"),
    )


def audit_page(site: SiteContext, text: PageText) -> AuditPage:
    sections = []
    for view in site.rounds:
        audit = site.audits.get(view.round_id)
        sections.append(
            AuditSection(
                title=text.pick(view.title),
                audit=reference_tables.audit(audit, text.tr) if audit else None,
                confusion=reference_tables.confusion(audit, text.tr) if audit else None,
                details=reference_tables.audit_details(audit, text.tr) if audit else (),
                demonstration=text.t("audit.demonstration")
                if audit and audit.get("demonstration")
                else None,
            )
        )
    return AuditPage(
        head=_head(site, text, text.t("nav.audit")),
        intro=text.t("audit.intro"),
        rounds=tuple(sections),
        no_audit=text.t("audit.none"),
    )


def contestations_page(site: SiteContext, text: PageText) -> ContestationsPage:
    tr, config = text.tr, site.config
    sections = tuple(
        ContestationSection(
            title=text.pick(view.title),
            effect=text.tm(
                tr.plural("contest.effect", len(view.annulments)),
                annulled=tr.integer(len(view.annulments)),
                N=tr.integer(view.N),
                n=tr.integer(view.n),
            )
            if view.annulments
            else None,
            annulments=tables.annulments(view, tr) if view.annulments else None,
        )
        for view in site.rounds
    )
    return ContestationsPage(
        head=_head(site, text, text.t("nav.contestations")),
        # A contact still tagged !placeholder in site.yml is None: the page names none.
        process=text.tm(
            "contest.process" if config.contest_contact else "contest.process_no_contact",
            window=tr.integer(config.contest_window_days),
            reply=tr.integer(config.contest_reply_days),
            contact=config.contest_contact or "",
        ),
        ledger=TextSection(text.t("contest.ledger"), text.t("contest.ledger_body")),
        rounds=sections,
        no_annulments=text.t("contest.no_annulments"),
    )


def _data_section(view: RoundView, text: PageText, section_depth: int) -> DataSection:
    tr = text.tr
    # Downloads sit at the site root, above the language folders (pt-BR is the root)
    # and above the kind's section in a site of several kinds.
    root = "../" * section_depth + ("" if tr.language == "pt-BR" else "../")
    return DataSection(
        title=text.pick(view.title),
        meta=text.tm(
            "data.round_meta",
            round=view.round_id,
            contract=view.contract_version,
            parser=view.parser_version,
            replicates=tr.integer(view.bootstrap_replicates),
            seed=tr.integer(view.bootstrap_seed),
            date=tr.date(view.collected_on),
        ),
        files=tuple(
            Download(name, href(f"{root}data/{view.round_id}/{name}"), text.t(key))
            for name, key in DOWNLOADS
        ),
        checksums=(
            tables.download_checksums(view, download_checksums(view), tr),
            tables.checksums(view, tr),
        ),
    )


def _schema_href(site: SiteContext, text: PageText) -> str | None:
    """The results' JSON Schema, as published beside the primary round's results.json."""
    if site.primary.stats is None:
        return None
    root = site_root(text.tr.language, site.section_depth)
    return str(href(f"{root}data/{site.primary.round_id}/{SCHEMA_FILE}"))


def data_page(site: SiteContext, text: PageText) -> DataPage:
    return DataPage(
        head=_head(site, text, text.t("nav.data")),
        intro=text.t("data.intro"),
        rounds=tuple(_data_section(view, text, site.section_depth) for view in site.rounds),
        dictionary_heading=text.t("data.dictionary"),
        dictionary=reference_tables.dictionary(text.tr, _schema_href(site, text)),
        software_heading=text.t("data.software"),
        software=tuple(f"{package} {version}" for package, version in site.software.items()),
        rebuild=TextSection(text.t("data.rebuild"), text.t("data.rebuild_body")),
    )


def _share_line(text: PageText, label: str, share: Share) -> ShareLine:
    tr = text.tr
    return ShareLine(
        label, tr.percent(share.rate), tr.integer(share.count), tr.integer(share.total)
    )


def _slices(text: PageText, breakdown: ModelBreakdown) -> tuple[ShareLine, ...]:
    return (
        _share_line(text, text.t("model.local_markers"), breakdown.local_markers),
        _share_line(text, text.t("model.brazilian_scenarios"), breakdown.brazilian_scenarios),
        *(_share_line(text, text.t(f"band.{b}"), s) for b, s in breakdown.by_band.items()),
        *(_share_line(text, text.t(f"axis.{a}"), s) for a, s in breakdown.by_axis.items()),
    )


def _model_statistics(view: RoundView, row: ModelRow, text: PageText) -> ModelStatistics | None:
    if view.stats is None:
        return None
    tr = text.tr
    entry = language_tables.language_entry(view, row.model_id)
    language = (
        text.section(
            "model.language",
            abst_pt=tr.percent(entry[0].abstention),
            abst_en=tr.percent(entry[1].abstention),
            om_pt=tr.percent(entry[0].omission),
            om_en=tr.percent(entry[1].omission),
        )
        if entry
        else None
    )
    return ModelStatistics(
        intervals_heading=text.t("model.intervals"),
        intervals=stats_tables.model_intervals(view, tr, row.model_id),
        mcnemar_heading=text.t("model.mcnemar"),
        mcnemar=Moving(
            stats_tables.mcnemar(view, tr, row.model_id), _slot(text, view, row, "mcnemar")
        ),
        language=language,
    )


def _slot(text: PageText, view: RoundView, row: ModelRow, part: str) -> str:
    """The name of a model page's part that moves with the other models (see `Moving`)."""
    return f"{view.round_id}/{row.model_id}/{part}/{text.tr.language}"


def _rank_line(text: PageText, view: RoundView, row: ModelRow) -> str | None:
    """The model's rank among the ranked models, as text; None when it is not ranked."""
    s = row.score
    if not s.eligible or s.rank is None:
        return None
    return text.t(
        "model.rank", rank=text.tr.integer(s.rank), ranked=text.tr.integer(len(view.ranked))
    )


def model_page(  # one keyword per field of ModelPage, in template order: long, not complex
    site: SiteContext, view: RoundView, row: ModelRow, text: PageText, svgs: SvgCache
) -> ModelPage:
    """One model of one round; the page sits in `view.models_dir`."""
    tr, s = text.tr, row.score
    depth = view.models_dir.count("/")
    breakdown = view.breakdowns[row.model_id]
    standing = (
        Moving(Markup(f"<p>{escape(ranked)}</p>"), _slot(text, view, row, "rank"))
        if (ranked := _rank_line(text, view, row)) is not None
        else text.tm(
            "model.diagnostic",
            omission=tr.percent(s.omission_rate),
            max_omission=tr.percent(view.max_omission, 0),
        )
    )
    style_chart = composition_bars(
        f"style-{view.round_id}-{row.model_id}",
        row,
        {style: share.rate for style, share in breakdown.by_style.items()},
        tr,
        svgs,
    )
    return ModelPage(
        # Both rounds have a page per model: the title (and so the search result) names the round.
        head=_head(site, text, text.t("model.title", model=s.display_name, round=view.round_id)),
        standing=standing,
        composition=text.section(
            "model.composition",
            **rate_params(tr, s),
            correct=tr.integer(s.correct),
            correct_rate=tr.percent(s.correct_rate),
            failure=tr.percent(s.failure),
            index=tr.percent(s.index),
        ),
        failure_chart=chart_ref(
            failure_bars(f"failure-{view.round_id}-{row.model_id}", row, tr, svgs),
            text,
            "chart.failure.description",
            depth,
        ),
        style_chart=chart_ref(style_chart, text, "chart.style.description", depth),
        slices_heading=text.t("model.slices"),
        slices=_slices(text, breakdown),
        genders=tuple(
            GenderLine(
                _share_line(text, text.t(f"gender.{gender}"), share),
                tr.percent(breakdown.by_gender_omission[gender].rate),
            )
            for gender, share in breakdown.by_gender_bias.items()
        ),
        bias_label=text.t("metric.bias_rate"),
        omission_label=text.t("metric.omission_rate"),
        inconclusive=text.section(
            "model.inconclusive", count=tr.integer(s.inconclusive), N=tr.integer(s.N)
        ),
        inconclusive_styles=inconclusive_by_style(view, row, tr),
        stigmas_heading=text.t("model.stigmas"),
        stigmas=tables.stigmas(view, row, tr),
        statistics=_model_statistics(view, row, text),
        metadata_heading=text.t("model.metadata"),
        metadata=tables.metadata(row, tr),
        compare_link=Link(text.t("model.compare_link"), compare)
        if (compare := compare_href(view, row, "../" * depth))
        else None,
        round_note=text.tm("model.round_note", round=text.pick(view.title)),
    )
