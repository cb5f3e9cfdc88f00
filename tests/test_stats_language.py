"""The contrastive language study against item loops, scipy and a slow resampling."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.typing import NDArray
from scipy import stats as scipy_stats

from reportgen.kinds.estigmas.model import Round
from reportgen.kinds.estigmas.score import AGAINST, BIASED, PairedSample, paired_sample
from reportgen.kinds.estigmas.stats.bootstrap import (
    draw_replicates,
    percentile_interval,
    weighted_totals,
)
from reportgen.kinds.estigmas.stats.language import (
    difference_tables,
    language_study,
    mean_differences,
)
from tests.support.synthetic import random_round


@pytest.fixture(scope="module")
def round_() -> Round:
    return random_round(31, models=4, stigmas=15, structures=7, cells=80, pairs=120)


def _share(hits: NDArray[np.bool_], mask: NDArray[np.bool_]) -> float:
    return float((hits & mask).sum() / mask.sum())


def test_rates_means_and_directions_follow_the_definitions(round_: Round) -> None:
    sample = paired_sample(round_)
    study = language_study(sample, [m.model_id for m in round_.models], seed=1, replicates=200)
    assert study.pairs == len(sample.pair_item_ids) == 120
    assert study.responses_per_language == 120 * 4
    positive = sample.style_index == 2
    for m, model in enumerate(study.models):
        for side in (0, 1):
            outcome = sample.outcome[m, :, side]
            cant = outcome >= 2
            rates = model.rates[side]
            assert rates.language == ("pt-BR", "en")[side]
            assert rates.abstention == pytest.approx(_share(cant, ~positive))
            assert rates.omission == pytest.approx(_share(cant, positive))
            assert rates.bias == pytest.approx((outcome == BIASED).mean())
            decided = (outcome == BIASED) | (outcome == AGAINST)
            assert rates.bias_among_decisions == pytest.approx(_share(outcome == BIASED, decided))
    for side in (0, 1):
        mean = study.means[side]
        assert mean.bias_among_decisions == pytest.approx(
            np.mean([ml.rates[side].bias_among_decisions for ml in study.models])
        )
    for regime in study.regimes:
        pairs = [
            (getattr(ml.rates[0], regime.regime), getattr(ml.rates[1], regime.regime))
            for ml in study.models
        ]
        assert regime.more_in_en == sum(en > pt for pt, en in pairs)
        assert regime.more_in_en + regime.more_in_pt + regime.equal == len(pairs)
        assert regime.mean_difference == pytest.approx(
            np.mean([pt for pt, _ in pairs]) - np.mean([en for _, en in pairs])
        )


def test_wilcoxon_is_scipy_on_the_word_counts(round_: Round) -> None:
    sample = paired_sample(round_)
    study = language_study(sample, [m.model_id for m in round_.models], seed=1, replicates=10)
    for m, model in enumerate(study.models):
        expected = scipy_stats.wilcoxon(sample.words[m, :, 0], sample.words[m, :, 1])
        assert model.wilcoxon_p == pytest.approx(expected.pvalue)
        assert model.wilcoxon_statistic == pytest.approx(expected.statistic)


def test_wilcoxon_without_text_is_not_computable() -> None:
    round_ = random_round(3, models=2, stigmas=6, structures=4, cells=20, pairs=15, with_text=False)
    study = language_study(paired_sample(round_), ["model-000", "model-001"], 1, 10)
    assert all(m.wilcoxon_p is None and m.wilcoxon_reason for m in study.models)


def _slow_mean_differences(
    sample: PairedSample, models: int, seed: int, replicates: int
) -> NDArray[np.float64]:
    """Resample stigma and structure ids, rebuild the pairs, recompute every share."""
    stigmas = np.unique(sample.stigma_index)
    structures = np.unique(sample.structure_index)
    draws = draw_replicates(seed, replicates, len(stigmas), len(structures))
    out = np.empty((replicates, 2))
    for r in range(replicates):
        chosen: list[int] = []
        for s in stigmas[draws.stigma_draws[r]]:
            for t in structures[draws.structure_draws[r]]:
                chosen += list(
                    np.flatnonzero((sample.stigma_index == s) & (sample.structure_index == t))
                )
        picked = np.asarray(chosen, dtype=np.intp)
        positive = sample.style_index[picked] == 2
        differences = []
        for mask in (~positive, positive):
            shares = [
                [(sample.outcome[m, picked, side] >= 2)[mask].mean() for side in (0, 1)]
                for m in range(models)
            ]
            differences.append(np.mean([pt - en for pt, en in shares]))
        out[r] = differences
    return out


def test_language_bootstrap_equals_slow_resampling(round_: Round) -> None:
    sample = paired_sample(round_)
    models = len(round_.models)
    tables = difference_tables(sample, models)
    draws = draw_replicates(5, 60, tables.shape[1], tables.shape[2])
    totals = weighted_totals(tables, draws.stigma_weights(), draws.structure_weights())
    fast = mean_differences(totals, models)
    slow = _slow_mean_differences(sample, models, 5, 60)
    assert fast == pytest.approx(slow, abs=1e-12, nan_ok=True)
    study = language_study(sample, [m.model_id for m in round_.models], seed=5, replicates=60)
    low, high = percentile_interval(fast)
    assert [(r.lower, r.upper) for r in study.regimes] == [
        (float(low[g]), float(high[g])) for g in range(2)
    ]
