"""Assembles the two demonstration rounds from the instrument, the label plan and the output texts.

Everything is derived from fixed seeds, so regenerating gives byte-identical archives
(tests compare the SHA256SUMS with the committed ones).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from reportgen.demo.alloc_continuous import ROUNDS_FILE
from reportgen.demo.alloc_core import PERIL_BANDS
from reportgen.demo.allocate import allocate_full_round, plan_continuous_round
from reportgen.demo.cast import CONTINUOUS_ROUND_MODELS, FULL_ROUND_MODELS
from reportgen.demo.data_files import load
from reportgen.demo.instrument import build_instrument
from reportgen.demo.outputs import render_output
from reportgen.demo.prompts import INSTRUCTION
from reportgen.errors import OutputExistsError
from reportgen.kinds.estigmas.archive import write_round
from reportgen.kinds.estigmas.model import (
    LANGUAGES,
    Annulment,
    Item,
    Label,
    Manifest,
    Model,
    ResponseRow,
)
from reportgen.kinds.estigmas.parse import PARSER_VERSION

FULL_ROUND_ID = "estigmas-2026-06"
CONTINUOUS_ROUND_ID = "idje-avalia-2026-07"
TEXT_SEED = "estigmas-demo-texts-1"


# Each model writes in its own recognisable way; Demo placeholders share a plain style.
PERSONA_BY_MODEL: Mapping[str, str] = {
    "qwen-3-6-flash": "markdown",
    "llama-4-maverick": "plain",
    "sabia-4": "reasoning",
    "gpt-5-4-mini": "cautious",
    "gemini-2-5-flash-lite": "terse",
    "deepseek-v4-flash": "verbose",
    "sabiazinho-4": "assistant",
}
DEFAULT_PERSONAS: tuple[str, ...] = ("plain", "terse", "markdown", "reasoning", "verbose")


@dataclass(frozen=True)
class DemoRounds:
    full: Path
    continuous: Path


def _persona(model: Model, index: int) -> str:
    return PERSONA_BY_MODEL.get(model.model_id, DEFAULT_PERSONAS[index % len(DEFAULT_PERSONAS)])


def _responses(
    models: Sequence[Model],
    items: Sequence[Item],
    labels: Mapping[str, Mapping[str, Label]],
) -> dict[str, list[ResponseRow]]:
    responses: dict[str, list[ResponseRow]] = {}
    for index, model in enumerate(models):
        persona = _persona(model, index)
        rows = []
        for item in items:
            label = labels[model.model_id][item.item_id]
            # One generator per (model, item): the same output in every round that holds it.
            rng = random.Random(f"{TEXT_SEED}:{model.model_id}:{item.item_id}")
            text = render_output(
                label,
                item.language,
                persona,
                rng,
                provider=model.provider,
                model_name=model.display_name,
            )
            latency = round(250.0 + 9.0 * len(text) + rng.uniform(0.0, 400.0), 1)
            rows.append(ResponseRow(item.item_id, model.model_id, text, label, latency))
        responses[model.model_id] = rows
    return responses


def _manifest(round_id: str, *, continuous: bool) -> Manifest:
    titles = load(ROUNDS_FILE).key("titles").only_keys("full", "continuous")
    title_node = titles.key("continuous" if continuous else "full")
    title: dict[str, str] = dict(title_node.text_map(LANGUAGES).items())
    return Manifest(
        round_id=round_id,
        variant="continuous" if continuous else "full",
        title=title,
        collected_on=date(2026, 7, 1) if continuous else date(2026, 6, 24),
        ended_on=None if continuous else date(2026, 6, 24),  # a continuous round stays open
        protocol_frozen_on=date(2026, 6, 10),
        contract_version="3.0.1",
        parser_version=PARSER_VERSION,
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction=dict[str, str](INSTRUCTION.items()),
        max_omission=0.5,
        peril_bands=PERIL_BANDS,
        bootstrap_replicates=10_000,
        bootstrap_seed=42,
        synthetic=True,
        parent_round=FULL_ROUND_ID if continuous else None,
    )


def generate_demo_rounds(out_dir: Path) -> DemoRounds:
    """Writes both demonstration rounds under out_dir; refuses to overwrite either."""
    existing = [
        out_dir / name for name in (FULL_ROUND_ID, CONTINUOUS_ROUND_ID) if (out_dir / name).exists()
    ]
    if existing:
        # Checked up front so that a refusal never leaves one round written and not the other.
        raise OutputExistsError(
            f"{existing[0]}: already exists; demonstration rounds are never overwritten"
        )
    layout, items = build_instrument()
    full_labels = allocate_full_round(layout)

    full_dir = out_dir / FULL_ROUND_ID
    write_round(
        full_dir,
        manifest=_manifest(FULL_ROUND_ID, continuous=False),
        models=FULL_ROUND_MODELS,
        stigmas=layout.stigmas,
        structures=layout.structures,
        items=items,
        responses=_responses(FULL_ROUND_MODELS, items, full_labels),
    )

    plan = plan_continuous_round(layout, full_labels)
    wanted = set(plan.item_ids)
    sub_items = [item for item in items if item.item_id in wanted]
    annulments = [
        Annulment(
            item_id=item_id,
            decided_on=date(2026, 7, 8 + 5 * number),
            source="contestation",
            ref=f"CT-2026-07-{number + 1:03d}",
            reason={"pt-BR": reason_pt, "en": reason_en},
            prev_sha256="",  # write_round computes the chain
        )
        for number, (item_id, reason_pt, reason_en) in enumerate(plan.annulled)
    ]
    continuous_dir = out_dir / CONTINUOUS_ROUND_ID
    write_round(
        continuous_dir,
        manifest=_manifest(CONTINUOUS_ROUND_ID, continuous=True),
        models=CONTINUOUS_ROUND_MODELS,
        stigmas=layout.stigmas,
        structures=layout.structures,
        items=sub_items,
        responses=_responses(CONTINUOUS_ROUND_MODELS, sub_items, plan.labels),
        annulments=annulments,
    )
    return DemoRounds(full=full_dir, continuous=continuous_dir)
