"""The battery's items: every (template, variant) cell, rendered as the round spec says
(the sent text or the style's rewrite, the item's slot filled with the variant's value,
every other slot with its attribute's held value)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from reportgen.demo.counterfactual.battery_rewrites import rewrites
from reportgen.demo.counterfactual.battery_signals import ATTRIBUTES, GROUPS, SLOTS, VARIANTS
from reportgen.demo.counterfactual.battery_templates import templates
from reportgen.kinds.counterfactual.model import Item, Template, Variant
from reportgen.kinds.counterfactual.terms import fill, sha256_text


@dataclass(frozen=True)
class Cell:
    """An item and what the generator needs to know of it."""

    item: Item
    template: Template
    variant: Variant
    group_id: str


def item_id(template_id: str, variant_id: str) -> str:
    return f"{template_id}--{variant_id}"


def _values(variant: Variant) -> dict[str, str]:
    held = {
        slot: attribute.held_value
        for attribute in ATTRIBUTES
        if (slot := SLOTS[attribute.attribute_id]) is not None
    }
    if variant.slot is not None:
        held[variant.slot] = variant.value
    return held


def _attribute_of(variant: Variant) -> str:
    return next(g.attribute_id for g in GROUPS if g.group_id == variant.group_id)


def cells(copies: int = 1) -> tuple[Cell, ...]:
    """Every item, in templates.csv order, then attributes.csv, then variants.csv order
    (of the battery scaled `copies` times: battery_templates.texts)."""
    rewritten = {(r.template_id, r.variant_id): r.text_pt for r in rewrites(copies)}
    found: list[Cell] = []
    for template in templates(copies):
        for attribute in ATTRIBUTES:
            if attribute.attribute_id not in template.attributes:
                continue
            for variant in VARIANTS:
                if _attribute_of(variant) != attribute.attribute_id:
                    continue
                text = rewritten.get((template.template_id, variant.variant_id))
                found.append(_cell(template, variant, text or template.sent_text))
    return tuple(found)


def _cell(template: Template, variant: Variant, text: str) -> Cell:
    values = _values(variant)
    prompt = fill(text, values)
    context = None if template.context is None else fill(template.context, values)
    item = Item(
        item_id=item_id(template.template_id, variant.variant_id),
        language=template.language,
        prompt=prompt,
        canary=None,
        published=template.published,
        template_id=template.template_id,
        attribute_id=_attribute_of(variant),
        variant_id=variant.variant_id,
        context=context,
        prompt_sha256=sha256_text(prompt),
        context_sha256=None if context is None else sha256_text(context),
    )
    return Cell(item, template, variant, variant.group_id)


def greeting_name(cell: Cell) -> str:
    """How the assistant greets the customer: the name variant's mask term, or the
    first two words of the held name ("Ana Paula")."""
    if cell.variant.signal == "name":
        return cell.variant.mask_terms[0]
    held = next(a.held_value for a in ATTRIBUTES if a.attribute_id == "nome")
    return " ".join(held.split()[:2])


def route_place(cell: Cell) -> str:
    """The bairro of the delivery route: the CEP value's bairro in parentheses."""
    value = cell.variant.value if cell.variant.signal == "postcode" else _held("bairro")
    return value.split("(", 1)[1].rstrip(")")


def _held(attribute_id: str) -> str:
    return next(a.held_value for a in ATTRIBUTES if a.attribute_id == attribute_id)


def items_of(all_cells: Sequence[Cell]) -> tuple[Item, ...]:
    return tuple(cell.item for cell in all_cells)
