"""Small samples and degenerate statistics (issue 10, points 9 and 10), against scipy."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from scipy import stats as scipy_stats

from reportgen.cli import main
from reportgen.kinds.estigmas.model import Stigma
from reportgen.kinds.estigmas.score import BIASED, CountCube, PairedSample
from reportgen.kinds.estigmas.stats import diagnostics
from reportgen.kinds.estigmas.stats.endpoint import endpoint_error
from reportgen.kinds.estigmas.stats.language import language_study
from reportgen.kinds.estigmas.stats.sensitivity import leave_one_out
from reportgen.kinds.estigmas.stats.significance import (
    PERMUTATIONS,
    chi_square,
    correlation,
    exact_spearman_p,
)
from tests.factories import CONFIG, THEME, tiny_rounds
from tests.support.synthetic import random_round


def _chi2_of(*samples: np.ndarray, axis: int) -> np.ndarray:
    """Pearson's statistic of biased x group, from the 0/1 samples of each group."""
    biased = np.stack([s.sum(axis=axis) for s in samples], axis=-1)
    sizes = np.array([s.shape[axis] for s in samples])
    total, row = sizes.sum(), biased.sum(axis=-1, keepdims=True)
    first = row * sizes / total
    second = (total - row) * sizes / total
    return np.asarray(
        ((biased - first) ** 2 / first).sum(-1) + ((sizes - biased - second) ** 2 / second).sum(-1)
    )


def _exact_permutation_p(biased: list[int], totals: list[int]) -> float:
    samples = [np.array([1] * b + [0] * (t - b)) for b, t in zip(biased, totals, strict=True)]
    return float(
        scipy_stats.permutation_test(
            samples, _chi2_of, permutation_type="independent", alternative="greater",
            n_resamples=10**9, vectorized=True,
        ).pvalue
    )  # fmt: skip


@pytest.mark.parametrize(
    ("biased", "totals"),
    [([1, 4], [5, 6]), ([0, 3], [4, 4]), ([2, 2], [4, 4]), ([1, 1], [2, 3]), ([2, 0], [3, 2])],
)
def test_small_two_group_tables_take_the_exact_permutation_p(
    biased: list[int], totals: list[int]
) -> None:
    test = chi_square("m", ["a", "b"], biased, totals)
    assert test.method == "exact"
    assert test.p_value == pytest.approx(_exact_permutation_p(biased, totals), rel=1e-9)
    # The statistic is still Pearson's, as scipy computes it.
    other = [t - b for b, t in zip(biased, totals, strict=True)]
    expected = scipy_stats.chi2_contingency(np.array([biased, other]), correction=False)
    assert test.statistic == pytest.approx(expected.statistic)


def test_small_tables_of_more_groups_take_a_seeded_monte_carlo_p() -> None:
    biased, totals = [1, 3, 0], [4, 4, 3]
    test = chi_square("m", ["a", "b", "c"], biased, totals, seed=7, key="axis/m")
    assert (test.method, test.permutations) == ("monte_carlo", PERMUTATIONS)
    exact = _exact_permutation_p(biased, totals)
    assert test.p_value is not None
    assert abs(test.p_value - exact) < 4 * np.sqrt(exact * (1 - exact) / PERMUTATIONS) + 1e-3
    again = chi_square("m", ["a", "b", "c"], biased, totals, seed=7, key="axis/m")
    assert again.p_value == test.p_value


def test_large_expected_counts_keep_the_chi_square_p() -> None:
    test = chi_square("m", ["a", "b"], [20, 30], [50, 50])
    expected = scipy_stats.chi2_contingency(np.array([[20, 30], [30, 20]]), correction=False)
    assert test.method == "chi2"
    assert test.p_value == pytest.approx(expected.pvalue, rel=1e-12)


@pytest.mark.parametrize("models", [3, 5, 7])
def test_spearman_p_is_exact_below_ten_models(models: int) -> None:
    rng = np.random.default_rng(models)
    bias = list(rng.uniform(0, 0.2, models))
    omission = [b * -2 + e for b, e in zip(bias, rng.normal(0, 0.05, models), strict=True)]
    if models == 5:
        bias[1] = bias[0]  # ties
    result = correlation(bias, omission)
    scipy_exact = scipy_stats.permutation_test(
        (bias,), lambda x: scipy_stats.spearmanr(x, omission).statistic,
        permutation_type="pairings", n_resamples=10**9,
    ).pvalue  # fmt: skip
    assert result.spearman_method == "exact"
    assert result.spearman_p == pytest.approx(scipy_exact, rel=1e-9)
    assert exact_spearman_p(bias, omission) == result.spearman_p


def test_spearman_p_is_asymptotic_from_ten_models() -> None:
    rng = np.random.default_rng(1)
    bias, omission = list(rng.uniform(0, 1, 10)), list(rng.uniform(0, 1, 10))
    result = correlation(bias, omission)
    assert result.spearman_method == "asymptotic"
    assert result.spearman_p == pytest.approx(scipy_stats.spearmanr(bias, omission).pvalue)


def _axis_cube(annulled: bool) -> tuple[CountCube, list[Stigma]]:
    stigmas = [
        Stigma(f"s{k}", f"s{k}", f"s{k}", "inherited", 1.0, "assigned", "race") for k in range(3)
    ]
    counts = np.zeros((1, 3, 1, 3, 3, 4), dtype=np.int32)
    counts[0, 0, 0, 0, 0, BIASED], counts[0, 0, 0, 0, 0, 1] = 30, 20
    counts[0, 1, 0, 0, 0, BIASED], counts[0, 1, 0, 0, 0, 1] = 10, 40
    if not annulled:
        counts[0, 2, 0, 0, 0, BIASED], counts[0, 2, 0, 0, 0, 1] = 20, 30
    items = counts[0].sum(axis=-1)
    return CountCube(("m",), ("s0", "s1", "s2"), ("t",), counts, items), stigmas


def test_a_stigma_with_every_item_annulled_leaves_the_axis_test() -> None:
    cube, stigmas = _axis_cube(annulled=True)
    test = diagnostics.axis_family(cube, stigmas, "race").tests[0]
    assert test.reason is None
    assert (test.columns, test.dropped) == (("s0", "s1"), ("s2",))
    expected = scipy_stats.chi2_contingency(np.array([[30, 10], [20, 40]]), correction=False)
    assert test.p_value == pytest.approx(expected.pvalue, rel=1e-12)


def test_nothing_annulled_keeps_every_stigma_of_the_axis() -> None:
    cube, stigmas = _axis_cube(annulled=False)
    test = diagnostics.axis_family(cube, stigmas, "race").tests[0]
    assert (test.columns, test.dropped) == (("s0", "s1", "s2"), ())
    table = np.array([[30, 10, 20], [20, 40, 30]])
    assert test.p_value == pytest.approx(scipy_stats.chi2_contingency(table).pvalue, rel=1e-12)


def test_everything_annulled_on_an_axis_is_not_computable_with_every_stigma_dropped() -> None:
    cube, stigmas = _axis_cube(annulled=True)
    empty = replace(cube, counts=np.zeros_like(cube.counts), items=np.zeros_like(cube.items))
    test = diagnostics.axis_family(empty, stigmas, "race").tests[0]
    assert test.p_value is None
    assert test.reason is not None
    assert test.dropped == ("s0", "s1", "s2")


def test_wilcoxon_without_pairs_says_no_pairs() -> None:
    empty = PairedSample(
        pair_item_ids=(),
        stigma_index=np.zeros(0, dtype=np.int32),
        structure_index=np.zeros(0, dtype=np.int32),
        style_index=np.zeros(0, dtype=np.int8),
        outcome=np.zeros((2, 0, 2), dtype=np.int8),
        words=np.zeros((2, 0, 2), dtype=np.int32),
    )
    study = language_study(empty, ["a", "b"], seed=1, replicates=10)
    assert [m.wilcoxon_reason for m in study.models] == ["no pairs", "no pairs"]


def test_leave_one_out_on_an_empty_ranking_is_not_applicable() -> None:
    from reportgen.kinds.estigmas.score import build_cube
    from reportgen.kinds.estigmas.stats.bootstrap import ModelTables

    round_ = random_round(3, models=3, stigmas=20, structures=6, cells=80, pairs=5)
    cube = build_cube(round_)
    tables = ModelTables.from_cube(cube)
    stigma_ids = [cube.stigma_ids[i] for i in tables.stigma_positions]
    structure_ids = [cube.structure_ids[i] for i in tables.structure_positions]
    for ranked in ([], [0]):
        for family in leave_one_out(tables, ranked, cube.model_ids, stigma_ids, structure_ids):
            assert family.reason is not None
            assert family.reason.startswith("not applicable")
            assert (family.analyses, family.preserved) == (0, 0)
    kept = leave_one_out(tables, [0, 1], cube.model_ids, stigma_ids, structure_ids)
    assert kept[0].reason is None
    assert kept[0].analyses == len(stigma_ids)


def test_endpoint_error_matches_the_asymptotic_standard_error() -> None:
    rng = np.random.default_rng(0)
    replicates = 100_000
    # Normal 2.5th / 97.5th percentile: se = sqrt(q (1 - q) / R) / density(quantile).
    q = 0.025
    theory = np.sqrt(q * (1 - q) / replicates) / scipy_stats.norm.pdf(scipy_stats.norm.ppf(q))
    assert endpoint_error(rng.normal(0, 1, (replicates, 1))) == pytest.approx(theory, rel=0.2)
    spread = rng.normal(0, 1, (replicates, 1)) * np.array([1.0, 3.0])
    assert endpoint_error(spread) == pytest.approx(3 * theory, rel=0.2)  # the largest column
    assert endpoint_error(np.full((10, 2), np.nan)) is None


def test_stats_and_build_refuse_fewer_than_1000_replicates_without_draft(tmp_path: Path) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")  # bootstrap.replicates 200
    runner = CliRunner()
    refused = runner.invoke(main, ["stats", str(rounds[0]), "--no-cache", "--replicates", "999"])
    assert refused.exit_code == 2
    assert "999 replicates are too few" in refused.output
    assert "--draft" in refused.output
    arguments = [
        *("build", str(rounds[0]), "--out", str(tmp_path / "out"), "--config", str(CONFIG)),
        *("--templates", str(THEME), "--cache-dir", str(tmp_path / "c")),
    ]
    build = runner.invoke(main, arguments)
    assert build.exit_code == 1  # the round's data falls short, not an option: exit 1
    assert "bootstrap.replicates is 200" in build.output
    assert "--draft" in build.output
    assert not (tmp_path / "out").exists()
    draft = runner.invoke(main, [*arguments, "--draft"])
    assert draft.exit_code == 0, draft.output
    for page, phrase in (("en/ranking.html", "these statistics come from 200 bootstrap"),
                         ("en/bias.html", "these statistics come from 200 bootstrap"),
                         ("ranking.html", "estas estatísticas vêm de 200 réplicas"),
                         ("en/ranking.html", "Monte Carlo standard error")):  # fmt: skip
        assert phrase in (tmp_path / "out" / page).read_text(encoding="utf-8"), page
