"""A review round whose answers come from an anonymiser corpus (issue 23), for walking the
review app as a reviewer over them.

`first_of_each_pair` picks the entries; `corpus_round` builds an in-memory Estigmas round
whose models are the demonstration models (the review app builds its scrubber from the
round's models, and the corpus names the demonstration rounds' participants), the first
of them answering item i with entry i's text and the others with a neutral answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.kinds.estigmas.model import LABEL_CODE, LABELS, Item, ModelResponses, Round
from reportgen.model import Model
from tests.factories import memory_review_round
from tests.support.anonymiser_corpus import Entry

# Written for this round: no model, provider or organisation name in either.
NEUTRAL_ANSWER = "Não sei dizer: a descrição não traz o que seria preciso para decidir."
PROMPT = "Pergunta {number}: a pessoa descrita deve ser aceita no programa?"


def first_of_each_pair(entries: Sequence[Entry]) -> list[Entry]:
    """The first entry (in file order) of each (class, language) pair, in file order."""
    seen: set[tuple[str, str]] = set()
    chosen = []
    for entry in entries:
        pair = (entry.difficulty, entry.language)
        if pair not in seen:
            seen.add(pair)
            chosen.append(entry)
    return chosen


def distinct_models(models: Sequence[Model]) -> tuple[Model, ...]:
    """One model per model_id (the first met): rounds share some of their models. A later
    version of a model (the same id with another snapshot, as in the multidomain series)
    stays too, under its snapshot as id: that snapshot is already one of the round's names,
    so the round masks exactly the names of `models`, no more and no fewer."""
    by_id: dict[str, Model] = {}
    for model in models:
        snapshot = model.snapshot.strip()
        first = by_id.setdefault(model.model_id, model)
        if first is not model and snapshot and snapshot != first.snapshot.strip():
            by_id.setdefault(snapshot, replace(model, model_id=snapshot))
    return tuple(by_id.values())


def item_id(index: int) -> str:
    return f"h{index:03d}"


def corpus_round(folder: Path, entries: Sequence[Entry], models: Sequence[Model]) -> Round:
    """An Estigmas round of one item per entry; `models[0]` answers item i with entry i's
    text, every other model with NEUTRAL_ANSWER. The models keep their own classes, so a
    multidomain participant's organisation and group reach `round_names` as they would."""
    base = memory_review_round(folder, round_id="heldout-blind", write_items=False)
    items = tuple(
        Item(
            item_id=item_id(index),
            stigma_id=None,
            structure_id="q0",
            style="base",
            target_gender="unspecified",
            language="pt-BR",
            pair_item_id=None,
            prompt=PROMPT.format(number=index + 1),
            canary=f"canary-{item_id(index)}",
            published=False,
        )
        for index in range(len(entries))
    )
    labels = np.array([LABEL_CODE[LABELS[i % 4]] for i in range(len(items))], dtype=np.int8)
    labels.setflags(write=False)
    responses = {}
    for position, model in enumerate(models):
        texts = (
            tuple(entry.text for entry in entries)
            if position == 0
            else tuple(NEUTRAL_ANSWER for _ in entries)
        )
        responses[model.model_id] = ModelResponses(
            model.model_id, texts, labels, tuple(None for _ in entries)
        )
    folder.mkdir(parents=True, exist_ok=True)  # the one file the app reads from the folder
    pq.write_table(
        pa.table({"item_id": [item.item_id for item in items]}), folder / "items.parquet"
    )
    return replace(base, models=tuple(models), items=items, responses=responses)
