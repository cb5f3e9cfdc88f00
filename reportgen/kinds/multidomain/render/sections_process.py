"""Sections 7 to 11 of the report: process, refusals, discarded items, human audit,
calibration (section 12, contamination, is sections_integrity). Nothing here shows a
response, a judge view or a score of one response by one rater: raters appear only
aggregated."""

from __future__ import annotations

from markupsafe import Markup

from reportgen.kinds.multidomain.render.context import RoundContext, rubric_block
from reportgen.kinds.multidomain.render.page_types import Block
from reportgen.kinds.multidomain.render.sections_disclosure import (
    adjudicator_rates,
    synthetic_declaration,
)
from reportgen.kinds.multidomain.render.text import Text
from reportgen.render.text import DASH, bullets, in_language, paragraph


def process(context: RoundContext, text: Text) -> tuple[Block, ...]:
    currency = context.round_.manifest.currency
    rows = []
    for p in context.results.participants:
        m = p.process
        rows.append(
            (
                p.display_name,
                text.integer(m.n),
                text.real(m.latency_p50, 0),
                text.real(m.latency_p95, 0),
                f"{text.integer(m.timeouts)} ({text.rate(m.timeout_rate)})",
                f"{text.integer(m.errors)} ({text.rate(m.error_rate)})",
                text.exact(m.cost_per_1000, 4),
                text.rate(m.format_compliance),
                text.rate(m.language_compliance),
            )
        )
    keys = ("participant", "n", "p50", "p95", "timeouts", "errors", "cost", "format", "language")
    return (
        Markup(f'<p class="rg-not-score"><strong>{text.t("process.not_score")}</strong></p>'),
        paragraph(text.t("process.intro")),
        text.block(
            f"md-{context.round_id}-process",
            text.t("process.caption"),
            [text.t(f"process.column.{k}", currency=currency) for k in keys],
            rows,
        ),
    )


def refusals(context: RoundContext, text: Text) -> tuple[Block, ...]:
    rows = [
        (
            p.display_name,
            text.integer(p.process.refusals),
            text.integer(p.process.n),
            text.rate(p.process.refusal_rate),
        )
        for p in context.results.participants
    ]
    keys = ("participant", "refusals", "n", "refusal_rate")
    return (
        paragraph(text.t("refusals.intro")),
        text.block(
            f"md-{context.round_id}-refusals",
            text.t("refusals.caption"),
            text.headers(keys),
            rows,
        ),
    )


def discarded(context: RoundContext, text: Text) -> tuple[Block, ...]:
    rid = context.round_id
    ledger = [
        (
            a.item_id,
            text.t(f"source.{a.source}"),
            text.date(a.decided_on),
            text.pick(a.reason),
        )
        for a in context.round_.annulments
    ]
    blocks: list[Block] = [
        paragraph(text.t("discarded.intro")),
        text.tm("discarded.register", register=Markup("register.md")),
    ]
    keys = ("item", "source", "decided_on", "reason")
    blocks.append(
        text.block(
            f"md-{rid}-ledger",
            text.t("discarded.ledger"),
            text.headers(keys),
            ledger,
            numeric_from=99,
        )
    )
    variants = [
        (context.item_ref(i.variant_of, text), context.item_ref(i.item_id, text))
        for i in context.round_.items
        if i.variant_of is not None
    ]
    blocks.append(Markup(f"## {text.t('discarded.superseded')} {{ #superseded }}"))
    blocks.append(
        text.block(
            f"md-{rid}-superseded",
            text.t("discarded.superseded"),
            [text.t("column.superseded"), text.t("column.variant")],
            variants,
            numeric_from=99,
        )
    )
    responses = [
        (
            p.display_name,
            text.integer(p.process.discarded_scored),
            text.integer(p.process.discarded_unscored),
        )
        for p in context.results.participants
    ]
    blocks.append(Markup(f"## {text.t('discarded.responses')} {{ #personal-data }}"))
    blocks.append(
        text.block(
            f"md-{rid}-discarded-responses",
            text.t("discarded.responses"),
            [text.t("column.participant"), text.t("column.scored"), text.t("column.unscored")],
            responses,
        )
    )
    return tuple(blocks)


def human_audit(context: RoundContext, text: Text) -> tuple[Block, ...]:
    audit, rid = context.results.audit, context.round_id
    strata = [
        (
            context.domain_name(s.domain_id, text),
            s.language,
            text.integer(s.size),
            text.integer(len(s.drawn)),
            text.integer(s.audited_responses),
        )
        for s in audit.strata
    ]
    keys = ("domain", "language", "size", "drawn", "audited")
    # The item and its divergence only: a reviewer's score of one response (and whose
    # response it was) is never shown (report spec, "Never on the site").
    invalid = [
        (context.item_ref(d.item_id, text), text.exact(d.divergence)) for d in audit.invalidations
    ]
    return (
        paragraph(
            text.t(
                "audit.summary",
                items=text.integer(audit.audited_items),
                responses=text.integer(audit.audited_responses),
                mean=text.exact(audit.mean_divergence),
                share=text.rate(audit.share_above),
            )
        ),
        text.block(
            f"md-{rid}-audit-strata",
            text.t("audit.strata"),
            text.headers(keys),
            strata,
            numeric_from=2,
        ),
        text.block(
            f"md-{rid}-invalidated",
            text.t("audit.invalidated"),
            [text.t("column.item"), text.t("column.divergence")],
            invalid,
        ),
    )


def calibration(context: RoundContext, text: Text) -> tuple[Block, ...]:
    results, rid = context.results.calibration, context.round_id
    blocks: list[Block] = [paragraph(text.t("calibration.intro"))]
    for entry in results.items:
        item = context.item(entry.item_id)
        blocks.append(Markup(f"### {entry.item_id}"))
        blocks.append(in_language(item.prompt, item.language, block=True))
        declared = synthetic_declaration(context, text, item)
        if declared is not None:
            blocks.append(declared)
        if item.rubric_id:
            table_id = f"md-{rid}-rubric-{entry.item_id}"
            blocks.append(rubric_block(context, text, item.rubric_id, table_id))
    rates = [
        (
            e.item_id,
            e.language,
            text.integer(e.responses),
            text.rate(e.hit_rate),
            text.t("calibration.revise") if e.flagged else DASH,
        )
        for e in results.items
    ]
    keys = ("item", "language", "responses", "hit_rate", "flag")
    blocks.append(Markup(f"## {text.t('calibration.hit_rates')} {{ #hit-rates }}"))
    low, high = context.round_.manifest.calibration.hit_rate_band
    blocks.append(paragraph(text.t("calibration.hit_rates_note", low=str(low), high=str(high))))
    blocks += adjudicator_rates(context, text)
    blocks.append(
        text.block(
            f"md-{rid}-hit-rates",
            text.t("calibration.hit_rates"),
            text.headers(keys),
            rates,
            numeric_from=2,
        )
    )
    parity = [
        (lang.language, text.integer(lang.responses), text.rate(lang.hit_rate))
        for lang in results.languages
    ]
    blocks.append(
        text.block(
            f"md-{rid}-parity",
            text.t("calibration.parity"),
            [text.t("column.language"), text.t("column.responses"), text.t("column.hit_rate")],
            parity,
        )
    )
    blocks.append(
        bullets(
            [
                text.t("calibration.gap", gap=text.rate(results.parity_gap)),
                text.t("calibration.alpha", alpha=text.real(results.alpha, 3)),
                text.t("calibration.mean_diff", diff=text.exact(results.mean_abs_jury_human)),
            ]
        )
    )
    return tuple(blocks)
