"""Parts 4, 5 and 6 of the report: per-name values and the placebo, before/after (only
with a baseline round), and the judge's calibration."""

from __future__ import annotations

from fractions import Fraction

from reportgen.kinds.counterfactual.render.context import RoundContext
from reportgen.kinds.counterfactual.render.page_types import Block
from reportgen.kinds.counterfactual.render.sections_tables import fraction, ordered_rows
from reportgen.kinds.counterfactual.render.text import Text, exact_cell, heading
from reportgen.kinds.counterfactual.results import JudgeCalibration, Regression, SystemResults
from reportgen.render.pages import TableBlock
from reportgen.render.table import Cell, Estimate, ValueText
from reportgen.render.text import paragraph


def _names_block(
    context: RoundContext, system: SystemResults, attribute_id: str, text: Text
) -> TableBlock | None:
    rows = ordered_rows(system, attribute_id)
    body: list[tuple[str | Cell, ...]] = []
    for row in rows:
        binary = row.type == "binary"
        variable = context.variable_name(row.variable_id, text)
        for name in row.names:
            value = fraction(name.value)
            body.append(
                (
                    variable,
                    context.group_name(name.group_id, text),
                    context.variant_label(name.variant_id, text),
                    str(name.position),
                    exact_cell(text.value(value, binary), value),
                    text.integer(name.n),
                )
            )
    if not body:
        return None
    header = [
        text.t(f"placebo.column.{key}")
        for key in ("variable", "group", "name", "position", "value", "n")
    ]
    caption = text.t(
        "placebo.caption",
        system=context.system_name(system.model_id, text),
        attribute=context.attribute_name(attribute_id, text),
    )
    table_id = f"cf-{context.round_id}-names-{system.model_id}-{attribute_id}"
    return text.block(table_id, caption, header, body, numeric_from=3)


def _placebo_gaps(context: RoundContext, system: SystemResults, text: Text) -> TableBlock:
    body: list[tuple[str | Cell, ...]] = []
    for attribute in context.round_.attributes:
        for row in ordered_rows(system, attribute.attribute_id):
            binary = row.type == "binary"
            placebo_gap, gap = fraction(row.placebo.gap), fraction(row.demographic_parity.gap)
            body.append(
                (
                    context.attribute_name(row.attribute_id, text),
                    context.variable_name(row.variable_id, text),
                    exact_cell(text.gap(placebo_gap, binary), placebo_gap),
                    exact_cell(text.gap(gap, binary), gap),
                    text.yes_no(row.name_carried)
                    if context.carries_names(row.attribute_id)
                    else text.t("number.none"),
                )
            )
    header = [
        text.t(f"placebo.column.{key}")
        for key in ("attribute", "variable", "placebo_gap", "gap", "warning")
    ]
    caption = text.t("placebo.gaps_caption", system=context.system_name(system.model_id, text))
    table_id = f"cf-{context.round_id}-placebo-{system.model_id}"
    return text.block(table_id, caption, header, body, numeric_from=2)


def placebo(context: RoundContext, text: Text) -> tuple[Block, ...]:
    blocks: list[Block] = [paragraph(text.t("placebo.intro"))]
    for system in context.results.systems:
        blocks.append(
            heading(context.system_name(system.model_id, text), f"placebo-{system.model_id}")
        )
        blocks.append(_placebo_gaps(context, system, text))
        for attribute in context.round_.attributes:
            names = _names_block(context, system, attribute.attribute_id, text)
            if names is not None:
                blocks.append(names)
    return tuple(blocks)


def _regression_block(context: RoundContext, view: Regression, text: Text) -> TableBlock:
    body: list[tuple[str | Cell, ...]] = []
    for row in view.rows:
        binary = row.type == "binary"
        lo, hi = (None, None) if row.interval is None else (row.interval.lo, row.interval.hi)
        shown_change = text.change(fraction(row.gap_before), fraction(row.gap_after), binary)
        shown = " ".join(f"{shown_change} {text.gap_interval(lo, hi, binary)}".split())
        change = ValueText(shown, Estimate(fraction(row.change), lo, hi))
        before, after = fraction(row.gap_before), fraction(row.gap_after)
        body.append(
            (
                context.attribute_name(row.attribute_id, text),
                context.variable_name(row.variable_id, text),
                exact_cell(text.gap(before, binary), before),
                exact_cell(text.gap(after, binary), after),
                # With its interval (three CSV columns), the exact change as its tooltip.
                exact_cell(change, fraction(row.change)),
                text.flag(row.flag_before) if binary else text.t("number.none"),
                text.flag(row.flag_after) if binary else text.t("number.none"),
                text.yes_no(row.exceeds_before),
                text.yes_no(row.exceeds_after),
            )
        )
    header = [
        text.t(f"regression.column.{key}")
        for key in (
            "attribute",
            "variable",
            "before",
            "after",
            "change",
            "flag_before",
            "flag_after",
            "exceeds_before",
            "exceeds_after",
        )
    ]
    caption = text.t(
        "regression.caption",
        system=context.system_name(view.model_id, text, view.display_name),
        baseline_system=context.system_name(
            view.baseline_model_id, text, view.baseline_display_name
        ),
    )
    table_id = f"cf-{context.round_id}-regression-{view.model_id}"
    return text.block(table_id, caption, header, body, numeric_from=2)


def regression(context: RoundContext, text: Text) -> tuple[Block, ...]:
    results = context.results
    if results.baseline_round is None:
        return (paragraph(text.t("regression.absent")),)
    blocks: list[Block] = [paragraph(text.t("regression.intro", baseline=results.baseline_round))]
    if results.baseline_preregistration_differs:
        blocks.append(paragraph(text.t("regression.prereg_differs")))
    if any(row.templates_differ for view in results.regression for row in view.rows):
        blocks.append(paragraph(text.t("regression.templates_differ")))
    blocks += [_regression_block(context, view, text) for view in results.regression]
    return tuple(blocks)


def _calibration_facts(context: RoundContext, judge: JudgeCalibration, text: Text) -> TableBlock:
    items = text.t(
        "calibration.items_value", n=text.integer(judge.n), minimum=text.integer(judge.min_items)
    )
    if judge.below_guide_minimum:
        items += f" — {text.t('calibration.below_guide')}"
    metric = text.t(
        "calibration.metric_value",
        metric=text.t(f"metric.{judge.metric}"),
        threshold=text.exact(judge.threshold.fraction, 2),
    )
    kappa, alpha = fraction(judge.kappa), fraction(judge.alpha)
    agreement, mad = fraction(judge.exact_agreement), fraction(judge.mean_absolute_difference)
    rows: list[tuple[str, str | Cell]] = [
        (text.t("calibration.items"), items),
        (text.t("calibration.metric"), metric),
        (
            text.t("calibration.result"),
            text.t("calibration.pass" if judge.passes else "calibration.fail"),
        ),
        (text.t("calibration.kappa"), exact_cell(text.exact(kappa), kappa)),
        (text.t("calibration.alpha"), exact_cell(text.exact(alpha), alpha)),
        (text.t("calibration.agreement"), exact_cell(text.rate(agreement), agreement)),
        (text.t("calibration.mad"), exact_cell(text.exact(mad, 2), mad)),
        (text.t("calibration.spearman"), text.real(judge.spearman)),
    ]
    name = context.variable_name(judge.variable_id, text)
    table_id = f"cf-{context.round_id}-calibration-{judge.variable_id}"
    header = (text.t("tables.column.row"), text.t("tables.column.value"))
    caption = text.t("calibration.caption", variable=name)
    return text.block(table_id, caption, header, rows, numeric_from=99)


def _calibration_tables(context: RoundContext, judge: JudgeCalibration, text: Text) -> list[Block]:
    name = context.variable_name(judge.variable_id, text)
    scale = [str(s) for s in range(judge.scale_min, judge.scale_max + 1)]
    matrix = [(score, *map(str, counts)) for score, counts in zip(scale, judge.table, strict=True)]
    rid, vid = context.round_id, judge.variable_id
    groups = [
        (
            context.attribute_name(g.attribute_id or "", text),
            context.group_name(g.key, text),
            text.integer(g.count),
        )
        for g in judge.per_group
    ]
    return [
        text.block(
            f"cf-{rid}-calibration-{vid}-matrix",
            text.t("calibration.matrix", variable=name),
            (text.t("calibration.matrix_corner"), *scale),
            matrix,
        ),
        text.block(
            f"cf-{rid}-calibration-{vid}-groups",
            text.t("calibration.groups", variable=name),
            [text.t(f"calibration.column.{k}") for k in ("attribute", "group", "items")],
            groups,
            numeric_from=2,
        ),
    ]


def calibration(context: RoundContext, text: Text) -> tuple[Block, ...]:
    """The judge's calibration and its mask audit, then people's extraction check."""
    return (*_judge(context, text), *_extraction_check(context, text))


def _extraction_check(context: RoundContext, text: Text) -> list[Block]:
    """Agreement per checked variable (binary, or a model's count) with n and its Wilson
    interval; which counts are not checked (made by code); which variables left."""
    checks = context.results.extraction_checks
    blocks: list[Block] = [heading(text.t("extraction.heading"), "extraction-check")]
    if not checks:
        return [*blocks, paragraph(text.t("extraction.absent"))]
    rows = [
        (
            context.variable_name(c.variable_id, text),
            text.integer(c.n),
            text.rate(fraction(c.agreement)),
            f"{_percent(c.interval_lo, text)} – {_percent(c.interval_hi, text)}",
            text.rate(fraction(c.threshold)),
            text.t("calibration.pass" if c.passes else "calibration.fail"),
        )
        for c in checks
    ]
    keys = ("variable", "n", "agreement", "interval", "threshold", "result")
    header = [text.t(f"extraction.column.{key}") for key in keys]
    removed = [context.variable_name(c.variable_id, text) for c in checks if not c.passes]
    # A count made by code is what its program defines: not checked (extraction_check).
    by_code = [
        context.variable_name(v.variable_id, text)
        for v in context.round_.variables
        if v.type == "count" and v.extractor == "code"
    ]
    return [
        *blocks,
        paragraph(text.t("extraction.intro")),
        *(
            [paragraph(text.t("extraction.code_counts", variables=", ".join(by_code)))]
            if by_code
            else []
        ),
        text.block(
            f"cf-{context.round_id}-extraction-check", text.t("extraction.caption"), header, rows
        ),
        paragraph(
            text.t("extraction.removed", variables=", ".join(removed))
            if removed
            else text.t("extraction.none_removed")
        ),
    ]


def _percent(value: float | None, text: Text) -> str:
    return text.rate(None if value is None else Fraction(repr(value)))


def _judge(context: RoundContext, text: Text) -> tuple[Block, ...]:
    if not context.results.calibration:
        return (paragraph(text.t("calibration.absent")),)
    blocks: list[Block] = [paragraph(text.t("calibration.intro"))]
    for judge in context.results.calibration:
        blocks.append(
            heading(
                context.variable_name(judge.variable_id, text), f"calibration-{judge.variable_id}"
            )
        )
        blocks.append(_calibration_facts(context, judge, text))
        blocks += _calibration_tables(context, judge, text)
    return (*blocks, *_mask_audit(context, text))


def _mask_audit(context: RoundContext, text: Text) -> list[Block]:
    """The mask audit's outcome: how many judge scores a leaked mask voided, and which."""
    results = context.results
    decided = len(context.round_.mask_audit)
    blocks: list[Block] = [
        heading(text.t("mask_audit.heading"), "mask-audit"),
        paragraph(
            text.t(
                "mask_audit.summary",
                decided=text.integer(decided),
                voided=text.integer(results.counts.voided_scores),
            )
        ),
    ]
    if not results.voided_scores:
        return blocks
    rows = [
        (
            context.variable_name(v.variable_id, text),
            context.system_name(v.model_id, text),
            v.item_id,
            str(v.run),
            v.ref,
        )
        for v in results.voided_scores
    ]
    header = [
        text.t(f"mask_audit.column.{k}") for k in ("variable", "system", "item", "run", "ref")
    ]
    table_id = f"cf-{context.round_id}-mask-audit"
    blocks.append(text.block(table_id, text.t("mask_audit.caption"), header, rows, numeric_from=99))
    return blocks
