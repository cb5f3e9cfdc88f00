"""An Estigmas round of the article's size (about 8,700 items x 7 models, with text), written
to disk: read by a test that checks nothing is lost, and by bench/bench_archive_read.py,
which times the reading."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from reportgen.kinds.estigmas.archive import write_round
from reportgen.kinds.estigmas.model import Item, Model, ResponseRow
from tests.factories._archives import tiny_parts

ITEMS_AT_LEAST = 8700
MODELS = 7


def write_full_size_round(folder: Path) -> int:
    """Write the round into `folder` (named `tiny-round`, its round_id; it must not exist);
    return how many items it has."""
    parts = tiny_parts()
    copies = ITEMS_AT_LEAST // len(parts.items) + 1
    items = tuple(
        Item(
            **{
                **vars(item),
                "item_id": f"{item.item_id}-{k}",
                "canary": f"c-{k}-{item.item_id}",
                "pair_item_id": f"{item.pair_item_id}-{k}" if item.pair_item_id else None,
            }
        )
        for k in range(copies)
        for item in parts.items
    )
    models = tuple(
        Model(f"m-{k}", f"M {k}", "P", f"m{k}", "", date(2026, 6, 24)) for k in range(MODELS)
    )
    text = "Não sei, faltam informações."
    responses = {
        model.model_id: tuple(
            ResponseRow(item.item_id, model.model_id, text, "cant_tell", 120.0) for item in items
        )
        for model in models
    }
    write_round(
        folder,
        manifest=parts.manifest,
        models=models,
        stigmas=parts.stigmas,
        structures=parts.structures,
        items=items,
        responses=responses,
    )
    return len(items)
