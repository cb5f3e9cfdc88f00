"""Refusals 29, 30 and 31 on items.parquet: the battery's cells, their rendering, hashes.

29: exactly one item per (template, variant) with the variant's attribute crossed by the
template; `attribute_id`, `language` and `published` as the battery says. 30 (non-minimal
pair): `prompt` and `context` equal the battery's rendering byte for byte (battery.py).
31: `prompt_sha256` and `context_sha256` are the hashes of the texts.
A duplicate or unexpected item is reported once, by rule 29 only.
"""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.battery import Battery, Cell
from reportgen.kinds.counterfactual.model import Item, Round
from reportgen.kinds.counterfactual.rules._index import ITEMS_FILE, RoundIndex
from reportgen.kinds.counterfactual.terms import sha256_text

Entries = list[tuple[str, str]]
_SHOWN = 24  # characters shown on each side of a first difference


def check_items(round_: Round, index: RoundIndex, problems: Problems) -> None:
    found = problems.in_file(ITEMS_FILE)
    battery = index.battery
    expected = battery.expected_cells
    first_row: dict[tuple[str, str], int] = {}
    cells: list[tuple[int, Item, Cell]] = []
    entries: Entries = []
    for number, item in enumerate(round_.items, start=1):
        key = (item.template_id, item.variant_id)
        if key in first_row:
            entries.append(
                (
                    f"row {number}",
                    f"a second item of (template {key[0]}, variant {key[1]}) (first in row "
                    f"{first_row[key]}): expected one item per (template, variant)",
                )
            )
            continue
        first_row[key] = number
        cell = expected.get(key)
        if cell is None:
            entries.append((f"row {number}", _unexpected(item, battery)))
            continue
        entries += _disagreements(number, item, cell)
        cells.append((number, item, cell))
    entries += [
        (
            f"(template {template_id}, variant {variant_id})",
            "missing item: expected one per (template, variant) of an attribute the "
            "template is crossed with",
        )
        for template_id, variant_id in expected
        if (template_id, variant_id) not in first_row
    ]
    found.rows(entries, "items missing, extra or disagreeing with the battery")
    found.rows(_rendering_problems(cells), "items that are not their template rendered")
    found.rows(_hash_problems(round_), "items with a wrong hash")


def _unexpected(item: Item, battery: Battery) -> str:
    """Why the battery has no cell (template, variant) for this item."""
    cell = f"(template {item.template_id}, variant {item.variant_id})"
    template = battery.templates_by_id.get(item.template_id)
    variant = battery.variants_by_id.get(item.variant_id)
    if template is None:
        return f"an item of {cell}: template {item.template_id} is not in templates.csv"
    if variant is None:
        return f"an item of {cell}: variant {item.variant_id} is not in variants.csv"
    attribute_id = battery.attribute_of(variant)
    return (
        f"an item of {cell}: the template is crossed with {';'.join(template.attributes)}, "
        f"not with the variant's attribute {attribute_id}"
    )


def _disagreements(number: int, item: Item, cell: Cell) -> Entries:
    template = cell.template
    pairs: tuple[tuple[str, object, object, str], ...] = (
        ("attribute_id", item.attribute_id, cell.attribute_id, "the variant's attribute"),
        ("language", item.language, template.language, "the template's language"),
        ("published", item.published, template.published, "the template's published"),
    )
    return [
        (f"row {number}, {column}", f"{got!r}: expected {want!r} ({what})")
        for column, got, want, what in pairs
        if got != want
    ]


def first_difference(got: str, want: str) -> str:
    """Where two texts first differ, shown around that place."""
    at = next((i for i, (a, b) in enumerate(zip(got, want, strict=False)) if a != b), None)
    if at is None:
        at = min(len(got), len(want))
    start = max(0, at - _SHOWN)
    return (
        f"first difference at character {at + 1}: got {got[start : at + _SHOWN]!r}, "
        f"expected {want[start : at + _SHOWN]!r}"
    )


def _rendering_problems(cells: list[tuple[int, Item, Cell]]) -> Entries:
    """Refusal 30: the prompt and context are the rendering, byte for byte."""
    entries: Entries = []
    for number, item, cell in cells:
        if cell.prompt is None:
            continue  # no rewrite: rewrites.csv's own refusal (27) says so
        where = f"row {number} (template {item.template_id}, variant {item.variant_id})"
        if item.prompt != cell.prompt:
            entries.append(
                (
                    f"{where}, prompt",
                    "non-minimal pair: not its template with only the slots filled "
                    f"({first_difference(item.prompt, cell.prompt)})",
                )
            )
        if item.context != cell.context:
            if cell.context is None or item.context is None:
                message = (
                    "text: expected null (the template has no context)"
                    if cell.context is None
                    else "null: expected the template's context rendered"
                )
            else:
                message = first_difference(item.context, cell.context)
            entries.append(
                (
                    f"{where}, context",
                    f"non-minimal pair: not its template's context with only the slots "
                    f"filled ({message})",
                )
            )
    return entries


def _hash_problems(round_: Round) -> Entries:
    """Refusal 31: prompt_sha256 and context_sha256 (null with a null context)."""
    entries: Entries = []
    for number, item in enumerate(round_.items, start=1):
        if item.prompt_sha256 != sha256_text(item.prompt):
            entries.append(
                (f"row {number}, prompt_sha256", "expected the SHA-256 of prompt (UTF-8)")
            )
        if item.context is None:
            if item.context_sha256 is not None:
                entries.append(
                    (f"row {number}, context_sha256", "expected null: the context is null")
                )
        elif item.context_sha256 != sha256_text(item.context):
            entries.append(
                (f"row {number}, context_sha256", "expected the SHA-256 of context (UTF-8)")
            )
    return entries
