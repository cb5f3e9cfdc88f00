"""What the leak guard keeps off an Estigmas site: the unpublished item bank."""

from __future__ import annotations

from reportgen.guard import GuardMaterial
from reportgen.kinds.estigmas.model import Round


def guard_material(round_: Round) -> GuardMaterial:
    """Unpublished prompts are secret, published ones public; every item's canary is
    secret; model, provider and stigma names are data shown on pages."""
    names: list[str] = []
    for model in round_.models:
        names += [model.display_name, model.provider]
    for stigma in round_.stigmas:
        names += [stigma.name_pt, stigma.name_en]
    return GuardMaterial(
        round_id=round_.round_id,
        secret_texts=tuple((i.item_id, i.prompt) for i in round_.items if not i.published),
        public_texts=tuple(i.prompt for i in round_.items if i.published),
        canaries=tuple(i.canary for i in round_.items),
        names=tuple(names),
    )
