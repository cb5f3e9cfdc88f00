"""A continuous Estigmas round of any number of models, for the site benchmark and tests.

The demonstration's continuous round (its instrument, its 500-item subsample, its two
annulments and its 28 models' labels) grown to `models` models: model k answers as the
demonstration model k mod 28 does, with a share of its answers redrawn by a generator
seeded by k, so every model has its own profile. Texts are the demonstration's own
(`reportgen.demo.outputs.render_output`), so the parser reads each as its label.
Deterministic: the same `models` gives the same archive, byte for byte.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from datetime import date
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from reportgen.demo.allocate import allocate_full_round, plan_continuous_round
from reportgen.demo.cast import CONTINUOUS_ROUND_MODELS
from reportgen.demo.generate import CONTINUOUS_ROUND_ID, _manifest
from reportgen.demo.instrument import build_instrument
from reportgen.demo.outputs import render_output
from reportgen.kinds.estigmas.archive import write_round
from reportgen.kinds.estigmas.model import LABELS, Annulment, Item, Label, ResponseRow
from reportgen.model import Model

PERSONAS = ("plain", "terse", "markdown", "reasoning", "verbose")
PROVIDERS = 12  # synthetic providers "Demo A" ... (one colour each)
REDRAWN = 0.12  # share of a model's answers redrawn at random
EVALUATED_ON = date(2026, 7, 1)


def synthetic_model(index: int) -> Model:
    """The `index`-th synthetic model (beyond the demonstration's 28)."""
    model_id = f"demo-scale-{index:04d}"
    provider = f"Demo {chr(ord('A') + index % PROVIDERS)}"
    return Model(model_id, f"Demo Scale {index:04d}", provider, model_id, "", EVALUATED_ON)


def _labels(index: int, base: Mapping[str, Label], item_ids: Sequence[str]) -> dict[str, Label]:
    rng = random.Random(f"scale-labels:{index}")
    return {
        item_id: (rng.choice(LABELS) if rng.random() < REDRAWN else base[item_id])
        for item_id in item_ids
    }


def _rows(
    model: Model, index: int, items: Sequence[Item], labels: Mapping[str, Label]
) -> list[ResponseRow]:
    persona = PERSONAS[index % len(PERSONAS)]
    rows = []
    for item in items:
        rng = random.Random(f"scale-text:{model.model_id}:{item.item_id}")
        text = render_output(
            labels[item.item_id],
            item.language,
            persona,
            rng,
            provider=model.provider,
            model_name=model.display_name,
        )
        rows.append(ResponseRow(item.item_id, model.model_id, text, labels[item.item_id], 400.0))
    return rows


class ScaleRound:
    """The demonstration instrument and plan, read once, to write rounds of any size."""

    def __init__(self) -> None:
        layout, items = build_instrument()
        self.layout = layout
        self.plan = plan_continuous_round(layout, allocate_full_round(layout))
        wanted = set(self.plan.item_ids)
        self.items = [item for item in items if item.item_id in wanted]
        self.base_ids = [m.model_id for m in CONTINUOUS_ROUND_MODELS]

    def model(self, index: int) -> tuple[Model, list[ResponseRow]]:
        """The `index`-th model of a scaled round and its response rows."""
        model = synthetic_model(index)
        base = self.plan.labels[self.base_ids[index % len(self.base_ids)]]
        labels = _labels(index, base, [item.item_id for item in self.items])
        return model, _rows(model, index, self.items, labels)

    def write(self, out_dir: Path, models: int, replicates: int | None = None) -> Path:
        """A continuous round of `models` models at `out_dir/<round id>` (bootstrap
        replicates as the demonstration's, 10,000, unless `replicates` says otherwise)."""
        chosen = [self.model(index) for index in range(models)]
        annulments = [
            Annulment(
                item_id=item_id,
                decided_on=date(2026, 7, 8 + 5 * number),
                source="contestation",
                ref=f"CT-2026-07-{number + 1:03d}",
                reason={"pt-BR": reason_pt, "en": reason_en},
                prev_sha256="",
            )
            for number, (item_id, reason_pt, reason_en) in enumerate(self.plan.annulled)
        ]
        target = out_dir / CONTINUOUS_ROUND_ID
        manifest = replace(_manifest(CONTINUOUS_ROUND_ID, continuous=True), parent_round=None)
        if replicates is not None:
            manifest = replace(manifest, bootstrap_replicates=replicates)
        write_round(
            target,
            manifest=manifest,
            models=[model for model, _ in chosen],
            stigmas=self.layout.stigmas,
            structures=self.layout.structures,
            items=self.items,
            responses={model.model_id: rows for model, rows in chosen},
            annulments=annulments,
        )
        return target

    def write_responses(self, index: int, path: Path) -> Model:
        """The `index`-th model's outputs as `reportgen add-model` reads them (parquet)."""
        model, rows = self.model(index)
        table = pa.table(
            {
                "item_id": [row.item_id for row in rows],
                "model_id": [model.model_id for _ in rows],
                "raw_text": [row.raw_text for row in rows],
            }
        )
        pq.write_table(table, path)
        return model
