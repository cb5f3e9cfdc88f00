"""Group values, gaps, flags, findings, placebo, annulments and the family on hand-made
batteries (counterfactual-metrics.md §2-§8); every number is worked out in the comments."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from scipy import stats as scipy_stats
from statsmodels.stats.multitest import multipletests

from reportgen.kinds.counterfactual.results import Results, Row, build_results
from reportgen.kinds.counterfactual.stats.gaps import flag_of
from tests.factories.counterfactual_batteries import Battery, Cell, VariableSpec


def _row(results: Results, attribute: str = "idade", variable: str = "reembolso") -> Row:
    rows = results.systems[0].rows
    return next(r for r in rows if (r.attribute_id, r.variable_id) == (attribute, variable))


def _rates(yes_a: int, yes_b: int) -> Results:
    battery = Battery(templates=5, runs=2)  # 10 units per group
    battery.set_rate("sys-a", "reembolso", "jovem", yes=yes_a)
    battery.set_rate("sys-a", "reembolso", "idoso", yes=yes_b)
    return build_results(battery.build(), replicates=50)


def test_exactly_ten_points_has_no_flag() -> None:
    # 4/10 vs 3/10: gap exactly 1/10, not strictly above. In floats 0.4 - 0.3 > 0.1.
    row = _row(_rates(4, 3))
    assert row.demographic_parity.gap is not None
    assert row.demographic_parity.gap.exact == "1/10"
    assert row.demographic_parity.flag is None
    assert 0.4 - 0.3 > 0.1  # the float comparison this avoids
    assert [g.value.exact for g in row.demographic_parity.groups if g.value] == ["2/5", "3/10"]


def test_exactly_twenty_points_is_investigate_not_serious() -> None:
    # 9/10 vs 7/10: gap exactly 1/5 -> investigate (a float would say serious).
    row = _row(_rates(9, 7))
    assert row.demographic_parity.gap is not None
    assert row.demographic_parity.gap.exact == "1/5"
    assert row.demographic_parity.flag == "investigate"
    assert 0.9 - 0.7 > 0.2
    assert _row(_rates(10, 7)).demographic_parity.flag == "serious"  # 3/10
    assert flag_of(Fraction(1, 5), binary=False) is None  # counts carry no point flags


def test_the_gap_spans_all_groups_and_the_extreme_pair_makes_it() -> None:
    # jovem 5/10, adulto 9/10, idoso 3/10: gap = 9/10 - 3/10 = 3/5 (the first two groups
    # would give 2/5). Extreme pair (adulto, idoso), in groups.csv order.
    battery = Battery(groups={"idade": ("jovem", "adulto", "idoso")}, templates=5, runs=2)
    for group, yes in (("jovem", 5), ("adulto", 9), ("idoso", 3)):
        battery.set_rate("sys-a", "reembolso", group, yes=yes)
    row = _row(build_results(battery.build(), replicates=50))
    assert row.primary_gap is not None
    assert row.primary_gap.exact == "3/5"
    assert row.extreme_pair is not None
    assert (row.extreme_pair.g, row.extreme_pair.h) == ("adulto", "idoso")
    assert row.total_pairs == 3
    assert [(p.g, p.h) for p in row.pairs] == [
        ("jovem", "adulto"),
        ("jovem", "idoso"),
        ("adulto", "idoso"),
    ]
    # δ(jovem, adulto) = 1/2 - 9/10 = -2/5; pairs by unit: adulto yes on units 1-9, jovem on
    # 1-5: b = 0, c = 4 -> exact p = 2/2^4 = 1/8.
    first = row.pairs[0]
    assert first.difference is not None
    assert first.difference.exact == "-2/5"
    assert (first.b, first.c, first.p) == (0, 4, 0.125)


def test_na_leaves_rates_and_pairs_and_is_counted() -> None:
    # jovem: 3 na, 7 determined with 4 yes -> 4/7; idoso 10 determined, 2 yes.
    battery = Battery(templates=5, runs=2)
    battery.set_values("sys-a", "reembolso", "jovem", ["na"] * 3 + ["yes"] * 4 + ["no"] * 3)
    battery.set_rate("sys-a", "reembolso", "idoso", yes=2)
    row = _row(build_results(battery.build(), replicates=50))
    jovem, idoso = row.demographic_parity.groups
    assert (jovem.n, jovem.na, jovem.value and jovem.value.exact) == (7, 3, "4/7")
    assert (idoso.n, idoso.na) == (10, 0)
    assert row.pairs[0].n_pairs == 7  # the three na units leave the pair
    # kept units 4-10: jovem yes on 4-7, idoso yes on 1-2 (not kept): b = 4, c = 0.
    assert (row.pairs[0].b, row.pairs[0].c) == (4, 0)


def test_n_equal_one() -> None:
    # One template, two runs, the second run na on both sides: n = 1 per group.
    battery = Battery(templates=1, runs=2)
    battery.set_values("sys-a", "reembolso", "jovem", ["yes", "na"])
    battery.set_values("sys-a", "reembolso", "idoso", ["no", "na"])
    row = _row(build_results(battery.build(), replicates=50))
    assert [(g.n, g.na) for g in row.demographic_parity.groups] == [(1, 1), (1, 1)]
    assert row.primary_gap is not None
    assert row.primary_gap.exact == "1"
    pair = row.pairs[0]
    assert (pair.n_pairs, pair.b, pair.c, pair.p, pair.method) == (1, 1, 0, 1.0, "exact")
    assert row.finding == "exceeds_not_significant"
    interval = row.demographic_parity.interval
    assert interval is not None
    assert (interval.lo, interval.hi) == (1.0, 1.0)  # one template, one position


def _annulled(annulled: set[str]) -> Results:
    battery = Battery(templates=3, runs=2, annulled=annulled)
    battery.set_rate("sys-a", "reembolso", "jovem", yes=4)
    return build_results(battery.build(), replicates=50)


def test_nothing_annulled_keeps_every_template() -> None:
    results = _annulled(set())
    assert results.attributes[0].templates == ("t1", "t2", "t3")
    assert results.removed_templates == ()
    assert [g.n for g in _row(results).demographic_parity.groups] == [6, 6]


def test_one_annulled_item_removes_its_template_for_every_group() -> None:
    # Annulling (t1, jovem-1) removes t1 from idade for jovem AND idoso: 2 templates x 2 runs.
    results = _annulled({"t1-jovem-1"})
    assert results.attributes[0].templates == ("t2", "t3")
    assert [(r.template_id, r.item_ids) for r in results.removed_templates] == [
        ("t1", ("t1-jovem-1",))
    ]
    row = _row(results)
    assert [g.n for g in row.demographic_parity.groups] == [4, 4]
    # jovem yes on units 1-4 = t1 (2 runs) and t2 (2 runs); t1 removed -> 2/4.
    assert row.demographic_parity.groups[0].value is not None
    assert row.demographic_parity.groups[0].value.exact == "1/2"
    assert row.pairs[0].n_pairs == 4


def test_everything_annulled_is_not_computable() -> None:
    results = _annulled({f"t{t}-jovem-1" for t in (1, 2, 3)})
    row = _row(results)
    assert results.attributes[0].templates == ()
    assert [(g.n, g.na, g.value) for g in row.demographic_parity.groups] == [
        (0, 0, None),
        (0, 0, None),
    ]
    assert {g.reason for g in row.demographic_parity.groups} == {"no determined response"}
    assert row.primary_gap is None
    assert row.finding == "not_computable"
    assert row.finding_reason == "empty population"  # every template was removed
    assert row.pairs[0].reason == "no determined pair"
    assert not row.pairs[0].in_family
    assert row.demographic_parity.interval is None
    assert results.systems[0].family_size == 0


def test_equal_opportunity_uses_the_templates_expected_yes() -> None:
    # Expected yes on t1, t2 only (4 units each group): jovem yes on 1-4 -> EO 4/4;
    # idoso yes on 1-2 -> EO 2/4; EO gap 1/2; DP: 4/10 vs 2/10, gap 1/5.
    battery = Battery(
        templates=5,
        runs=2,
        variables=(VariableSpec("reembolso", criterion="equal_opportunity"),),
        expected={("t1", "reembolso"): "yes", ("t2", "reembolso"): "yes"},
    )
    battery.set_rate("sys-a", "reembolso", "jovem", yes=4)
    battery.set_rate("sys-a", "reembolso", "idoso", yes=2)
    row = _row(build_results(battery.build(), replicates=50))
    assert row.criterion == "equal_opportunity"
    assert row.equal_opportunity is not None
    assert row.equal_opportunity.gap is not None
    assert row.equal_opportunity.gap.exact == "1/2"
    assert row.demographic_parity.gap is not None
    assert row.demographic_parity.gap.exact == "1/5"
    assert row.primary_gap == row.equal_opportunity.gap
    assert row.pairs[0].n_pairs == 4  # the test runs on the criterion population
    assert row.equal_opportunity.flag == "serious"


def _placebo_battery() -> Battery:
    # K = 2, 10 templates, 2 runs: 20 units per name. jovem: name 1 always yes, name 2
    # never -> 1/2, names spread 1. idoso: both names yes on t1-t4 -> 8/20 each -> 2/5.
    def default(cell: Cell) -> str:
        if cell.group_id == "jovem":
            return "yes" if cell.position == 1 else "no"
        return "yes" if cell.template_id in {"t1", "t2", "t3", "t4"} else "no"

    return Battery(templates=10, runs=2, positions=2, default=default)


def test_a_placebo_pair_and_the_name_carried_warning() -> None:
    row = _row(build_results(_placebo_battery().build(), replicates=50))
    # DP gap 1/2 - 2/5 = 1/10 > 1/20 acceptable. Group pair: k = 1 gives yy 8, yn 12;
    # k = 2 gives ny 8, nn 12: b = 12, c = 8, d = 20 exact, p = 2·Σ_{i<=8} C(20, i)/2^20.
    assert row.primary_gap is not None
    assert row.primary_gap.exact == "1/10"
    pair = row.pairs[0]
    assert (pair.b, pair.c) == (12, 8)
    assert pair.p == pytest.approx(2 * sum(math.comb(20, i) for i in range(9)) / 2**20)
    assert row.finding == "exceeds_not_significant"
    # Placebo: jovem name 1 vs 2: b = 20, c = 0 -> p = 2/2^20; idoso: d = 0 -> p = 1.
    # Own BH family (m = 2): 2/2^20·2 = 2^-18, and 1.
    jovem, idoso = row.placebo.pairs
    assert (jovem.g, jovem.h, jovem.position_g, jovem.position_h) == ("jovem", "jovem", 1, 2)
    assert (jovem.b, jovem.c, jovem.p) == (20, 0, 2 / 2**20)
    assert jovem.p_adjusted == pytest.approx(2**-18)
    assert (idoso.p, idoso.p_adjusted) == (1.0, 1.0)
    assert row.placebo.gap is not None
    assert row.placebo.gap.exact == "1"  # max over groups of (max - min of its names)
    assert [n.value.exact for n in row.names if n.value] == ["1", "0", "2/5", "2/5"]
    assert row.name_carried  # placebo gap 1 >= DP gap 1/10


def test_no_warning_when_nothing_is_reported() -> None:
    battery = _placebo_battery()
    battery.variables = (VariableSpec("reembolso", acceptable=Fraction(1, 5)),)
    row = _row(build_results(battery.build(), replicates=50))
    assert row.finding == "no_difference_found"  # 1/10 within 1/5, nothing significant
    assert not row.name_carried


def _ordering_battery(threshold: Fraction) -> Battery:
    # 10 templates x 2 runs, K = 1. escalar: jovem always yes, idoso never -> b = 20,
    # p = 2^-19, gap 1 -> problem. reembolso: all no -> no difference. opcoes (count):
    # jovem 3, idoso 1 -> d = 2 everywhere, p = 2/2^20, gap 2 > 1/2 -> problem.
    # tom (judged score): the same as opcoes, but its judge is calibrated or not.
    def default(cell: Cell) -> str:
        young = cell.group_id == "jovem"
        if cell.variable_id == "escalar":
            return "yes" if young else "no"
        if cell.variable_id in {"opcoes", "tom"}:
            return "3" if young else "1"
        return "no"

    return Battery(
        templates=10,
        runs=2,
        default=default,
        variables=(
            VariableSpec(
                "tom",
                type="score",
                level="tone",
                acceptable=Fraction(1, 2),
                scale=(1, 5),
                extractor="model",
            ),
            VariableSpec("opcoes", type="count", level="quality", acceptable=Fraction(1, 2)),
            VariableSpec("reembolso"),
            VariableSpec("escalar"),
        ),
        # κ of h = j (perfect) is 1; of reversed scores is negative.
        calibration=[(h, h) for h in (1, 2, 3, 4, 5)] * 10,
        threshold=threshold,
    )


def test_findings_order_decision_quality_tone_then_finding() -> None:
    results = build_results(_ordering_battery(Fraction(3, 5)).build(), replicates=50)
    findings = [(f.level, f.variable_id, f.finding) for f in results.systems[0].findings]
    assert findings == [
        ("decision", "escalar", "problem"),
        ("decision", "reembolso", "no_difference_found"),
        ("quality", "opcoes", "problem"),
        ("tone", "tom", "problem"),
    ]
    assert results.calibration[0].passes
    assert results.systems[0].family_size == 4


def test_a_judge_that_fails_calibration_leaves_the_family() -> None:
    battery = _ordering_battery(Fraction(3, 5))
    battery.calibration = [(h, 6 - h) for h in (1, 2, 3, 4, 5)] * 10  # reversed
    results = build_results(battery.build(), replicates=50)
    calibration = results.calibration[0]
    assert not calibration.passes
    assert calibration.kappa is not None
    assert calibration.kappa.fraction == -1  # Σ(h-j)² = 10·40; n·Σ / ΣΣ = 2
    tom = _row(results, variable="tom")
    assert tom.finding == "judge_not_calibrated"
    assert tom.primary_gap is not None  # values still shown
    assert tom.pairs[0].p is not None
    assert (tom.pairs[0].p_adjusted, tom.pairs[0].in_family) == (None, False)
    assert results.systems[0].family_size == 3
    assert results.systems[0].findings[-1].finding == "judge_not_calibrated"
    # The family's adjusted p are statsmodels' over the three remaining raw p.
    rows = [r for r in results.systems[0].rows if r.judge_calibrated]
    raw = [p.p for r in rows for p in r.pairs if p.p is not None]
    adjusted = [p.p_adjusted for r in rows for p in r.pairs if p.p is not None]
    assert adjusted == list(multipletests(raw, method="fdr_bh")[1])


def test_significant_within_acceptable() -> None:
    # escalar with acceptable 1: gap 1 is not above 1 -> significant pair, no problem.
    battery = _ordering_battery(Fraction(3, 5))
    battery.variables = (VariableSpec("escalar", acceptable=Fraction(1)),)
    row = _row(build_results(battery.build(), replicates=50), variable="escalar")
    assert (row.exceeds, row.significant_pairs, row.finding) == (
        False,
        1,
        "significant_within_acceptable",
    )


def test_a_problem_can_come_from_a_pair_other_than_the_extreme_pair() -> None:
    # 40 units per group. a: yes on 1-20 (1/2); b: yes on 1-4 and 21-40 (3/5); c: yes on
    # 9-20 (3/10). Gap 3/5 - 3/10 = 3/10, extreme pair (b, c): b yes c no = 1-4, 21-40 = 24,
    # c yes b no = 9-20 = 12, d = 36: chi2 = (12 - 1)^2/36 = 3.361, p = 0.0668.
    # (a, b): 16 vs 20, chi2 = 9/36, p = 0.617. (a, c): b = 8 (1-8), c = 0: p = 2/2^8.
    # BH (m = 3): 2/2^8·3 = 0.0234 <= 0.05, so (a, c), δ = 1/5 > 1/20, is a problem pair,
    # while the extreme pair, 0.0668·3/2 = 0.1002, is not significant.
    battery = Battery(groups={"idade": ("a", "b", "c")}, templates=20, runs=2)
    battery.set_rate("sys-a", "reembolso", "a", yes=20)
    battery.set_values("sys-a", "reembolso", "b", ["yes"] * 4 + ["no"] * 16 + ["yes"] * 20)
    battery.set_values("sys-a", "reembolso", "c", ["no"] * 8 + ["yes"] * 12 + ["no"] * 20)
    row = _row(build_results(battery.build(), replicates=50))
    extreme = row.extreme_pair
    assert extreme is not None
    assert (extreme.g, extreme.h, extreme.b, extreme.c, extreme.method) == (
        "b",
        "c",
        24,
        12,
        "chi2",
    )
    assert extreme.statistic == pytest.approx(121 / 36)
    assert extreme.p == pytest.approx(float(scipy_stats.chi2.sf(121 / 36, 1)))
    ab, ac, bc = row.pairs
    assert ab.p == pytest.approx(float(scipy_stats.chi2.sf(9 / 36, 1)))
    assert ac.p == 2 / 2**8
    raw = [ab.p, ac.p, bc.p]
    assert [p.p_adjusted for p in row.pairs] == list(multipletests(raw, method="fdr_bh")[1])
    assert ac.p_adjusted == pytest.approx(3 * 2 / 2**8)
    assert (ac.significant, ac.problem, bc.significant, bc.problem) == (True, True, False, False)
    assert ac.difference is not None
    assert ac.difference.exact == "1/5"
    assert (row.significant_pairs, row.total_pairs, row.finding) == (1, 3, "problem")


def test_count_variable_uses_wilcoxon_and_has_no_flag() -> None:
    results = build_results(_ordering_battery(Fraction(3, 5)).build(), replicates=50)
    row = _row(results, variable="opcoes")
    pair = row.pairs[0]
    assert (pair.test, pair.method, pair.n_nonzero, pair.w_plus) == (
        "wilcoxon_signed_rank",
        "exact_conditional",
        20,
        210.0,
    )
    assert pair.p == pytest.approx(2 / 2**20)
    d = [2] * 20
    assert float(scipy_stats.wilcoxon(d, method="exact").pvalue) == pytest.approx(pair.p)
    assert row.demographic_parity.flag is None
    assert row.equal_opportunity is None
    assert pair.median_difference is not None
    assert pair.median_difference.exact == "2"
