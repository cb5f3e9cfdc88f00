"""The round-level sections of the results object: judge calibration (§9), the removed
templates, the attributes and the before/after view (§11)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from reportgen.kinds._fields import same_named
from reportgen.kinds.counterfactual.extraction_check import agreement_counts, checked_variables
from reportgen.kinds.counterfactual.model import DEFAULT_MIN_ITEMS, Round
from reportgen.kinds.counterfactual.results._schema import (
    AttributeSummary,
    ExtractionAgreement,
    JudgeCalibration,
    Regression,
    RegressionRow,
    RemovedTemplate,
    ScoreCount,
)
from reportgen.kinds.counterfactual.results._values import Exact, Interval, exact
from reportgen.kinds.counterfactual.score import AttributeCells
from reportgen.kinds.counterfactual.stats import bootstrap
from reportgen.kinds.counterfactual.stats.calibration import agreement, passes
from reportgen.kinds.counterfactual.stats.regression import Comparable, change, comparable
from reportgen.stats import rate


def calibration_section(round_: Round) -> tuple[JudgeCalibration, ...]:
    """Every judged score variable, variables.csv order; all systems pooled."""
    plan = round_.manifest.preregistration.calibration
    variant_group = {v.variant_id: v.group_id for v in round_.variants}
    group_attribute = {g.group_id: g.attribute_id for g in round_.groups}
    item_group = {i.item_id: variant_group.get(i.variant_id, "") for i in round_.items}
    found = []
    for variable in round_.variables:
        if not variable.judged_score or variable.scale is None:
            continue
        rows = [r for r in round_.calibration if r.variable_id == variable.variable_id]
        measured = agreement(
            [r.human_score for r in rows], [r.judge_score for r in rows], variable.scale
        )
        value = measured.metric(plan.metric)
        by_group = Counter(item_group.get(r.item_id, "") for r in rows)
        by_system = Counter(r.model_id for r in rows)
        found.append(
            JudgeCalibration(
                variable_id=variable.variable_id,
                n=measured.n,
                min_items=plan.min_items,
                below_guide_minimum=plan.min_items < DEFAULT_MIN_ITEMS,
                metric=plan.metric,
                threshold=Exact.of(plan.threshold),
                metric_value=exact(value),
                passes=passes(value, plan.threshold),
                kappa=exact(measured.kappa),
                alpha=exact(measured.alpha),
                exact_agreement=exact(measured.exact_agreement),
                mean_absolute_difference=exact(measured.mean_absolute_difference),
                spearman=measured.spearman,
                scale_min=variable.scale[0],
                scale_max=variable.scale[1],
                table=measured.table,
                per_group=tuple(
                    ScoreCount(
                        key=g.group_id,
                        attribute_id=group_attribute[g.group_id],
                        count=by_group[g.group_id],
                    )
                    for g in round_.groups
                    if by_group[g.group_id]
                ),
                per_system=tuple(
                    ScoreCount(key=m.model_id, attribute_id=None, count=by_system[m.model_id])
                    for m in round_.models
                    if by_system[m.model_id]
                ),
            )
        )
    return tuple(found)


def failed_variables(
    calibration: Sequence[JudgeCalibration | ExtractionAgreement],
) -> frozenset[str]:
    return frozenset(entry.variable_id for entry in calibration if not entry.passes)


def extraction_section(round_: Round) -> tuple[ExtractionAgreement, ...]:
    """People's check of each checked variable's extractions (issue 21), all systems
    pooled, variables.csv order; empty when the round declares no check."""
    plan = round_.manifest.preregistration.extraction_check
    if plan is None:
        return ()
    from statsmodels.stats.proportion import proportion_confint  # only when declared

    counts = agreement_counts(round_)
    found = []
    for variable in checked_variables(round_):
        n, agreeing = counts.get(variable.variable_id, (0, 0))
        share = rate(agreeing, n)
        lo, hi = proportion_confint(agreeing, n, alpha=0.05, method="wilson") if n else (None, None)
        found.append(
            ExtractionAgreement(
                variable_id=variable.variable_id,
                n=n,
                agreeing=agreeing,
                agreement=exact(share),
                interval_lo=None if lo is None else float(lo),
                interval_hi=None if hi is None else float(hi),
                min_items=plan.min_items,
                threshold=Exact.of(plan.threshold),
                passes=share is not None and share >= plan.threshold,
            )
        )
    return tuple(found)


def removed_templates(attributes: Sequence[AttributeCells]) -> tuple[RemovedTemplate, ...]:
    return tuple(
        RemovedTemplate(attribute_id=a.attribute_id, template_id=t, item_ids=items)
        for a in attributes
        for t, items in a.removed
    )


def attribute_summaries(attributes: Sequence[AttributeCells]) -> tuple[AttributeSummary, ...]:
    return tuple(
        AttributeSummary(
            **same_named(a, "attribute_id positions"), groups=a.group_ids, templates=a.template_ids
        )
        for a in attributes
    )


def _interval(found: bootstrap.Interval | None) -> Interval | None:
    if found is None:
        return None
    return Interval(lo=found.lo, hi=found.hi, kept=found.kept, left_out=found.left_out)


def _regression_rows(
    round_: Round, view: Comparable, model_id: str, baseline_model_id: str
) -> list[RegressionRow]:
    plans = round_.manifest.preregistration.variables
    rows = []
    for variable in round_.variables:
        plan = plans[variable.variable_id]
        moved = change(
            view,
            model_id,
            baseline_model_id,
            variable.variable_id,
            binary=variable.type == "binary",
            criterion=plan.criterion,
            acceptable=plan.acceptable_difference,
        )
        rows.append(
            RegressionRow(
                attribute_id=view.after.attribute_id,
                variable_id=variable.variable_id,
                level=variable.level,
                type=variable.type,
                criterion=plan.criterion,
                gap_before=exact(moved.gap_before),
                gap_after=exact(moved.gap_after),
                change=exact(moved.change),
                interval=_interval(moved.interval),
                flag_before=moved.flag_before,
                flag_after=moved.flag_after,
                exceeds_before=moved.exceeds_before,
                exceeds_after=moved.exceeds_after,
                templates=view.after.template_ids,
                templates_differ=view.templates_differ,
            )
        )
    return rows


def regression_section(
    round_: Round,
    baseline: Round,
    attributes: Sequence[AttributeCells],
    baseline_attributes: Sequence[AttributeCells],
    draws: Sequence[bootstrap.Draws],
) -> tuple[Regression, ...]:
    """Every system with a baseline system, models.csv order (a baseline system absent
    from the baseline round is verify's refusal 14, and has no view here)."""
    before_of = {a.attribute_id: a for a in baseline_attributes}
    views = [
        comparable(a, before_of[a.attribute_id], d)
        for a, d in zip(attributes, draws, strict=True)
        if a.attribute_id in before_of
    ]
    baseline_names = {m.model_id: m.display_name for m in baseline.models}
    found = []
    for system in round_.models:
        before_id = system.baseline_model_id
        if before_id is None or before_id not in baseline_names:
            continue
        rows = [
            row
            for view in views
            for row in _regression_rows(round_, view, system.model_id, before_id)
        ]
        found.append(
            Regression(
                model_id=system.model_id,
                display_name=system.display_name,
                baseline_model_id=before_id,
                baseline_display_name=baseline_names[before_id],
                rows=tuple(rows),
            )
        )
    return tuple(found)
