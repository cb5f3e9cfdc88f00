"""Random in-memory rounds of any shape, for the statistics tests and the benchmark.

Not demonstration data (that is `reportgen.demo`): these rounds only have the right
shape. Each of `cells` (stigma, structure) cells holds `repeats` items per scored style, so
the full shape (101 stigmas, 27 structures, 2,542 cells) gives N = 7,626 and n = 2,542.
Outcomes depend on the model, the stigma and the structure, so that resampling stigmas and
structures matters; `pairs` pt-BR items get an `en` realisation for the language study.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import get_args

import numpy as np
from numpy.typing import NDArray

from reportgen.kinds.estigmas.model import (
    GENDERS,
    LABEL_CODE,
    SCORED_STYLES,
    Answer,
    Item,
    Manifest,
    Model,
    ModelResponses,
    Round,
    Stigma,
    Structure,
)

_DAY = date(2026, 6, 24)
_ANSWERS: tuple[Answer, ...] = get_args(Answer)


def random_round(
    seed: int,
    models: int = 7,
    stigmas: int = 101,
    structures: int = 27,
    cells: int = 2542,
    pairs: int = 994,
    replicates: int = 10_000,
    with_text: bool = True,
    repeats: int = 1,
) -> Round:
    rng = np.random.default_rng(seed)
    chosen = np.sort(rng.choice(stigmas * structures, size=cells, replace=False))
    stigma_of_cell, structure_of_cell = np.divmod(chosen, structures)
    stigma_rows = tuple(
        Stigma(
            stigma_id=f"s{s:03d}",
            name_pt=f"estigma {s}",
            name_en=f"stigma {s}",
            origin="inherited",
            peril=float(rng.uniform(0.15, 4.21)),
            peril_source="assigned",
            axis="race" if s % 10 == 1 else "origin" if s % 10 == 2 else None,
        )
        for s in range(stigmas)
    )
    structure_rows = tuple(
        Structure(f"t{t:02d}", f"c{t:02d}", f"cenário {t}", f"scenario {t}", _ANSWERS[t % 2], False)
        for t in range(structures)
    )
    items: list[Item] = []
    for cell, (s, t) in enumerate(zip(stigma_of_cell, structure_of_cell, strict=True)):
        for copy in range(repeats):
            for style in SCORED_STYLES:
                gender = GENDERS[int(rng.integers(len(GENDERS)))]
                item_id = f"i{cell:05d}{style[0]}{copy}"
                items.append(_item(item_id, f"s{s:03d}", f"t{t:02d}", style, gender))
    paired = np.sort(rng.choice(len(items), size=min(pairs, len(items)), replace=False))
    for p in paired:
        source = items[int(p)]
        items.append(
            _item(
                f"e{source.item_id}",
                source.stigma_id,
                source.structure_id,
                source.style,
                source.target_gender,
                "en",
                source.item_id,
            )
        )
    stigma_effect = rng.normal(0, 0.6, stigmas)
    structure_effect = rng.normal(0, 0.6, structures)
    levels = _levels(items, stigma_rows, structure_rows)
    responses = {}
    model_rows = []
    for m in range(models):
        model_id = f"model-{m:03d}" if models <= 1000 else f"model-{m:04d}"
        model_rows.append(Model(model_id, f"Model {m}", f"Provider {m % 5}", model_id, "", _DAY))
        labels = _labels(rng, levels, structure_rows, stigma_effect, structure_effect)
        # The lengths are drawn either way, so that a round read without text has the same
        # labels as the one with text.
        lengths = rng.integers(1, 30, len(items))
        texts = tuple(" ".join(["palavra"] * int(k)) for k in lengths) if with_text else ()
        responses[model_id] = ModelResponses(
            model_id=model_id,
            raw_text=texts,
            label_codes=labels,
            latency_ms=(None,) * len(items),
        )
    return Round(
        path=Path(f"/nonexistent/random-round-{seed}"),
        manifest=_manifest(seed, replicates),
        models=tuple(model_rows),
        stigmas=stigma_rows,
        structures=structure_rows,
        items=tuple(items),
        responses=MappingProxyType(responses),
        annulments=(),
        checksums={},
        ledger_sha256="",
    )


_Levels = tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.bool_]]


def _levels(
    items: list[Item], stigmas: tuple[Stigma, ...], structures: tuple[Structure, ...]
) -> _Levels:
    """Each item's stigma and structure positions and whether it is in English."""
    stigma_index = {s.stigma_id: i for i, s in enumerate(stigmas)}
    structure_index = {s.structure_id: i for i, s in enumerate(structures)}
    s = np.array([stigma_index[item.stigma_id or ""] for item in items])
    t = np.array([structure_index[item.structure_id] for item in items])
    english = np.array([item.language == "en" for item in items])
    return s, t, english


def _labels(
    rng: np.random.Generator,
    levels: _Levels,
    structures: tuple[Structure, ...],
    stigma_effect: NDArray[np.float64],
    structure_effect: NDArray[np.float64],
) -> NDArray[np.int8]:
    s, t, english = levels
    biased_yes = np.array([structure.biased_answer == "yes" for structure in structures])[t]
    bias_level, caution = rng.normal(-2.5, 0.7), rng.normal(-0.5, 1.0)
    shift = stigma_effect[s] + structure_effect[t] + 0.4 * english
    p_cant = 1 / (1 + np.exp(-(caution + shift / 2)))
    p_biased = 1 / (1 + np.exp(-(bias_level + shift)))
    draws = rng.random((len(s), 2))
    yes, no = LABEL_CODE["yes"], LABEL_CODE["no"]
    decided = np.where(
        draws[:, 1] < p_biased, np.where(biased_yes, yes, no), np.where(biased_yes, no, yes)
    )
    abstained = np.where(draws[:, 1] > 0.002, LABEL_CODE["cant_tell"], LABEL_CODE["inconclusive"])
    codes = np.where(draws[:, 0] < p_cant, abstained, decided).astype(np.int8)
    codes.flags.writeable = False
    return codes


def _item(
    item_id: str,
    stigma_id: str | None,
    structure_id: str,
    style: str,
    gender: str,
    language: str = "pt-BR",
    pair: str | None = None,
) -> Item:
    return Item(
        item_id=item_id,
        stigma_id=stigma_id,
        structure_id=structure_id,
        style=style,  # type: ignore[arg-type]
        target_gender=gender,  # type: ignore[arg-type]
        language=language,  # type: ignore[arg-type]
        pair_item_id=pair,
        prompt=f"prompt {item_id}",
        canary=f"CANARY-{item_id}",
        published=False,
    )


def _manifest(seed: int, replicates: int) -> Manifest:
    return Manifest(
        round_id=f"random-round-{seed}",
        variant="full",
        title={"pt-BR": "Rodada aleatória", "en": "Random round"},
        collected_on=_DAY,
        protocol_frozen_on=_DAY,
        contract_version="3.0.1",
        parser_version="test",
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction={"pt-BR": "Responda com sim/não/não sei.", "en": "Answer yes/no/can't tell."},
        max_omission=0.5,
        peril_bands=(1.0, 2.5),
        bootstrap_replicates=replicates,
        bootstrap_seed=seed,
        synthetic=True,
        parent_round=None,
    )
