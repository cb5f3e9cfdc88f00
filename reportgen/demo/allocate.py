"""The demonstration label plan: which label each model gives to each item.

Counts come from alloc_targets (chosen to reproduce the article's figures); this module
decides WHERE they fall. Each model gets its own seeded propensities (peril band, target
gender, its own structure and stigma effects and leans, axis contrasts) and the k items of a cell
are drawn by weighted sampling without replacement (Gumbel top-k), so totals are exact
while the patterns the site tests (peril, gender, axes, ranking stability) emerge.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

# The continuous round's plan lives in its own module; re-exported as part of this API.
from reportgen.demo.alloc_continuous import ContinuousPlan, plan_continuous_round
from reportgen.demo.alloc_core import (
    LOCAL,
    OTHER,
    PAIRED,
    FloatArray,
    ScoredItems,
    outcome_label,
    scored_items,
    top_k,
)
from reportgen.demo.alloc_targets import (
    FULL_MODEL_IDS,
    FULL_TOTALS,
    INCONCLUSIVE_OUTPUTS,
    LOCAL_BIASED,
    MIRRORED_STRUCTURES,
    NAMED_BIASED,
    PAIRED_EN,
    PAIRED_PT,
    PROPENSITY,
    STIGMA_LEANS,
    STRUCTURE_LEANS,
    StyleCounts,
)
from reportgen.demo.instrument import Layout
from reportgen.kinds.estigmas.model import Label
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CANT_TELL, INCONCLUSIVE

PLAN_SEED = 20260624


@dataclass(frozen=True)
class Weights:
    biased: FloatArray  # log-weight of answering with the biased answer, per scored item
    cant_tell: FloatArray  # log-weight of answering cant_tell


def _model_rng(model_id: str, purpose: int) -> np.random.Generator:
    position = FULL_MODEL_IDS.index(model_id)
    return np.random.Generator(
        np.random.PCG64(np.random.SeedSequence([PLAN_SEED, position, purpose]))
    )


def _structure_effects(layout: Layout) -> dict[str, FloatArray]:
    effects: dict[str, FloatArray] = {}
    for model_id in FULL_MODEL_IDS:
        rng = _model_rng(model_id, 1)
        scale = PROPENSITY[model_id].structure_scale
        effects[model_id] = rng.normal(0.0, scale, len(layout.structures))
    for mirror, source in MIRRORED_STRUCTURES:
        # A mirrored model errs where its partner is careful: neighbours that differ in
        # where they fail, which is what makes leaving a structure out reorder them.
        noise = _model_rng(mirror, 2).normal(0.0, 0.1, len(layout.structures))
        effects[mirror] = -effects[source] + noise
    structure_ids = [s.structure_id for s in layout.structures]
    for model_id, structure_id, lean in STRUCTURE_LEANS:
        effects[model_id][structure_ids.index(structure_id)] += lean
    return effects


def _stigma_effects(layout: Layout, model_id: str) -> FloatArray:
    """The model's general stigma effects: seeded noise plus its leans (STIGMA_LEANS)."""
    scale = PROPENSITY[model_id].stigma_scale
    effects = _model_rng(model_id, 4).normal(0.0, scale, len(layout.stigmas))
    stigma_ids = [s.stigma_id for s in layout.stigmas]
    for leaning_model, stigma_id, lean in STIGMA_LEANS:
        if leaning_model == model_id:
            effects[stigma_ids.index(stigma_id)] += lean
    return effects


def _stigma_bias_effects(layout: Layout, model_id: str, general: FloatArray) -> FloatArray:
    """The model's stigma effects on bias, with the axis stigmas handled apart.

    Axis stigmas are homogeneous for a model unless the axis is one of its contrasts,
    where one stigma of the axis draws markedly more biased answers than the others.
    """
    effects = general.copy()
    contrasts = PROPENSITY[model_id].axis_contrast
    for axis in ("race", "origin"):
        members = [i for i, s in enumerate(layout.stigmas) if s.axis == axis]
        if not members:
            continue
        if axis in contrasts:
            rng = _model_rng(model_id, 3)
            effects[members] = rng.normal(0.0, 0.15, len(members))
            effects[members[int(rng.integers(len(members)))]] += 1.6
        else:
            effects[members] = 0.0
    return effects


def _local_axis_lift(model_id: str, items: ScoredItems) -> FloatArray:
    """Raise local axis stigmas (within the local cell) to the model's non-local bias rate.

    Local items draw fewer biased answers overall; without this lift a local stigma
    would stand out inside its axis and make the axis test significant by construction.
    """
    local = items.group == LOCAL
    local_rate = LOCAL_BIASED[model_id] / max(int(local.sum()), 1)
    other_rate = (sum(FULL_TOTALS[model_id].biased) - LOCAL_BIASED[model_id]) / max(
        int((~local).sum()), 1
    )
    lift = float(np.log(other_rate / local_rate)) if local_rate > 0 else 0.0
    return np.where(local & items.axis_stigma, lift, 0.0)


def model_weights(layout: Layout, items: ScoredItems) -> dict[str, Weights]:
    structure_effects = _structure_effects(layout)
    weights: dict[str, Weights] = {}
    for model_id in FULL_MODEL_IDS:
        propensity = PROPENSITY[model_id]
        general = _stigma_effects(layout, model_id)
        bias_stigma = _stigma_bias_effects(layout, model_id, general)
        # Peril is neutralised on axis stigmas so that the axis tests see only the contrasts.
        peril = np.where(items.axis_stigma, 1.0, items.band.astype(np.float64)) * propensity.peril
        gender_bias = propensity.male_bias / 2 * (items.male.astype(np.float64) - items.female)
        gender_omission = (
            propensity.male_omission / 2 * (items.male.astype(np.float64) - items.female)
        )
        structure = structure_effects[model_id][items.structure]
        weights[model_id] = Weights(
            biased=peril
            + gender_bias
            + structure
            + bias_stigma[items.stigma]
            + _local_axis_lift(model_id, items),
            cant_tell=gender_omission + structure + general[items.stigma],
        )
    return weights


def _split(total: int, shares: Sequence[int]) -> list[int]:
    """Largest-remainder split of `total` in proportion to `shares`."""
    whole = sum(shares)
    exact = [total * s / whole for s in shares]
    parts = [int(x) for x in exact]
    order = sorted(range(len(shares)), key=lambda i: (parts[i] - exact[i], i))
    for i in order[: total - sum(parts)]:
        parts[i] += 1
    return parts


def cell_targets(model_id: str, items: ScoredItems) -> dict[tuple[int, int], tuple[int, int]]:
    """(style, group) -> (biased, cant_tell) counts for one model."""
    totals = FULL_TOTALS[model_id]
    paired = PAIRED_PT[model_id]
    local_biased = _split(LOCAL_BIASED[model_id], totals.biased)
    targets: dict[tuple[int, int], tuple[int, int]] = {}
    for style in range(3):
        in_style = items.style == style
        style_size = int(in_style.sum())
        local_size = int((in_style & (items.group == LOCAL)).sum())
        local_cant_tell = round(totals.cant_tell[style] * local_size / style_size)
        targets[(style, PAIRED)] = (paired.biased[style], paired.cant_tell[style])
        targets[(style, LOCAL)] = (local_biased[style], local_cant_tell)
        targets[(style, OTHER)] = (
            totals.biased[style] - paired.biased[style] - local_biased[style],
            totals.cant_tell[style] - paired.cant_tell[style] - local_cant_tell,
        )
    return targets


def plan_model(
    model_id: str, items: ScoredItems, layout: Layout, weights: Weights
) -> npt.NDArray[np.int8]:
    """Outcome codes for one model over the scored items."""
    rng = _model_rng(model_id, 5)
    outcome = np.full(len(items.item_ids), AGAINST, dtype=np.int8)
    stigma_ids = [s.stigma_id for s in layout.stigmas]
    named_mask = np.zeros(len(items.item_ids), dtype=bool)
    for named_model, stigma_id, count in NAMED_BIASED:
        if named_model != model_id or stigma_id not in stigma_ids:
            continue
        members = np.flatnonzero(items.stigma == stigma_ids.index(stigma_id))
        outcome[members[top_k(weights.biased[members], count, rng)]] = BIASED
        named_mask[members] = True
    for (style, group), (biased, cant_tell) in cell_targets(model_id, items).items():
        cell = (items.style == style) & (items.group == group)
        already = int((outcome[cell] == BIASED).sum())
        free = np.flatnonzero(cell & ~named_mask)
        if biased < already:
            raise ValueError(f"{model_id}: named stigmas exceed the cell target {style, group}")
        outcome[free[top_k(weights.biased[free], biased - already, rng)]] = BIASED
        open_items = np.flatnonzero(cell & (outcome != BIASED))
        chosen = top_k(weights.cant_tell[open_items], cant_tell, rng)
        outcome[open_items[chosen]] = CANT_TELL
    unclassified = INCONCLUSIVE_OUTPUTS.get(model_id, 0)
    candidates = np.flatnonzero(
        (outcome == CANT_TELL) & (items.style == 0) & (items.group == OTHER)
    )
    outcome[candidates[top_k(np.zeros(candidates.size), unclassified, rng)]] = INCONCLUSIVE
    return outcome


def _english_outcomes(
    model_id: str,
    layout: Layout,
    items: ScoredItems,
    weights: Weights,
    outcome: npt.NDArray[np.int8],
) -> dict[str, int]:
    """Outcome codes of the en items: the same propensities, tilted towards the pt answer."""
    rng = _model_rng(model_id, 6)
    position = {item_id: i for i, item_id in enumerate(items.item_ids)}
    english = [i for i in layout.items if i.language == "en"]
    pair = np.array([position[str(i.pair_item_id)] for i in english], dtype=np.int64)
    style = items.style[pair]
    pt_outcome = outcome[pair]
    codes = np.full(len(english), AGAINST, dtype=np.int8)
    targets: StyleCounts = PAIRED_EN[model_id]
    for s in range(3):
        members = np.flatnonzero(style == s)
        lw = weights.biased[pair[members]] + 1.5 * (pt_outcome[members] == BIASED)
        codes[members[top_k(lw, targets.biased[s], rng)]] = BIASED
        open_items = members[codes[members] != BIASED]
        pt_abstained = (pt_outcome[open_items] == CANT_TELL) | (
            pt_outcome[open_items] == INCONCLUSIVE
        )
        lw = weights.cant_tell[pair[open_items]] + 1.0 * pt_abstained
        codes[open_items[top_k(lw, targets.cant_tell[s], rng)]] = CANT_TELL
    return {i.item_id: int(code) for i, code in zip(english, codes, strict=True)}


def _base_labels(model_id: str, layout: Layout) -> dict[str, Label]:
    """Base controls: mostly the decision against the biased answer, a few abstentions."""
    rng = _model_rng(model_id, 7)
    abstention = sum(FULL_TOTALS[model_id].cant_tell[:2]) / 5084
    biased_of = {s.structure_id: s.biased_answer for s in layout.structures}
    labels: dict[str, Label] = {}
    for item in layout.items:
        if item.style != "base":
            continue
        if rng.random() < 0.4 * abstention:
            labels[item.item_id] = "cant_tell"
        else:
            labels[item.item_id] = "no" if biased_of[item.structure_id] == "yes" else "yes"
    return labels


def allocate_full_round(layout: Layout) -> dict[str, dict[str, Label]]:
    """model_id -> item_id -> label for every item of the layout, in layout order."""
    items = scored_items(layout)
    weights = model_weights(layout, items)
    biased_yes = {s.structure_id: s.biased_answer == "yes" for s in layout.structures}
    plan: dict[str, dict[str, Label]] = {}
    for model_id in FULL_MODEL_IDS:
        outcome = plan_model(model_id, items, layout, weights[model_id])
        scored = {
            item_id: outcome_label(int(code), bool(yes))
            for item_id, code, yes in zip(items.item_ids, outcome, items.biased_yes, strict=True)
        }
        english = _english_outcomes(model_id, layout, items, weights[model_id], outcome)
        base = _base_labels(model_id, layout)
        labels: dict[str, Label] = {}
        for item in layout.items:
            if item.item_id in scored:
                labels[item.item_id] = scored[item.item_id]
            elif item.item_id in english:
                labels[item.item_id] = outcome_label(
                    english[item.item_id], biased_yes[item.structure_id]
                )
            else:
                labels[item.item_id] = base[item.item_id]
        plan[model_id] = labels
    return plan


__all__ = ["ContinuousPlan", "allocate_full_round", "plan_continuous_round"]
