"""Contrastive language study (metrics.md): pt-BR items against their en realisations.

Per model and language, on the paired items only:
- abstention without evidence: cant_tell share on `original` + `doubt`;
- omission: cant_tell share on `positive`;
- bias: biased share on all paired items; bias among decisions: biased / (biased + against).
(`inconclusive` counts as cant_tell.) Means are taken across models.

The intervals of the mean difference pt-BR - en per regime (abstention without evidence,
omission) come from a crossed bootstrap of the paired sample: its own
`Generator(PCG64(seed))` draws, in the order of `bootstrap.draw_replicates`, the stigmas
present in the pairs (in cube order), then the structures present. A replicate weighs
both members of a pair and every model alike, so the pairing is kept. Response length
(whitespace words) is compared per model with the Wilcoxon signed-rank test (zero
differences dropped), corrected across models with Benjamini-Hochberg.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray
from scipy import stats as scipy_stats

from reportgen.kinds.estigmas.model import POSITIVE
from reportgen.kinds.estigmas.score import (
    AGAINST,
    BIASED,
    CANT_TELL,
    INCONCLUSIVE,
    PAIR_LANGUAGES,
    PairedSample,
)
from reportgen.kinds.estigmas.stats.bootstrap import (
    FloatArray,
    ProgressCallback,
    ReplicateDraws,
    draw_replicates,
    percentile_interval,
    ratio,
    weighted_totals,
)
from reportgen.stats import bh_adjust

REGIMES: tuple[str, ...] = ("abstention", "omission")


@dataclass(frozen=True)
class LanguageRates:
    language: str
    abstention: float | None
    omission: float | None
    bias: float | None
    bias_among_decisions: float | None


@dataclass(frozen=True)
class ModelLanguage:
    model_id: str
    rates: tuple[LanguageRates, ...]  # pt-BR, en
    median_words: tuple[float | None, ...]  # pt-BR, en
    wilcoxon_statistic: float | None
    wilcoxon_p: float | None
    wilcoxon_p_adjusted: float | None
    wilcoxon_reason: str | None  # why the test is not computable


@dataclass(frozen=True)
class RegimeShift:
    """Mean across models of one regime's cant_tell share, and its pt-BR - en difference."""

    regime: str
    mean_pt: float | None
    mean_en: float | None
    mean_difference: float | None  # pt-BR - en
    lower: float | None  # 95% crossed-bootstrap interval of the mean difference
    upper: float | None
    more_in_en: int  # models with a higher cant_tell share in English
    more_in_pt: int
    equal: int


@dataclass(frozen=True)
class LanguageStudy:
    pairs: int
    responses_per_language: int
    models: tuple[ModelLanguage, ...]
    means: tuple[LanguageRates, ...]  # pt-BR, en: mean across models of each rate
    regimes: tuple[RegimeShift, ...]  # abstention, omission


def _share(hits: NDArray[np.bool_], mask: NDArray[np.bool_]) -> float | None:
    total = int(mask.sum())
    return None if total == 0 else int((hits & mask).sum()) / total


def _rates(outcome: NDArray[np.int8], style: NDArray[np.int8], language: str) -> LanguageRates:
    cant = (outcome == CANT_TELL) | (outcome == INCONCLUSIVE)
    biased = outcome == BIASED
    decided = biased | (outcome == AGAINST)
    everything = np.ones_like(biased)
    return LanguageRates(
        language=language,
        abstention=_share(cant, style != POSITIVE),
        omission=_share(cant, style == POSITIVE),
        bias=_share(biased, everything),
        bias_among_decisions=_share(biased, decided),
    )


def _mean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present and len(present) == len(values) else None


def _wilcoxon(words: NDArray[np.int32]) -> tuple[float | None, float | None, str | None]:
    differences = words[:, 0].astype(np.int64) - words[:, 1]
    if len(differences) == 0:
        return None, None, "no pairs"
    if not np.any(differences):
        return None, None, "no pair differs in length (or the round was read without text)"
    result = scipy_stats.wilcoxon(differences)
    return float(result.statistic), float(result.pvalue), None


def language_study(
    sample: PairedSample,
    model_ids: Sequence[str],
    seed: int,
    replicates: int,
    on_progress: ProgressCallback | None = None,
    draws: ReplicateDraws | None = None,
) -> LanguageStudy:
    """The study; `draws` (the round's, if given) are reused where their seed and sizes
    are the paired sample's (`draw_replicates` would give the very same draws)."""
    pairs = len(sample.pair_item_ids)
    per_model = []
    tests = []
    for m, model_id in enumerate(model_ids):
        rates = tuple(
            _rates(sample.outcome[m, :, side], sample.style_index, language)
            for side, language in enumerate(PAIR_LANGUAGES)
        )
        medians = tuple(
            float(np.median(sample.words[m, :, side])) if pairs else None for side in (0, 1)
        )
        tests.append(_wilcoxon(sample.words[m]))
        per_model.append((model_id, rates, medians))
    adjusted = iter(bh_adjust([p for _, p, _ in tests if p is not None]))
    models = tuple(
        ModelLanguage(
            model_id=model_id,
            rates=rates,
            median_words=medians,
            wilcoxon_statistic=statistic,
            wilcoxon_p=p_value,
            wilcoxon_p_adjusted=None if p_value is None else next(adjusted),
            wilcoxon_reason=reason,
        )
        for (model_id, rates, medians), (statistic, p_value, reason) in zip(
            per_model, tests, strict=True
        )
    )
    means = tuple(
        LanguageRates(
            language=language,
            abstention=_mean([ml.rates[side].abstention for ml in models]),
            omission=_mean([ml.rates[side].omission for ml in models]),
            bias=_mean([ml.rates[side].bias for ml in models]),
            bias_among_decisions=_mean([ml.rates[side].bias_among_decisions for ml in models]),
        )
        for side, language in enumerate(PAIR_LANGUAGES)
    )
    bounds = _difference_intervals(sample, len(model_ids), seed, replicates, on_progress, draws)
    regimes = tuple(
        _regime_shift(regime, models, means, bounds[g]) for g, regime in enumerate(REGIMES)
    )
    return LanguageStudy(
        pairs=pairs,
        responses_per_language=pairs * len(model_ids),
        models=models,
        means=means,
        regimes=regimes,
    )


def _regime_shift(
    regime: str,
    models: Sequence[ModelLanguage],
    means: Sequence[LanguageRates],
    bounds: tuple[float | None, float | None],
) -> RegimeShift:
    pt, en = (getattr(means[side], regime) for side in (0, 1))
    shifts = [(getattr(ml.rates[0], regime), getattr(ml.rates[1], regime)) for ml in models]
    known = [(a, b) for a, b in shifts if a is not None and b is not None]
    return RegimeShift(
        regime=regime,
        mean_pt=pt,
        mean_en=en,
        mean_difference=None if pt is None or en is None else pt - en,
        lower=bounds[0],
        upper=bounds[1],
        more_in_en=sum(b > a for a, b in known),
        more_in_pt=sum(a > b for a, b in known),
        equal=sum(a == b for a, b in known),
    )


def difference_tables(sample: PairedSample, models: int) -> FloatArray:
    """(6, S', T') cant_tell counts per (language, regime) summed over the models, then the
    regime totals.

    S' and T' are the stigmas and structures present in the pairs, in cube order. Every
    model's share of a regime has the same denominator (the regime's paired items), so the
    mean across models of the shares is the share of the summed counts over the models.
    """
    stigma = np.unique(sample.stigma_index, return_inverse=True)[1]
    structure = np.unique(sample.structure_index, return_inverse=True)[1]
    shape = (int(stigma.max()) + 1, int(structure.max()) + 1)
    cell = np.ravel_multi_index((stigma, structure), shape)
    cells = shape[0] * shape[1]
    tables = []
    regime_masks = (sample.style_index != POSITIVE, sample.style_index == POSITIVE)
    outcome = sample.outcome[:models]  # (M, pairs, languages)
    cant = ((outcome == CANT_TELL) | (outcome == INCONCLUSIVE)).sum(axis=0)  # (pairs, languages)
    for side in (0, 1):
        for mask in regime_masks:
            tables.append(np.bincount(cell[mask], weights=cant[mask, side], minlength=cells))
    tables += [np.bincount(cell[mask], minlength=cells) for mask in regime_masks]
    return np.asarray(tables, dtype=np.float64).reshape(len(tables), *shape)


def _difference_intervals(
    sample: PairedSample,
    models: int,
    seed: int,
    replicates: int,
    on_progress: ProgressCallback | None,
    drawn: ReplicateDraws | None = None,
) -> list[tuple[float | None, float | None]]:
    if len(sample.pair_item_ids) == 0 or models == 0:
        return [(None, None) for _ in REGIMES]
    tables = difference_tables(sample, models)
    shape = (replicates, tables.shape[1], tables.shape[2])
    same = drawn is not None and drawn.seed == seed and drawn.shape == shape
    draws = drawn if drawn is not None and same else draw_replicates(seed, *shape)
    totals = weighted_totals(tables, draws.stigma_weights(), draws.structure_weights(), on_progress)
    differences = mean_differences(totals, models)
    low, high = percentile_interval(differences)
    return [
        (None if np.isnan(lo) else float(lo), None if np.isnan(hi) else float(hi))
        for lo, hi in zip(low, high, strict=True)
    ]


def mean_differences(totals: FloatArray, models: int) -> FloatArray:
    """(R, regimes): mean across models of pt-BR - en cant_tell share, from `difference_tables`."""
    counts = totals[:, :4].reshape(-1, 2, 2)  # (R, language, regime), summed over models
    shares = ratio(counts, totals[:, None, 4:])
    differences: FloatArray = (shares[:, 0] - shares[:, 1]) / models
    return differences
