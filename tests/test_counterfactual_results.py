"""Judge calibration (metrics §9), the crossed bootstrap (§10), the before/after view (§11),
the results schema and the summary, on hand-made batteries."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # altair's dependency; no stubs installed
import numpy as np
import pytest
from rich.console import Console
from scipy import stats as scipy_stats

from reportgen.kinds.counterfactual import summary
from reportgen.kinds.counterfactual.results import (
    Results,
    build_results,
    load_results,
    published_json_schema_text,
    results_json_schema_text,
)
from reportgen.kinds.counterfactual.stats.calibration import (
    agreement,
    interval_alpha,
    passes,
    weighted_kappa,
)
from reportgen.kinds.schemas import main
from tests.factories.counterfactual_batteries import Battery, Cell, VariableSpec

# --- calibration ------------------------------------------------------------------------


def _slow_kappa(human: list[int], judge: list[int]) -> Fraction:
    """Cohen's κ with weights (x - y)² from the observed and chance tables, category by
    category (the textbook form; the spec's closed form must agree)."""
    categories = sorted({*human, *judge})
    n = len(human)
    observed = sum(Fraction((h - j) ** 2, n) for h, j in zip(human, judge, strict=True))
    expected = Fraction(0)
    for x in categories:
        for y in categories:
            share = Fraction(human.count(x), n) * Fraction(judge.count(y), n)
            expected += share * (x - y) ** 2
    return 1 - observed / expected


def _slow_alpha(human: list[int], judge: list[int]) -> Fraction:
    """Krippendorff's interval α from the coincidence matrix (two coders, no missing)."""
    values = sorted({*human, *judge})
    coincidence = {(c, k): Fraction(0) for c in values for k in values}
    for h, j in zip(human, judge, strict=True):  # each unit adds (h, j) and (j, h), / (m - 1)
        coincidence[(h, j)] += 1
        coincidence[(j, h)] += 1
    total = sum(coincidence.values())
    margin = {c: sum(coincidence[(c, k)] for k in values) for c in values}
    observed = sum(coincidence[(c, k)] * (c - k) ** 2 for c in values for k in values)
    expected = sum(margin[c] * margin[k] * (c - k) ** 2 for c in values for k in values)
    return Fraction(1) - Fraction(total - 1) * Fraction(observed) / Fraction(expected)


def test_kappa_and_alpha_by_hand() -> None:
    # h = 1, 2, 3; j = 1, 3, 3. Σ(h - j)² = 1. Σ_iΣ_l (h_i - j_l)²: 8 + 3 + 4 = 15,
    # κ = 1 - 3·1/15 = 4/5. V = 1, 2, 3, 1, 3, 3: Σv = 13, Σv² = 33, ΣΣ(x - y)² =
    # 2·(6·33 - 13²) = 58, α = 1 - 5·2·1/58 = 24/29.
    assert weighted_kappa([1, 2, 3], [1, 3, 3]) == Fraction(4, 5)
    assert interval_alpha([1, 2, 3], [1, 3, 3]) == Fraction(24, 29)
    assert _slow_kappa([1, 2, 3], [1, 3, 3]) == Fraction(4, 5)
    assert _slow_alpha([1, 2, 3], [1, 3, 3]) == Fraction(24, 29)


def test_kappa_and_alpha_match_the_slow_references() -> None:
    generator = np.random.default_rng(5)
    for _ in range(20):
        human = [int(x) for x in generator.integers(1, 6, size=60)]
        judge = [min(5, max(1, h + int(generator.integers(-1, 2)))) for h in human]
        assert weighted_kappa(human, judge) == _slow_kappa(human, judge)
        assert interval_alpha(human, judge) == _slow_alpha(human, judge)


def test_agreement_table_spearman_and_the_inclusive_threshold() -> None:
    human, judge = [1, 2, 3, 4, 5, 5], [1, 2, 4, 4, 5, 3]
    measured = agreement(human, judge, (1, 5))
    assert measured.exact_agreement == Fraction(4, 6)
    assert measured.mean_absolute_difference == Fraction(3, 6)  # |3-4| + |5-3|
    assert measured.table[2][3] == 1  # human 3, judge 4
    assert measured.table[4] == (0, 0, 1, 0, 1)
    expected = float(scipy_stats.spearmanr(human, judge).statistic)
    assert measured.spearman == pytest.approx(expected)
    kappa = measured.kappa
    assert kappa is not None
    assert passes(kappa, kappa)  # "at least": equal passes
    assert not passes(kappa, kappa + Fraction(1, 10**9))
    assert not passes(None, Fraction(1, 2))
    constant = agreement([3, 3], [3, 3], (1, 5))
    assert (constant.kappa, constant.alpha, constant.spearman) == (None, None, None)


def test_the_calibration_section_reports_the_preregistered_metric() -> None:
    battery = Battery(
        variables=(
            VariableSpec("tom", type="score", level="tone", scale=(1, 5), extractor="model"),
        ),
        default=lambda cell: "3",
        calibration=[(1, 1), (2, 3), (3, 3)] * 20,
        calibration_metric="krippendorff_alpha_interval",
        threshold=Fraction(4, 5),
    )
    entry = build_results(battery.build(), replicates=10).calibration[0]
    human, judge = [1, 2, 3] * 20, [1, 3, 3] * 20
    alpha = interval_alpha(human, judge)
    assert alpha is not None
    assert entry.metric == "krippendorff_alpha_interval"
    assert entry.metric_value is not None
    assert entry.metric_value.fraction == alpha
    assert entry.passes == (alpha >= Fraction(4, 5))
    assert entry.n == 60
    assert [(c.key, c.count) for c in entry.per_system] == [("sys-a", 60)]
    assert [(c.key, c.attribute_id, c.count) for c in entry.per_group] == [("jovem", "idade", 60)]


# --- the crossed bootstrap ------------------------------------------------------------------


def _k2_battery(seed: int = 7) -> Battery:
    def default(cell: Cell) -> str:
        number = int(cell.template_id[1:])
        if cell.group_id == "jovem":
            return "yes" if (number + cell.position + cell.run) % 3 else "no"
        return "yes" if number % 2 and cell.position == 1 else ("na" if number == 4 else "no")

    return Battery(templates=6, runs=2, positions=2, default=default, seed=seed)


def _slow_interval(battery: Battery, replicates: int) -> tuple[float, float]:
    """§10 replicate by replicate, with explicit loops over units."""
    generator = np.random.Generator(np.random.PCG64(battery.seed))
    templates, positions = battery.templates, battery.positions
    t_draws = generator.integers(0, templates, size=(replicates, templates))
    k_draws = generator.integers(0, positions, size=(replicates, positions))
    gaps = []
    for b in range(replicates):
        w_t = np.bincount(t_draws[b], minlength=templates)
        w_k = np.bincount(k_draws[b], minlength=positions)
        values = []
        for group in ("jovem", "idoso"):
            numerator = denominator = 0
            for t, k, r in battery.units():
                value = battery.value(Cell("sys-a", "reembolso", t, group, k, r))
                weight = int(w_t[int(t[1:]) - 1] * w_k[k - 1])
                if value != "na":
                    numerator += weight * (value == "yes")
                    denominator += weight
            values.append(numerator / denominator if denominator else None)
        if None not in values:
            gaps.append(max(values) - min(values))  # type: ignore[type-var,operator]
    lo, hi = np.percentile(gaps, [2.5, 97.5], method="linear")
    return float(lo), float(hi)


def test_the_crossed_bootstrap_matches_a_slow_replicate_loop() -> None:
    battery = _k2_battery()
    row = build_results(battery.build(), replicates=300).systems[0].rows[0]
    interval = row.demographic_parity.interval
    assert interval is not None
    lo, hi = _slow_interval(battery, 300)
    assert interval.lo == pytest.approx(lo, rel=1e-12, abs=1e-15)
    assert interval.hi == pytest.approx(hi, rel=1e-12, abs=1e-15)
    assert interval.kept + interval.left_out == 300
    again = build_results(battery.build(), replicates=300).systems[0].rows[0]
    assert again.demographic_parity.interval == interval  # same seed, same draws
    other = build_results(_k2_battery(seed=8).build(), replicates=300).systems[0].rows[0]
    assert other.demographic_parity.interval != interval


def test_the_draws_of_an_attribute_do_not_depend_on_the_others() -> None:
    alone = Battery(groups={"idade": ("jovem", "idoso")}, templates=4, runs=2)
    both = Battery(
        groups={"bairro": ("centro", "periferia"), "idade": ("jovem", "idoso")}, templates=4, runs=2
    )
    for battery in (alone, both):
        battery.set_values("sys-a", "reembolso", "jovem", ["yes", "no"] * 4)
    first = build_results(alone.build(), replicates=100).systems[0].rows[0]
    second = next(
        r
        for r in build_results(both.build(), replicates=100).systems[0].rows
        if r.attribute_id == "idade"
    )
    assert first.demographic_parity.interval == second.demographic_parity.interval


# --- before / after ---------------------------------------------------------------------


def _regression(baseline_annulled: set[str], acceptable: Fraction) -> Results:
    before = Battery(
        templates=5,
        runs=2,
        systems=("sys-old",),
        round_id="cf-base",
        annulled=baseline_annulled,
        variables=(VariableSpec("reembolso", acceptable=acceptable),),
    )
    before.set_rate("sys-old", "reembolso", "jovem", yes=9)
    before.set_rate("sys-old", "reembolso", "idoso", yes=5)
    after = Battery(templates=5, runs=2, baselines={"sys-a": "sys-old"}, baseline_round="cf-base")
    after.set_rate("sys-a", "reembolso", "jovem", yes=4)
    after.set_rate("sys-a", "reembolso", "idoso", yes=3)
    return build_results(after.build(), baseline=before.build(), replicates=200)


def test_the_before_after_view_recomputes_the_baseline_under_this_preregistration() -> None:
    # Before: 9/10 vs 5/10, gap 2/5 (serious); after: 4/10 vs 3/10, gap 1/10 (no flag);
    # change -3/10. Exceeds under THIS round's 1/20 both times, though the baseline said 1/2.
    results = _regression(set(), Fraction(1, 2))
    assert results.baseline_round == "cf-base"
    assert results.baseline_preregistration_differs is True
    (view,) = results.regression
    assert (view.model_id, view.baseline_model_id) == ("sys-a", "sys-old")
    assert (view.display_name, view.baseline_display_name) == ("SYS-A", "SYS-OLD")
    (row,) = view.rows
    assert row.gap_before is not None
    assert row.gap_after is not None
    assert row.change is not None
    assert (row.gap_before.exact, row.gap_after.exact, row.change.exact) == ("2/5", "1/10", "-3/10")
    assert (row.flag_before, row.flag_after) == ("serious", None)
    assert (row.exceeds_before, row.exceeds_after) == (True, True)
    assert not row.templates_differ
    assert row.interval is not None
    assert row.interval.lo is not None
    assert row.interval.hi is not None
    assert row.interval.lo <= -0.3 <= row.interval.hi


def test_the_template_intersection_is_used_and_noted() -> None:
    # The baseline annulled (t1, idoso-1): t1 leaves both rounds' view. Before over t2-t5:
    # jovem yes on units 3-9 (7/8), idoso on 3-5 (3/8): gap 1/2. After: 2/8 vs 1/8: 1/8.
    results = _regression({"t1-idoso-1"}, Fraction(1, 20))
    assert results.baseline_preregistration_differs is False
    row = results.regression[0].rows[0]
    assert row.templates == ("t2", "t3", "t4", "t5")
    assert row.templates_differ
    assert row.gap_before is not None
    assert row.gap_after is not None
    assert (row.gap_before.exact, row.gap_after.exact) == ("1/2", "1/8")
    main_gap = results.systems[0].rows[0].demographic_parity.gap
    assert main_gap is not None
    assert main_gap.exact == "1/10"  # the main view keeps t1


def test_identical_rounds_change_nothing() -> None:
    before = Battery(templates=5, runs=2, round_id="cf-base")
    after = Battery(templates=5, runs=2, baselines={"sys-a": "sys-a"}, baseline_round="cf-base")
    for battery in (before, after):
        battery.set_rate("sys-a", "reembolso", "jovem", yes=6)
    row = (
        build_results(after.build(), baseline=before.build(), replicates=100).regression[0].rows[0]
    )
    assert row.change is not None
    assert row.change.exact == "0"
    assert row.interval is not None
    assert (row.interval.lo, row.interval.hi) == (0.0, 0.0)


# --- schema, cache, summary ---------------------------------------------------------------


def test_the_published_schema_file_is_generated_from_the_models() -> None:
    assert published_json_schema_text() == results_json_schema_text()
    assert main(["--check", "counterfactual"]) == 0


def test_results_validate_against_the_schema_and_round_trip() -> None:
    results = _regression(set(), Fraction(1, 2))
    validator = jsonschema.Draft202012Validator(json.loads(published_json_schema_text()))
    validator.validate(results.to_json_dict())
    assert not validator.is_valid({**results.to_json_dict(), "seed": "7"})
    assert Results.from_json_dict(results.to_json_dict()) == results


def test_load_results_caches_by_round_and_baseline(tmp_path: Path) -> None:
    battery = Battery(templates=3, runs=2)
    round_ = battery.build(tmp_path / "cf-test")
    (tmp_path / "cf-test").mkdir()
    first = load_results(round_, 20, tmp_path / "cache")
    assert len(list((tmp_path / "cache").glob("results-*.json"))) == 1
    assert load_results(round_, 20, tmp_path / "cache") == first
    load_results(round_, 20, tmp_path / "cache", baseline=battery.build())
    assert len(list((tmp_path / "cache").glob("results-*.json"))) == 2


def test_the_summary_prints_findings_and_never_says_fair() -> None:
    results = _regression(set(), Fraction(1, 2))
    round_ = Battery(templates=5, runs=2, baseline_round="cf-base").build()
    output = io.StringIO()
    summary.print_summary(round_, results, Console(file=output, width=200))
    text = output.getvalue()
    assert "Round cf-test (counterfactual)" in text
    assert "Above acceptable, not confirmed" in text
    assert "10.0 pp" in text
    assert "Before/after: sys-a against sys-old" in text
    assert "fair" not in text.lower()
    document = summary.summary_json(round_, results)
    assert document["systems"][0]["findings"][0]["gap"] == "1/10"
    assert document["regression"][0]["rows"][0]["change"] == "-3/10"
    json.dumps(document)
