"""The continuous round's plan: a frozen 500-item subsample, two annulments, 28 models.

The seven original models keep their full-round labels on the subsample. Muse Spark 1.1
is planned to lead with 13 failures on the 498 valid items; the Demo placeholders get
varied, plausible profiles, two of them omitting more than the eligibility limit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from reportgen.demo.alloc_core import (
    ScoredItems,
    full_round_outcomes,
    outcome_label,
    scored_items,
    top_k,
)
from reportgen.demo.alloc_targets import FULL_MODEL_IDS
from reportgen.demo.cast import CONTINUOUS_ROUND_MODELS, MUSE_SPARK
from reportgen.demo.data_files import load
from reportgen.demo.instrument import Layout
from reportgen.kinds.estigmas.model import LANGUAGES, SCORED_STYLES, Label
from reportgen.kinds.estigmas.score import AGAINST, BIASED, CANT_TELL, INCONCLUSIVE

ROUNDS_FILE = "rounds.json"

SUBSAMPLE_SEED = 20260719
SUBSAMPLE_SIZE = 500
MAX_OMISSION = 0.5
# Muse Spark 1.1: biased answers and omissions on the valid items (13 failures of 498).
MUSE_BIASED, MUSE_OMISSIONS = 5, 8
DIAGNOSTIC_DEMO_OMISSION = (0.58, 0.66)


def _annulment_reasons() -> tuple[tuple[int, str, str], ...]:
    """(style index of the annulled item, reason pt-BR, reason en), from rounds.json."""
    reasons = load(ROUNDS_FILE).key("annulment_reasons")
    return tuple(
        (
            SCORED_STYLES.index(
                entry.only_keys("style", *LANGUAGES).key("style").choice(SCORED_STYLES)
            ),
            entry.key("pt-BR").text(),
            entry.key("en").text(),
        )
        for entry in reasons.elements()
    )


ANNULMENT_REASONS: tuple[tuple[int, str, str], ...] = _annulment_reasons()


@dataclass(frozen=True)
class ContinuousPlan:
    item_ids: tuple[str, ...]  # the subsample's pt-BR scored items, in layout order
    annulled: tuple[tuple[str, str, str], ...]  # (item_id, reason pt-BR, reason en)
    labels: dict[str, dict[str, Label]]  # model_id -> item_id -> label, 28 models


def _rng(*key: int) -> np.random.Generator:
    return np.random.Generator(np.random.PCG64(np.random.SeedSequence([SUBSAMPLE_SEED, *key])))


def _subsample(items: ScoredItems, attempt: int) -> np.ndarray:
    """Positions of the subsample: a third per style, dealt round-robin over the stigmas."""
    rng = _rng(1, attempt)
    quotas = [SUBSAMPLE_SIZE // 3 + (1 if s < SUBSAMPLE_SIZE % 3 else 0) for s in range(3)]
    chosen: list[int] = []
    stigma_order = rng.permutation(int(items.stigma.max()) + 1)
    for style, quota in enumerate(quotas):
        queues = []
        for stigma in stigma_order:
            members = np.flatnonzero((items.style == style) & (items.stigma == stigma))
            queues.append(list(rng.permutation(members)))
        picked: list[int] = []
        while len(picked) < quota:
            for queue in queues:
                if queue and len(picked) < quota:
                    picked.append(int(queue.pop(0)))
        chosen.extend(picked)
    return np.array(sorted(chosen), dtype=np.int64)


def _annul(items: ScoredItems, subsample: np.ndarray, attempt: int) -> list[int]:
    rng = _rng(2, attempt)
    annulled: list[int] = []
    for style, _, _ in ANNULMENT_REASONS:
        candidates = subsample[items.style[subsample] == style]
        annulled.append(int(candidates[rng.integers(candidates.size)]))
    return annulled


def _omission(codes: np.ndarray, positive: np.ndarray) -> float:
    abstained = (codes == CANT_TELL) | (codes == INCONCLUSIVE)
    return float(abstained[positive].mean())


def _eligibility_holds(
    outcomes: Mapping[str, np.ndarray], valid: np.ndarray, items: ScoredItems
) -> bool:
    """The article's snapshot: only Sabiazinho-4 among the originals omits above 50%."""
    positive = items.style[valid] == 2
    for model_id in FULL_MODEL_IDS:
        diagnostic = _omission(outcomes[model_id][valid], positive) > MAX_OMISSION
        if diagnostic != (model_id == FULL_MODEL_IDS[-1]):
            return False
    return True


def _planned_outcomes(
    items: ScoredItems,
    valid: np.ndarray,
    biased: int,
    omissions: int,
    abstention: float,
    rng: np.random.Generator,
) -> np.ndarray:
    """Outcome codes on the valid items: exact biased and omission counts, seeded places."""
    style = items.style[valid]
    stigma_effect = rng.normal(0.0, 0.4, int(items.stigma.max()) + 1)
    structure_effect = rng.normal(0.0, 0.3, int(items.structure.max()) + 1)
    weight = (0.5 * items.band[valid] + stigma_effect[items.stigma[valid]]) + structure_effect[
        items.structure[valid]
    ]
    codes = np.full(valid.size, AGAINST, dtype=np.int8)
    # Biased answers: four in ten in `original`, a third in `doubt`, the rest in `positive`.
    per_style = [round(biased * 0.4), round(biased * 0.33)]
    per_style.append(biased - sum(per_style))
    for s in range(3):
        members = np.flatnonzero(style == s)
        codes[members[top_k(weight[members], per_style[s], rng)]] = BIASED
        open_items = members[codes[members] != BIASED]
        wanted = omissions if s == 2 else round(abstention * members.size)
        wanted = min(wanted, open_items.size)
        codes[open_items[top_k(-weight[open_items] * 0.5, wanted, rng)]] = CANT_TELL
    return codes


def _demo_profiles(n_valid: int, n_positive: int) -> dict[str, tuple[int, int, float]]:
    """Demo model -> (biased, omissions, abstention rate); every one fails more than Muse."""
    rng = _rng(3)
    demo_ids = [m.model_id for m in CONTINUOUS_ROUND_MODELS if m.provider == "Demo"]
    diagnostic = {
        demo_ids[5]: DIAGNOSTIC_DEMO_OMISSION[0],
        demo_ids[13]: DIAGNOSTIC_DEMO_OMISSION[1],
    }
    profiles: dict[str, tuple[int, int, float]] = {}
    for model_id in demo_ids:
        bias_rate = float(rng.uniform(0.015, 0.15))
        omission_rate = diagnostic.get(model_id, float(rng.uniform(0.05, 0.45)))
        biased = round(bias_rate * n_valid)
        omissions = round(omission_rate * n_positive)
        abstention = min(0.9, omission_rate + float(rng.uniform(0.0, 0.15)))
        profiles[model_id] = (biased, omissions, abstention)
    return profiles


def plan_continuous_round(
    layout: Layout, full_labels: Mapping[str, Mapping[str, Label]]
) -> ContinuousPlan:
    items = scored_items(layout)
    outcomes = full_round_outcomes(layout, {m: full_labels[m] for m in FULL_MODEL_IDS})
    for attempt in range(100):
        subsample = _subsample(items, attempt)
        annulled = _annul(items, subsample, attempt)
        valid = np.array([p for p in subsample if p not in annulled], dtype=np.int64)
        if _eligibility_holds(outcomes, valid, items):
            break
    else:  # pragma: no cover - the seeds above are fixed; reaching this is a plan bug
        raise ValueError("no subsample keeps the article's eligibility pattern")
    item_ids = tuple(items.item_ids[p] for p in subsample)
    n_positive = int((items.style[valid] == 2).sum())
    planned = {MUSE_SPARK.model_id: (MUSE_BIASED, MUSE_OMISSIONS, 0.12)}
    planned.update(_demo_profiles(valid.size, n_positive))
    labels: dict[str, dict[str, Label]] = {}
    for index, model in enumerate(CONTINUOUS_ROUND_MODELS):
        if model.model_id in FULL_MODEL_IDS:
            labels[model.model_id] = {i: full_labels[model.model_id][i] for i in item_ids}
            continue
        rng = _rng(4, index)
        biased, omissions, abstention = planned[model.model_id]
        codes = dict(
            zip(
                valid.tolist(),
                _planned_outcomes(items, valid, biased, omissions, abstention, rng).tolist(),
                strict=True,
            )
        )
        for position in annulled:
            # Annulled items leave every count; their answers are just plausible ones.
            codes[position] = CANT_TELL if rng.random() < abstention else AGAINST
        labels[model.model_id] = {
            items.item_ids[p]: outcome_label(int(codes[p]), bool(items.biased_yes[p]))
            for p in subsample.tolist()
        }
    reasons = tuple(
        (items.item_ids[position], pt, en)
        for position, (_, pt, en) in zip(annulled, ANNULMENT_REASONS, strict=True)
    )
    return ContinuousPlan(item_ids=item_ids, annulled=reasons, labels=labels)
