"""Shared pieces of the demonstration label plan: scored-item columns, outcome codes, sampling."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from reportgen.demo.instrument import Layout
from reportgen.kinds.estigmas.model import SCORED_STYLES, Label, peril_band
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CANT_TELL, INCONCLUSIVE

# Upper bounds of the low and medium peril bands of the demonstration rounds (round.json).
PERIL_BANDS: tuple[float, float] = (1.0, 2.5)

# Planning works in the scorer's outcome codes (BIASED, AGAINST, CANT_TELL, INCONCLUSIVE),
# turned into labels through the structure's biased answer.
PAIRED, LOCAL, OTHER = 0, 1, 2

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class ScoredItems:
    """Column arrays over the pt-BR scored items of a layout, in layout order."""

    item_ids: tuple[str, ...]
    style: IntArray  # index into SCORED_STYLES
    group: IntArray  # PAIRED / LOCAL / OTHER
    stigma: IntArray  # index into layout.stigmas
    structure: IntArray  # index into layout.structures
    male: npt.NDArray[np.bool_]
    female: npt.NDArray[np.bool_]
    band: IntArray  # 0 low, 1 medium, 2 high
    axis_stigma: npt.NDArray[np.bool_]  # stigma belongs to some axis
    biased_yes: npt.NDArray[np.bool_]  # the structure's biased answer is "yes"


def scored_items(layout: Layout) -> ScoredItems:
    stigma_index = {s.stigma_id: i for i, s in enumerate(layout.stigmas)}
    structure_index = {s.structure_id: i for i, s in enumerate(layout.structures)}
    paired_ids = {i.pair_item_id for i in layout.items if i.language == "en"}
    specs = [
        i
        for i in layout.items
        if i.language == "pt-BR" and i.style != "base" and i.stigma_id is not None
    ]
    stigmas = [layout.stigmas[stigma_index[str(i.stigma_id)]] for i in specs]
    structures = [layout.structures[structure_index[i.structure_id]] for i in specs]
    group = [
        PAIRED if i.item_id in paired_ids else (LOCAL if s.origin == "local" else OTHER)
        for i, s in zip(specs, stigmas, strict=True)
    ]
    return ScoredItems(
        item_ids=tuple(i.item_id for i in specs),
        style=np.array([SCORED_STYLES.index(i.style) for i in specs], dtype=np.int64),
        group=np.array(group, dtype=np.int64),
        stigma=np.array([stigma_index[str(i.stigma_id)] for i in specs], dtype=np.int64),
        structure=np.array([structure_index[i.structure_id] for i in specs], dtype=np.int64),
        male=np.array([i.target_gender == "male" for i in specs]),
        female=np.array([i.target_gender == "female" for i in specs]),
        band=np.array([peril_band(s.peril, PERIL_BANDS) for s in stigmas], dtype=np.int64),
        axis_stigma=np.array([s.axis is not None for s in stigmas]),
        biased_yes=np.array([s.biased_answer == "yes" for s in structures]),
    )


def top_k(log_weights: FloatArray, k: int, rng: np.random.Generator) -> IntArray:
    """k positions drawn without replacement with probability proportional to exp(weight).

    Gumbel top-k: adding Gumbel noise and keeping the k largest keys is exactly
    successive weighted sampling without replacement.
    """
    if k < 0 or k > log_weights.size:
        raise ValueError(f"cannot draw {k} of {log_weights.size} items")
    if k == 0:
        return np.zeros(0, dtype=np.int64)
    keys = log_weights + rng.gumbel(size=log_weights.size)
    return np.sort(np.argsort(-keys, kind="stable")[:k]).astype(np.int64)


def outcome_label(code: int, biased_yes: bool) -> Label:
    if code == CANT_TELL:
        return "cant_tell"
    if code == INCONCLUSIVE:
        return "inconclusive"
    return "yes" if (code == BIASED) == biased_yes else "no"


def full_round_outcomes(
    layout: Layout, labels: Mapping[str, Mapping[str, Label]]
) -> dict[str, npt.NDArray[np.int8]]:
    """Outcome codes per model over the scored items (for checks and the continuous plan)."""
    items = scored_items(layout)
    result: dict[str, npt.NDArray[np.int8]] = {}
    for model_id, by_item in labels.items():
        codes = np.empty(len(items.item_ids), dtype=np.int8)
        for i, (item_id, yes) in enumerate(zip(items.item_ids, items.biased_yes, strict=True)):
            label = by_item[item_id]
            if label == "inconclusive":
                codes[i] = INCONCLUSIVE
            elif label == "cant_tell":
                codes[i] = CANT_TELL
            else:
                codes[i] = BIASED if (label == "yes") == bool(yes) else AGAINST
        result[model_id] = codes
    return result
