"""A battery rendered into its items (counterfactual-round.md, items.parquet).

One item per (template, variant) whose variant's attribute the template is crossed
with, in templates.csv order, then the template's `attributes` order, then variants.csv
order. Rendering (exact): take the sent text (`text_pt` or `text_en` per the template's
`language`), or the rewrite for a writing_style variant; replace every `{slot}` of the
item's attribute by the variant's `value` and every other `{slot}` by its attribute's
`held_value`; the same for `context`. Rule 30 (non-minimal pair) compares an archive's
items with this rendering byte for byte, and `reportgen counterfactual render` writes
it: one definition for both.

Item ids are `<template_id>--<variant_id>` (`item_id`): stable across rounds of the
same battery, so that a baseline round's items line up with a re-measurement's. The
ids of a battery whose own identifiers contain `--` could collide; the core's unique
`item_id` check then refuses the archive rather than mixing two cells.

Pure functions over the model's types; a slot no attribute owns (refused by rule 24)
is left as written, so that rendering an invalid battery never raises.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property

from reportgen.kinds.counterfactual.model import (
    Attribute,
    Group,
    Item,
    Rewrite,
    Round,
    Template,
    Variant,
)
from reportgen.kinds.counterfactual.terms import sha256_text

ITEM_ID_SEPARATOR = "--"
_SLOT = re.compile(r"\{([^{}]*)\}")


def item_id(template_id: str, variant_id: str) -> str:
    """The id of the item of (template, variant): `<template_id>--<variant_id>`."""
    return f"{template_id}{ITEM_ID_SEPARATOR}{variant_id}"


def render(text: str, values: Mapping[str, str]) -> str:
    """`text` with every `{slot}` of `values` replaced; any other `{...}` kept."""
    return _SLOT.sub(lambda match: values.get(match.group(1), match.group(0)), text)


@dataclass(frozen=True, slots=True)
class Cell:
    """One (template, variant) of the battery and its rendering (None: not renderable,
    a writing_style variant without its rewrite)."""

    template: Template
    attribute_id: str
    variant: Variant
    prompt: str | None
    context: str | None

    @property
    def key(self) -> tuple[str, str]:
        return (self.template.template_id, self.variant.variant_id)


@dataclass(frozen=True)
class Battery:
    """The battery's tables, indexed once (dict lookups for every rule and the render)."""

    attributes: Sequence[Attribute]
    groups: Sequence[Group]
    variants: Sequence[Variant]
    templates: Sequence[Template]
    rewrites: Sequence[Rewrite]

    @classmethod
    def of_round(cls, round_: Round) -> Battery:
        return cls(
            round_.attributes, round_.groups, round_.variants, round_.templates, round_.rewrites
        )

    @cached_property
    def attribute_of_group(self) -> Mapping[str, str]:
        return {group.group_id: group.attribute_id for group in self.groups}

    @cached_property
    def variants_by_id(self) -> Mapping[str, Variant]:
        return {variant.variant_id: variant for variant in self.variants}

    @cached_property
    def templates_by_id(self) -> Mapping[str, Template]:
        return {template.template_id: template for template in self.templates}

    def attribute_of(self, variant: Variant) -> str | None:
        return self.attribute_of_group.get(variant.group_id)

    @cached_property
    def variants_of(self) -> Mapping[str, tuple[Variant, ...]]:
        """attribute_id -> its variants in variants.csv order."""
        found: dict[str, list[Variant]] = {}
        for variant in self.variants:
            attribute_id = self.attribute_of(variant)
            if attribute_id is not None:
                found.setdefault(attribute_id, []).append(variant)
        return {attribute_id: tuple(rows) for attribute_id, rows in found.items()}

    @cached_property
    def held_values(self) -> Mapping[str, str]:
        """slot -> the held_value of the attribute that owns it (first owner wins)."""
        held = {attribute.attribute_id: attribute.held_value for attribute in self.attributes}
        values: dict[str, str] = {}
        for variant in self.variants:
            attribute_id = self.attribute_of(variant)
            if variant.slot and attribute_id in held:
                values.setdefault(variant.slot, held[attribute_id])
        return values

    @cached_property
    def rewrites_by_key(self) -> Mapping[tuple[str, str], Rewrite]:
        return {(rewrite.template_id, rewrite.variant_id): rewrite for rewrite in self.rewrites}

    def cell(self, template: Template, variant: Variant) -> Cell:
        """The rendering of (template, variant), the variant's attribute being crossed."""
        attribute_id = self.attribute_of(variant) or ""
        values = dict(self.held_values)
        if variant.slot:
            values[variant.slot] = variant.value
        if variant.signal == "writing_style":
            rewrite = self.rewrites_by_key.get((template.template_id, variant.variant_id))
            text = None
            if rewrite is not None:
                text = rewrite.text_pt if template.language == "pt-BR" else rewrite.text_en
        else:
            text = template.sent_text
        prompt = None if text is None else render(text, values)
        context = None if template.context is None else render(template.context, values)
        return Cell(template, attribute_id, variant, prompt, context)

    def cells(self) -> Iterator[Cell]:
        """Every (template, variant) the battery crosses, in the battery's order."""
        for template in self.templates:
            for attribute_id in dict.fromkeys(template.attributes):
                for variant in self.variants_of.get(attribute_id, ()):
                    yield self.cell(template, variant)

    @cached_property
    def expected_cells(self) -> Mapping[tuple[str, str], Cell]:
        """(template_id, variant_id) -> its cell, for every item the battery requires."""
        return {cell.key: cell for cell in self.cells()}


def cell_item(cell: Cell) -> Item | None:
    """The items.parquet row of a cell (None when it cannot be rendered)."""
    if cell.prompt is None:
        return None
    template = cell.template
    return Item(
        item_id=item_id(template.template_id, cell.variant.variant_id),
        language=template.language,
        prompt=cell.prompt,
        canary=None,
        published=template.published,
        template_id=template.template_id,
        attribute_id=cell.attribute_id,
        variant_id=cell.variant.variant_id,
        context=cell.context,
        prompt_sha256=sha256_text(cell.prompt),
        context_sha256=None if cell.context is None else sha256_text(cell.context),
    )


def render_items(battery: Battery) -> tuple[Item, ...]:
    """Every item of the battery, in its order (cells that cannot render left out)."""
    return tuple(item for cell in battery.cells() if (item := cell_item(cell)) is not None)
