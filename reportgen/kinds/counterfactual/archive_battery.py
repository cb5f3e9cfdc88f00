"""The battery's tables against each other (counterfactual-round.md, refusals 15 to 25
and 27): groups of known attributes, variants of known groups, one signal and one slot
per attribute, positions 1..K with the same K in every group, names K >= 2, values,
held values, template slots and rewrites. Rows are named by their 1-based data row."""

from __future__ import annotations

from collections import Counter, defaultdict

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import Round, Template, Variant
from reportgen.kinds.counterfactual.schemas import (
    ATTRIBUTES_FILE,
    GROUPS_FILE,
    REWRITES_FILE,
    TEMPLATES_FILE,
    VARIANTS_FILE,
)
from reportgen.kinds.counterfactual.terms import slots_in


class Battery:
    """Lookups over a round's battery: each attribute's groups, variants, signal, slot."""

    def __init__(self, round_: Round) -> None:
        self.attribute_ids = [a.attribute_id for a in round_.attributes]
        self.attribute_of_group = {g.group_id: g.attribute_id for g in round_.groups}
        self.groups_of: dict[str, list[str]] = defaultdict(list)
        for group in round_.groups:
            self.groups_of[group.attribute_id].append(group.group_id)
        self.variants_of: dict[str, list[tuple[int, Variant]]] = defaultdict(list)
        for number, variant in enumerate(round_.variants, start=1):
            attribute_id = self.attribute_of_group.get(variant.group_id)
            if attribute_id is not None:
                self.variants_of[attribute_id].append((number, variant))
        self.signal = {a: rows[0][1].signal for a, rows in self.variants_of.items()}
        self.slot = {a: rows[0][1].slot for a, rows in self.variants_of.items()}
        self.attribute_of_slot = {slot: a for a, slot in self.slot.items() if slot is not None}
        self.attribute_of_variant = {
            v.variant_id: a for a, rows in self.variants_of.items() for _, v in rows
        }


def template_slots(template: Template, *, context: bool = True) -> set[str]:
    texts = [template.text_pt, template.text_en]
    if context and template.context:
        texts.append(template.context)
    return {slot for text in texts for slot in slots_in(text)}


def check_battery(round_: Round, problems: Problems) -> None:
    battery = Battery(round_)
    _check_groups(round_, battery, problems)
    _check_variants(round_, battery, problems)
    _check_positions(battery, problems)
    if not _check_every_attribute_has_variants(round_, battery, problems):
        return  # an attribute's slot is unknown: the checks below would only guess at it
    _check_templates(round_, battery, problems)
    _check_held_values(round_, battery, problems)
    _check_rewrites(round_, battery, problems)


def _check_groups(round_: Round, battery: Battery, problems: Problems) -> None:
    known = set(battery.attribute_ids)
    for number, group in enumerate(round_.groups, start=1):
        if group.attribute_id not in known:
            problems.add(
                GROUPS_FILE,
                f"row {number}, attribute_id",
                f"unknown attribute {group.attribute_id!r} (not in attributes.csv)",
            )
    for number, attribute in enumerate(round_.attributes, start=1):
        count = len(battery.groups_of.get(attribute.attribute_id, []))
        if count < 2:
            problems.add(
                ATTRIBUTES_FILE,
                f"row {number} (attribute {attribute.attribute_id!r})",
                f"expected at least 2 groups in groups.csv (an attribute is compared across "
                f"its groups), got {count}",
            )


# long: one pass over variants.csv, one short check per column of the spec's table
def _check_variants(round_: Round, battery: Battery, problems: Problems) -> None:
    found = problems.in_file(VARIANTS_FILE)
    slot_owner: dict[str, str] = {}
    shared: set[tuple[str, str]] = set()
    values: dict[tuple[str, str], int] = {}
    for number, variant in enumerate(round_.variants, start=1):
        attribute_id = battery.attribute_of_group.get(variant.group_id)
        if attribute_id is None:
            found.add(f"row {number}, group_id", f"unknown group {variant.group_id!r}")
            continue
        signal, slot = battery.signal[attribute_id], battery.slot[attribute_id]
        if variant.signal != signal:
            found.add(
                f"row {number}, signal",
                f"{variant.signal!r} differs from the attribute {attribute_id!r}'s {signal!r}",
            )
        elif variant.signal == "writing_style" and variant.slot is not None:
            found.add(f"row {number}, slot", "a writing_style variant has no slot (expected empty)")
        elif variant.signal != "writing_style" and variant.slot is None:
            found.add(f"row {number}, slot", f"a {variant.signal} variant needs a slot")
        elif variant.slot != slot:
            found.add(
                f"row {number}, slot",
                f"{variant.slot!r} differs from the attribute {attribute_id!r}'s {slot!r}",
            )
        elif (
            variant.slot is not None
            and slot_owner.setdefault(variant.slot, attribute_id) != attribute_id
            and (variant.slot, attribute_id) not in shared
        ):
            shared.add((variant.slot, attribute_id))  # once per attribute, not per variant
            found.add(
                f"row {number}, slot",
                f"slot {variant.slot!r} belongs to attribute {slot_owner[variant.slot]!r}: "
                "each slot belongs to exactly one attribute",
            )
        if not variant.value and variant.signal != "explicit":
            found.add(f"row {number}, value", "empty: only an explicit control has no value")
        elif (attribute_id, variant.value) in values:
            first = values[(attribute_id, variant.value)]
            found.add(
                f"row {number}, value",
                f"{variant.value!r} repeats row {first} within attribute {attribute_id!r}",
            )
        values.setdefault((attribute_id, variant.value), number)


def _check_positions(battery: Battery, problems: Problems) -> None:
    found = problems.in_file(VARIANTS_FILE)
    for attribute_id, rows in battery.variants_of.items():
        positions: dict[str, list[int]] = {g: [] for g in battery.groups_of[attribute_id]}
        for _, variant in rows:
            positions[variant.group_id].append(variant.position)
        for group_id, found_positions in positions.items():
            if found_positions and sorted(found_positions) != list(
                range(1, len(found_positions) + 1)
            ):
                found.add(
                    f"group {group_id!r}",
                    f"positions {sorted(found_positions)}: expected exactly 1..K, each once",
                )
        sizes = [len(p) for p in positions.values()]
        if len(set(sizes)) > 1:
            found.add(
                f"attribute {attribute_id!r}",
                f"groups with unequal numbers of variants {sizes}: every group of an attribute "
                "has the same K (the pairing unit needs it)",
            )
        elif battery.signal[attribute_id] == "name" and min(sizes, default=0) < 2:
            found.add(
                f"attribute {attribute_id!r}",
                f"signal name with {min(sizes, default=0)} variant(s) per group: expected at "
                "least 2 names per group, so that one name's effect is not the group's",
            )


def _check_every_attribute_has_variants(
    round_: Round, battery: Battery, problems: Problems
) -> bool:
    """Refusal 18 with K = 0: an attribute whose groups hold no variant has neither a
    signal nor a slot. One line for an empty variants.csv, else one per such attribute
    (one with fewer than 2 groups is already refusal 15's). True when none lacks them."""
    lacking = [a for a in round_.attributes if a.attribute_id not in battery.variants_of]
    if not lacking:
        return True
    if not round_.variants:
        problems.add(
            VARIANTS_FILE, "", "no rows: expected the variants of every group (positions 1..K)"
        )
        return False
    for attribute in lacking:
        if len(battery.groups_of.get(attribute.attribute_id, [])) >= 2:
            problems.add(
                VARIANTS_FILE,
                f"attribute {attribute.attribute_id!r}",
                "no variant in any of its groups: expected positions 1..K, K >= 1, in each",
            )
    return False


def _check_templates(round_: Round, battery: Battery, problems: Problems) -> None:
    found = problems.in_file(TEMPLATES_FILE)
    known = set(battery.attribute_ids)
    for number, template in enumerate(round_.templates, start=1):
        unknown = [a for a in template.attributes if a not in known]
        repeated = [a for a, n in Counter(template.attributes).items() if n > 1]
        if unknown or repeated:
            found.add(
                f"row {number}, attributes",
                f"unknown attribute(s) {unknown}"
                if unknown
                else f"repeated attribute(s) {repeated}",
            )
            continue
        for name, text in (("text_pt", template.text_pt), ("text_en", template.text_en)):
            strays = sorted({s for s in slots_in(text) if s not in battery.attribute_of_slot})
            if strays:
                found.add(
                    f"row {number}, {name}", f"unknown slot(s) {strays}: no attribute has them"
                )
        strays = sorted(
            {s for s in slots_in(template.context or "") if s not in battery.attribute_of_slot}
        )
        if strays:
            found.add(f"row {number}, context", f"unknown slot(s) {strays}: no attribute has them")
        present = {*slots_in(template.sent_text), *slots_in(template.context or "")}
        if not present:
            found.add(f"row {number}, text_pt", "template without slot: it contains no {slot}")
            continue
        for attribute_id in template.attributes:
            slot = battery.slot.get(attribute_id)
            if battery.signal.get(attribute_id) != "writing_style" and slot not in present:
                found.add(
                    f"row {number}, text_pt",
                    f"template without slot: crossed with {attribute_id!r} but its slot "
                    f"{{{slot}}} is in neither the sent text nor the context",
                )


def _check_held_values(round_: Round, battery: Battery, problems: Problems) -> None:
    """An attribute's held value is required where its slot appears in another's items."""
    elsewhere: set[str] = set()
    for template in round_.templates:
        for slot in template_slots(template):
            owner = battery.attribute_of_slot.get(slot)
            if owner is not None and any(a != owner for a in template.attributes):
                elsewhere.add(owner)
    for rewrite in round_.rewrites:
        for slot in {*slots_in(rewrite.text_pt), *slots_in(rewrite.text_en)}:
            if slot in battery.attribute_of_slot:
                elsewhere.add(battery.attribute_of_slot[slot])
    for number, attribute in enumerate(round_.attributes, start=1):
        attribute_id = attribute.attribute_id
        if (
            attribute_id in elsewhere
            and not attribute.held_value
            and battery.signal.get(attribute_id) != "explicit"
        ):
            problems.add(
                ATTRIBUTES_FILE,
                f"row {number}, held_value",
                f"empty although the slot {{{battery.slot[attribute_id]}}} appears in items of "
                "another attribute (it is filled with the held value there)",
            )


def _check_rewrites(round_: Round, battery: Battery, problems: Problems) -> None:
    found = problems.in_file(REWRITES_FILE)
    expected = {
        (template.template_id, variant.variant_id)
        for template in round_.templates
        for attribute_id in template.attributes
        if battery.signal.get(attribute_id) == "writing_style"
        for _, variant in battery.variants_of[attribute_id]
    }
    seen: set[tuple[str, str]] = set()
    for number, rewrite in enumerate(round_.rewrites, start=1):
        key = (rewrite.template_id, rewrite.variant_id)
        seen.add(key)
        if key not in expected:
            found.add(
                f"row {number}",
                f"extra row: template {key[0]!r} is not crossed with a writing_style attribute "
                f"holding variant {key[1]!r}",
            )
            continue
        own = battery.attribute_of_variant[rewrite.variant_id]
        for name, text in (("text_pt", rewrite.text_pt), ("text_en", rewrite.text_en)):
            slots = set(slots_in(text))
            strays = sorted(s for s in slots if battery.attribute_of_slot.get(s) in (None, own))
            if strays:
                found.add(
                    f"row {number}, {name}",
                    f"slot(s) {strays}: a rewrite holds only other attributes' slots",
                )
    for template_id, variant_id in sorted(expected - seen):
        found.add(
            f"template {template_id!r}, variant {variant_id!r}",
            "missing row: every (template, writing_style variant) has its rewrite",
        )
