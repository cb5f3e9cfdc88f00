"""One system's rows, findings and families (counterfactual-metrics.md §2-§8).

Every test of the system is computed first; then Benjamini-Hochberg runs over the
preregistered family (every computable group-pair test of every attribute and variable
whose judge passed calibration) and, separately, over the placebo family; then each row
takes its adjusted p-values, its problem pairs and its finding.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds._fields import same_named
from reportgen.kinds.counterfactual.model import Round, System, Variable, VariablePlan
from reportgen.kinds.counterfactual.results._schema import Finding, Placebo, Row, SystemResults
from reportgen.kinds.counterfactual.results._values import (
    Exact,
    Gap,
    GroupValue,
    Interval,
    NameValue,
    PairTest,
    exact,
)
from reportgen.kinds.counterfactual.score import AttributeCells
from reportgen.kinds.counterfactual.stats import bootstrap, findings, gaps, placebo
from reportgen.kinds.counterfactual.stats.groups import (
    NO_DETERMINED_RESPONSE,
    GroupStat,
    group_stats,
    name_stats,
)
from reportgen.kinds.counterfactual.stats.paired import PairedTest
from reportgen.kinds.counterfactual.stats.pairs import (
    GroupPair,
    NamePair,
    group_pair_tests,
    placebo_pair_tests,
)
from reportgen.stats import bh_adjust, significant


@dataclass(frozen=True)
class Pending:
    """One attribute × variable before the family's correction."""

    attribute: AttributeCells
    variable: Variable
    plan: VariablePlan
    calibrated: bool
    demographic_parity: Gap
    equal_opportunity: Gap | None
    criterion_stats: tuple[GroupStat, ...]
    pairs: tuple[GroupPair, ...]
    names: tuple[NameValue, ...]
    placebo_gap: Fraction | None
    placebo_pairs: tuple[NamePair, ...]
    extractor_agrees: bool = True  # False: below the extraction check's threshold


def _group_value(stat: GroupStat) -> GroupValue:
    return GroupValue(
        group_id=stat.group_id,
        value=exact(stat.value),
        n=stat.n,
        na=stat.na,
        positives=stat.total,
        reason=None if stat.n else NO_DETERMINED_RESPONSE,
    )


def _interval(found: bootstrap.Interval | None) -> Interval | None:
    if found is None:
        return None
    return Interval(lo=found.lo, hi=found.hi, kept=found.kept, left_out=found.left_out)


def _gap(
    attribute: AttributeCells,
    model_id: str,
    variable: Variable,
    criterion: str,
    draws: bootstrap.Draws,
) -> tuple[Gap, tuple[GroupStat, ...]]:
    cells = attribute.cells[(model_id, variable.variable_id)]
    population = attribute.population(variable.variable_id, criterion)
    stats = group_stats(attribute, cells, population)
    value, reason = gaps.gap_of([s.value for s in stats])
    if not population.any():
        reason = gaps.EMPTY_POPULATION
    spread = None
    if value is not None:
        replicates = bootstrap.replicate_gaps(
            cells, population, draws, [s.value is not None for s in stats]
        )
        spread = None if replicates is None else bootstrap.interval(replicates)
    gap = Gap(
        criterion="equal_opportunity" if criterion == "equal_opportunity" else "demographic_parity",
        groups=tuple(_group_value(s) for s in stats),
        gap=exact(value),
        reason=reason,
        flag=gaps.flag_of(value, variable.type == "binary"),
        interval=_interval(spread),
    )
    return gap, stats


def pending_rows(
    round_: Round,
    system: System,
    attributes: Sequence[AttributeCells],
    draws: Sequence[bootstrap.Draws],
    failed: frozenset[str],
    unchecked: frozenset[str] = frozenset(),
) -> list[Pending]:
    """Every attribute × variable of the system, attributes.csv then variables.csv order;
    `failed`: the variables out of the family (a failed judge or extractor), `unchecked`:
    those whose extractor failed people's check."""
    plans = round_.manifest.preregistration.variables
    found: list[Pending] = []
    for attribute, attribute_draws in zip(attributes, draws, strict=True):
        for variable in round_.variables:
            plan = plans[variable.variable_id]
            binary = variable.type == "binary"
            dp, dp_stats = _gap(
                attribute, system.model_id, variable, "demographic_parity", attribute_draws
            )
            eo: Gap | None = None
            eo_stats: tuple[GroupStat, ...] = ()
            wanted = plan.criterion == "equal_opportunity"
            if binary and (wanted or attribute.expected_yes[variable.variable_id].any()):
                eo, eo_stats = _gap(
                    attribute, system.model_id, variable, "equal_opportunity", attribute_draws
                )
            cells = attribute.cells[(system.model_id, variable.variable_id)]
            population = attribute.population(variable.variable_id, plan.criterion)
            names = name_stats(attribute, cells)
            found.append(
                Pending(
                    attribute=attribute,
                    variable=variable,
                    plan=plan,
                    calibrated=variable.variable_id not in failed,
                    demographic_parity=dp,
                    equal_opportunity=eo,
                    criterion_stats=eo_stats if wanted else dp_stats,
                    pairs=group_pair_tests(attribute, cells, population, binary),
                    names=tuple(
                        NameValue(
                            group_id=n.group_id,
                            position=n.position,
                            variant_id=n.variant_id,
                            value=exact(n.value),
                            n=n.n,
                            na=n.na,
                        )
                        for n in names
                    ),
                    placebo_gap=placebo.placebo_gap(names),
                    placebo_pairs=placebo_pair_tests(attribute, cells, binary),
                    extractor_agrees=variable.variable_id not in unchecked,
                )
            )
    return found


def _adjusted(tests: Sequence[tuple[int, int, PairedTest]]) -> dict[tuple[int, int], float]:
    computable = [(row, pair, t.p) for row, pair, t in tests if t.p is not None]
    adjusted = bh_adjust([p for _, _, p in computable])
    return {(row, pair): q for (row, pair, _), q in zip(computable, adjusted, strict=True)}


# long: one field of the pair's record per line
def _pair_test(
    test: PairedTest,
    *,
    g: str,
    h: str,
    positions: tuple[int, int] | None,
    criterion: str,
    adjusted: float | None,
    alpha: Fraction,
    difference: Fraction | None,
    acceptable: Fraction | None,
) -> PairTest:
    is_significant = significant(adjusted, alpha)
    return PairTest(
        g=g,
        h=h,
        position_g=None if positions is None else positions[0],
        position_h=None if positions is None else positions[1],
        criterion="equal_opportunity" if criterion == "equal_opportunity" else "demographic_parity",
        **same_named(test, "test computable reason method n_pairs b c table n_nonzero w_plus"),
        statistic=test.statistic,
        p=test.p,
        p_adjusted=adjusted,
        significant=is_significant,
        difference=exact(difference),
        effect=exact(test.effect),
        median_difference=exact(test.median),
        problem=acceptable is not None
        and findings.is_problem(difference, is_significant, acceptable),
        in_family=adjusted is not None,
    )


# long: the row's pairs, placebo pairs, primary gap, extreme pair and finding, in order
def _row(
    pending: Pending,
    family: Mapping[tuple[int, int], float],
    placebo_family: Mapping[tuple[int, int], float],
    index: int,
    alpha: Fraction,
) -> Row:
    plan = pending.plan
    groups = pending.attribute.group_ids
    values = [s.value for s in pending.criterion_stats]
    pairs = []
    for number, pair in enumerate(pending.pairs):
        g_value, h_value = values[pair.g], values[pair.h]
        difference = None if g_value is None or h_value is None else g_value - h_value
        pairs.append(
            _pair_test(
                pair.test,
                g=groups[pair.g],
                h=groups[pair.h],
                positions=None,
                criterion=plan.criterion,
                adjusted=family.get((index, number)),
                alpha=alpha,
                difference=difference,
                acceptable=plan.acceptable_difference,
            )
        )
    placebo_pairs = tuple(
        _pair_test(
            pair.test,
            g=groups[pair.group],
            h=groups[pair.group],
            positions=(pair.k, pair.k_other),
            criterion="demographic_parity",
            adjusted=placebo_family.get((index, number)),
            alpha=alpha,
            difference=None,
            acceptable=None,
        )
        for number, pair in enumerate(pending.placebo_pairs)
    )
    primary = (
        pending.equal_opportunity
        if plan.criterion == "equal_opportunity"
        else pending.demographic_parity
    )
    primary_gap = None if primary is None or primary.gap is None else primary.gap.fraction
    over = gaps.exceeds(primary_gap, plan.acceptable_difference)
    extreme = findings.extreme_pair(values)
    extreme_test = None
    if extreme is not None:
        extreme_test = pairs[[(p.g, p.h) for p in pending.pairs].index(extreme)]
    finding = findings.finding_of(
        judge_calibrated=pending.calibrated or not pending.extractor_agrees,
        extractor_agrees=pending.extractor_agrees,
        primary_gap=primary_gap,
        exceeds=over,
        problems=sum(p.problem for p in pairs),
        significant=sum(p.significant for p in pairs),
    )
    dp_gap = pending.demographic_parity.gap
    return Row(
        attribute_id=pending.attribute.attribute_id,
        variable_id=pending.variable.variable_id,
        level=pending.variable.level,
        type=pending.variable.type,
        criterion=primary.criterion if primary is not None else "demographic_parity",
        acceptable_difference=Exact.of(plan.acceptable_difference),
        judge_calibrated=pending.calibrated or not pending.extractor_agrees,
        demographic_parity=pending.demographic_parity,
        equal_opportunity=pending.equal_opportunity,
        primary_gap=exact(primary_gap),
        exceeds=over,
        extreme_pair=extreme_test,
        pairs=tuple(pairs),
        significant_pairs=sum(p.significant for p in pairs),
        total_pairs=len(pairs),
        finding=finding,  # type: ignore[arg-type]  # finding_of returns one of FindingName
        finding_reason=primary.reason if finding == "not_computable" and primary else None,
        names=pending.names,
        placebo=Placebo(gap=exact(pending.placebo_gap), pairs=placebo_pairs),
        name_carried=placebo.name_carried(
            finding, None if dp_gap is None else dp_gap.fraction, pending.placebo_gap
        ),
    )


def _finding(row: Row) -> Finding:
    primary = row.equal_opportunity if row.criterion == "equal_opportunity" else None
    gap = primary if primary is not None else row.demographic_parity
    kept = "attribute_id variable_id level type finding criterion primary_gap"
    return Finding(
        **same_named(row, f"{kept} acceptable_difference name_carried"),
        reason=row.finding_reason,
        interval=gap.interval,
        flag=gap.flag,
    )


def system_results(round_: Round, system: System, pending: Sequence[Pending]) -> SystemResults:
    """The system's results from its `pending_rows`."""
    family = _adjusted(
        [
            (i, j, pair.test)
            for i, p in enumerate(pending)
            if p.calibrated
            for j, pair in enumerate(p.pairs)
        ]
    )
    placebo_family = _adjusted(
        [(i, j, pair.test) for i, p in enumerate(pending) for j, pair in enumerate(p.placebo_pairs)]
    )
    alpha = round_.manifest.preregistration.alpha
    rows = tuple(_row(p, family, placebo_family, i, alpha) for i, p in enumerate(pending))
    attribute_index = {a.attribute_id: i for i, a in enumerate(round_.attributes)}
    variable_index = {v.variable_id: i for i, v in enumerate(round_.variables)}
    ordered = sorted(
        rows,
        key=lambda r: findings.finding_sort_key(
            r.level, r.finding, attribute_index[r.attribute_id], variable_index[r.variable_id]
        ),
    )
    return SystemResults(
        model_id=system.model_id,
        display_name=system.display_name,
        responses=len(round_.responses.get(system.model_id, ())),
        findings=tuple(_finding(row) for row in ordered),
        rows=rows,
        family_size=len(family),
        placebo_family_size=len(placebo_family),
    )
