"""The rows of ../shared/spec/paper-figures.md that the statistics engine computes.

Run on the demonstration round `rounds/estigmas-2026-06` (skipped while it does not exist).
"Pattern" rows must hold in direction and significance; the correlation and the language
study's means are "exact" rows, checked to the article's printed precision.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reportgen.kinds.estigmas.results import RoundResults, load_results
from tests.support.shared_builds import shared_results_cache

# REPORTGEN_DEMO_ROUND points the checks at a freshly generated copy elsewhere.
ROUND_DIR = Path(
    os.environ.get(
        "REPORTGEN_DEMO_ROUND",
        Path(__file__).resolve().parents[1] / "rounds" / "estigmas-2026-06",
    )
)
SIGNIFICANT = 0.05

pytestmark = pytest.mark.skipif(not ROUND_DIR.is_dir(), reason=f"{ROUND_DIR} not generated yet")


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> RoundResults:
    from reportgen.kinds.estigmas.archive import read_round

    round_ = read_round(ROUND_DIR, with_text=True)
    return load_results(round_, cache_dir=shared_results_cache(tmp_path_factory))


def _model_id(results: RoundResults, display_name: str) -> str:
    (model_id,) = (m.model_id for m in results.models if m.display_name == display_name)
    return model_id


def _significant(p_adjusted: float | None) -> bool:
    return p_adjusted is not None and p_adjusted < SIGNIFICANT


def test_correlation_of_bias_and_omission(results: RoundResults) -> None:
    assert results.correlation.pearson_r is not None
    assert results.correlation.spearman_rho is not None
    assert round(results.correlation.pearson_r, 2) == -0.88
    assert round(results.correlation.spearman_rho, 2) == -0.86


def test_peril_significant_in_every_model_after_bh(results: RoundResults) -> None:
    assert len(results.peril.tests) == 7
    assert all(_significant(t.p_adjusted) and t.df == 2 for t in results.peril.tests)


def test_gender_pattern(results: RoundResults) -> None:
    gaps = results.gender_gaps
    assert sum(g.bias_delta is not None and g.bias_delta > 0 for g in gaps) == 5
    omission = [g.omission_delta for g in gaps]
    assert all(d is not None and d > 0 for d in omission), omission
    for family in results.gender_tests:
        assert not any(_significant(t.p_adjusted) for t in family.tests), family.name


def test_axes_pattern(results: RoundResults) -> None:
    assert sum(_significant(t.p_adjusted) for t in results.origin.tests) == 3
    assert sum(_significant(t.p_adjusted) for t in results.race.tests) == 1


def test_ranking_stability(results: RoundResults) -> None:
    assert len(results.adjacent) == 5
    assert not any(d.separated for d in results.adjacent)
    qwen = _model_id(results, "Qwen 3.6 Flash")
    deepseek = _model_id(results, "DeepSeek V4 Flash")
    for family in (results.leave_one_stigma_out, results.leave_one_structure_out):
        ranges = {r.model_id: (r.best, r.worst) for r in family.ranges}
        assert ranges[qwen] == (1, 1)
        assert ranges[deepseek] == (6, 6)
    assert results.leave_one_stigma_out.analyses == 101
    assert results.leave_one_structure_out.analyses == 27


def test_language_study(results: RoundResults) -> None:
    study = results.language
    assert study.pairs == 994
    assert study.responses_per_language == 6958
    expected = {
        "abstention": (45.8, 59.2),
        "omission": (33.3, 47.1),
        "bias": (6.7, 3.1),
        "bias_among_decisions": (10.0, 6.3),
    }
    for name, (pt, en) in expected.items():
        assert round(100 * getattr(study.means[0], name), 1) == pt, name
        assert round(100 * getattr(study.means[1], name), 1) == en, name
    for regime in study.regimes:
        assert regime.more_in_en == 6, regime.regime
        assert regime.upper is not None
        assert regime.upper < 0, regime.regime
