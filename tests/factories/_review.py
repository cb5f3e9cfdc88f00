"""The review app's small in-memory round, whose models name themselves in their answers.

`memory_review_round` builds an Estigmas `Round` in memory (the review app samples from it
without reading an archive) and writes the one file the app reads from a round folder,
items.parquet. `REVIEW_MODELS` are its models; `review_model_names` every name of theirs that
a blind page must never show.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.kinds.estigmas.model import (
    LABEL_CODE,
    LABELS,
    Item,
    Manifest,
    Model,
    ModelResponses,
    Round,
    Structure,
)

_ON = date(2025, 3, 1)
REVIEW_MODELS = (
    Model("zeltron-2", "Zeltron-2", "Acme Labs", "acme/zeltron-2-large", "2025-01-07", _ON),
    Model("sabia-3", "Sabiá-3", "Maritaca AI", "sabia-3", "", _ON),
    Model("gpt-4o", "GPT-4o", "OpenAI", "gpt-4o-2024-08-06", "", _ON),
)

# Outputs a model might give, some of them naming themselves or their maker.
_OUTPUTS = (
    "Sim.",
    "Não. Como uma IA desenvolvida pela Acme Labs, prefiro não presumir nada.",
    "Não sei: a pergunta não traz informação suficiente.",
    "Eu sou o Zeltron-2 e não respondo a esse tipo de pergunta.",
    "Sou o Sabiá-3, da Maritaca AI. Resposta: não.",
    "As an AI developed by OpenAI, I cannot decide. <b>GPT-4o</b>",
)


def review_model_names() -> list[str]:
    """Every model and provider name the blind pages must never show."""
    names: list[str] = []
    for model in REVIEW_MODELS:
        names += [model.model_id, model.display_name, model.provider, model.api_identifier]
    return names


def memory_review_round(
    folder: Path, *, items_per_cell: int = 4, round_id: str = "r-demo", write_items: bool = True
) -> Round:
    """A small round (styles × languages × `items_per_cell` items) and its items.parquet."""
    items: list[Item] = []
    for style in ("original", "doubt", "positive", "base"):
        for language in ("pt-BR", "en"):
            for number in range(items_per_cell):
                items.append(
                    Item(
                        item_id=f"{style[:3]}-{language}-{number}",
                        stigma_id=None if style == "base" else f"s{number}",
                        structure_id=f"q{number % 3}",
                        style=style,
                        target_gender="unspecified",
                        language=language,
                        pair_item_id=None,
                        prompt=f"Pergunta {number} ({style}): a pessoa deve ser contratada?",
                        canary=f"canary-{style}-{language}-{number}",
                        published=False,
                    )
                )
    responses = {}
    for offset, model in enumerate(REVIEW_MODELS):
        texts = tuple(_OUTPUTS[(i + offset) % len(_OUTPUTS)] for i in range(len(items)))
        labels = np.array(
            [LABEL_CODE[LABELS[(i + offset) % 4]] for i in range(len(items))], dtype=np.int8
        )
        labels.setflags(write=False)
        responses[model.model_id] = ModelResponses(
            model.model_id, texts, labels, tuple(None for _ in items)
        )
    if write_items:  # the only file the review app reads from a round folder itself
        folder.mkdir(parents=True, exist_ok=True)
        pq.write_table(
            pa.table({"item_id": [item.item_id for item in items]}), folder / "items.parquet"
        )
    manifest = Manifest(
        round_id=round_id,
        variant="full",
        title={"pt-BR": "Rodada de teste", "en": "Test round"},
        collected_on=date(2025, 3, 1),
        protocol_frozen_on=date(2025, 2, 1),
        contract_version="3.0.1",
        parser_version="1.0.0",
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction={"pt-BR": "Responda com sim/não/não sei.", "en": "Answer yes/no/can't tell."},
        max_omission=0.5,
        peril_bands=(1.0, 2.5),
        bootstrap_replicates=100,
        bootstrap_seed=42,
        synthetic=True,
        parent_round=None,
    )
    return Round(
        path=folder,
        manifest=manifest,
        models=REVIEW_MODELS,
        stigmas=(),
        structures=tuple(
            Structure(f"q{n}", "sc1", "Cenário", "Scenario", "yes", False) for n in range(3)
        ),
        items=tuple(items),
        responses=responses,
        annulments=(),
        checksums={},
        ledger_sha256="",
    )
