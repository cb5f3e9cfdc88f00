"""In-memory Estigmas rounds for the scoring tests, and the hand-computed golden cases.

Each golden case (tests/golden/scoring/<case>/) is a tiny round written as plain CSV files;
`golden_round` reads one into a `Round`, and `memory_round` builds any other in memory.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Mapping, Sequence
from datetime import date
from pathlib import Path
from types import MappingProxyType
from typing import Any, cast

import numpy as np

from reportgen.kinds.estigmas.model import (
    LABEL_CODE,
    Annulment,
    Axis,
    Gender,
    Item,
    Label,
    Language,
    Manifest,
    Model,
    ModelResponses,
    Round,
    Stigma,
    Structure,
    Style,
    Variant,
)

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "scoring"
CASES = sorted(path.name for path in GOLDEN.iterdir() if path.is_dir())


def memory_round(
    *,
    round_id: str = "test-round",
    kind: Variant = "full",
    max_omission: float = 0.5,
    synthetic: bool = True,
    models: Sequence[tuple[str, str, str]],
    stigmas: Sequence[tuple[str, Axis | None]],
    structures: Sequence[tuple[str, str]],
    items: Sequence[Item],
    labels: Mapping[str, Sequence[Label]],
    annulled: Sequence[str] = (),
    texts: Mapping[str, Sequence[str]] | None = None,
) -> Round:
    """A `Round` held in memory: models are (id, display name, provider), stigmas
    (id, axis), structures (id, biased answer); `labels[model_id]` is aligned with `items`."""
    day = date(2026, 6, 24)
    manifest = Manifest(
        round_id=round_id,
        variant=kind,
        title={"pt-BR": "Rodada de teste", "en": "Test round"},
        collected_on=day,
        protocol_frozen_on=day,
        contract_version="3.0.1",
        parser_version="test",
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction={"pt-BR": "Responda com sim/não/não sei.", "en": "Answer yes/no/can't tell."},
        max_omission=max_omission,
        peril_bands=(1.0, 2.5),
        bootstrap_replicates=100,
        bootstrap_seed=42,
        synthetic=synthetic,
        parent_round=None,
    )
    responses: dict[str, ModelResponses] = {}
    for model_id, _, _ in models:
        codes = np.array([LABEL_CODE[label] for label in labels[model_id]], dtype=np.int8)
        codes.flags.writeable = False
        model_texts = tuple(texts[model_id]) if texts is not None else ()
        responses[model_id] = ModelResponses(
            model_id=model_id,
            raw_text=model_texts,
            label_codes=codes,
            latency_ms=(None,) * len(items),
        )
    return Round(
        path=Path(round_id),
        manifest=manifest,
        models=tuple(
            Model(model_id, display, provider, model_id, "", day)
            for model_id, display, provider in models
        ),
        stigmas=tuple(
            Stigma(stigma_id, stigma_id, stigma_id, "inherited", 1.0, "assigned", axis)
            for stigma_id, axis in stigmas
        ),
        structures=tuple(
            Structure(structure_id, "scenario", "cenário", "scenario", cast(Any, answer), False)
            for structure_id, answer in structures
        ),
        items=tuple(items),
        responses=MappingProxyType(responses),
        annulments=tuple(
            Annulment(
                item_id, day, "contestation", f"contest-{item_id}", {"pt-BR": "-", "en": "-"}, ""
            )
            for item_id in annulled
        ),
        checksums={},
        ledger_sha256="",
    )


def make_item(
    item_id: str,
    stigma_id: str | None,
    structure_id: str,
    style: Style,
    gender: Gender = "unspecified",
    language: Language = "pt-BR",
    pair_item_id: str | None = None,
) -> Item:
    """An item with placeholder prompt and canary (scoring never reads them)."""
    return Item(
        item_id=item_id,
        stigma_id=stigma_id,
        structure_id=structure_id,
        style=style,
        target_gender=gender,
        language=language,
        pair_item_id=pair_item_id,
        prompt=f"prompt {item_id}",
        canary=f"canary-{item_id}",
        published=False,
    )


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def golden_round(case: str) -> Round:
    """Turn the plain files of one golden case into an in-memory `Round`."""
    folder = GOLDEN / case
    about = json.loads((folder / "case.json").read_text(encoding="utf-8"))
    items = [
        make_item(
            row["item_id"],
            row["stigma_id"] or None,
            row["structure_id"],
            cast(Style, row["style"]),
            cast(Gender, row["target_gender"]),
            cast(Language, row["language"]),
            row["pair_item_id"] or None,
        )
        for row in _rows(folder / "items.csv")
    ]
    models = [
        (r["model_id"], r["display_name"], r["provider"]) for r in _rows(folder / "models.csv")
    ]
    by_model: dict[str, dict[str, Label]] = {model_id: {} for model_id, _, _ in models}
    for row in _rows(folder / "responses.csv"):
        by_model[row["model_id"]][row["item_id"]] = cast(Label, row["label"])
    return memory_round(
        round_id=about["round_id"],
        kind=about["kind"],
        max_omission=about["max_omission"],
        synthetic=about["synthetic"],
        models=models,
        stigmas=[
            (r["stigma_id"], cast(Axis, r["axis"] or None)) for r in _rows(folder / "stigmas.csv")
        ],
        structures=[
            (r["structure_id"], r["biased_answer"]) for r in _rows(folder / "structures.csv")
        ],
        items=items,
        labels={m: [by_model[m][item.item_id] for item in items] for m in by_model},
        annulled=(folder / "annulled.txt").read_text(encoding="utf-8").split(),
    )
