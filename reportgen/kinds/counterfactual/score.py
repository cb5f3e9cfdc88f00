"""The values y(m, v, t, g, k, r) of a counterfactual round, per attribute (metrics §1).

For each attribute a: its groups (groups.csv order), K positions, the templates crossed with
it (templates.csv order) minus those removed by annulment (an annulled item (t, v) removes t
from v's attribute), and per system × variable two aligned arrays over (t, g, k, r):
`values` (yes = 1, no = 0, or the integer) and `determined` (the value is not `na`). The
statistics read populations off these arrays: DP(a) is every template, EO(a, v) the
templates whose `expected_v` is `yes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds.counterfactual.model import NA, Round, Template, Variable

IntArray = np.ndarray[Any, np.dtype[np.int64]]
BoolArray = np.ndarray[Any, np.dtype[np.bool_]]
CellKey = tuple[str, str]  # (model_id, variable_id)


@dataclass(frozen=True)
class Cells:
    """One system × variable on one attribute: arrays over (t, g, k, r)."""

    values: IntArray
    determined: BoolArray


@dataclass(frozen=True)
class AttributeCells:
    attribute_id: str
    group_ids: tuple[str, ...]  # groups.csv order
    variant_ids: tuple[tuple[str, ...], ...]  # [g][k - 1]
    template_ids: tuple[str, ...]  # T_a after annulments, templates.csv order
    removed: tuple[tuple[str, tuple[str, ...]], ...]  # (template_id, annulled item ids)
    runs: int
    expected_yes: Mapping[str, BoolArray]  # binary variable_id -> (T,) expected_v = yes
    cells: Mapping[CellKey, Cells]

    @property
    def positions(self) -> int:
        return len(self.variant_ids[0]) if self.variant_ids else 0

    def population(self, variable_id: str, criterion: str) -> BoolArray:
        """The template mask of DP(a) or EO(a, v) (all templates for DP)."""
        if criterion == "equal_opportunity":
            return self.expected_yes[variable_id]
        return np.ones(len(self.template_ids), dtype=np.bool_)


def _numeric(variable: Variable, value: str) -> int | None:
    if value == NA:
        return None
    if variable.type == "binary":
        return 1 if value == "yes" else 0
    return int(value)


def _templates_of(round_: Round, attribute_id: str) -> tuple[list[Template], dict[str, list[str]]]:
    """The templates crossed with the attribute, and those removed with their items."""
    crossed = [t for t in round_.templates if attribute_id in t.attributes]
    removed: dict[str, list[str]] = {}
    annulled = round_.annulled_item_ids
    for item in round_.items:
        if item.attribute_id == attribute_id and item.item_id in annulled:
            removed.setdefault(item.template_id, []).append(item.item_id)
    return [t for t in crossed if t.template_id not in removed], removed


# long: one pass over the battery, then one over every extraction of the attribute
def attribute_cells(round_: Round, attribute_id: str) -> AttributeCells:
    """The arrays of one attribute over every system and variable."""
    groups = [g for g in round_.groups if g.attribute_id == attribute_id]
    group_index = {g.group_id: i for i, g in enumerate(groups)}
    variants = [v for v in round_.variants if v.group_id in group_index]
    positions = max((v.position for v in variants), default=0)
    variant_ids = [[""] * positions for _ in groups]
    for variant in variants:
        variant_ids[group_index[variant.group_id]][variant.position - 1] = variant.variant_id
    where = {v.variant_id: (group_index[v.group_id], v.position - 1) for v in variants}
    templates, removed = _templates_of(round_, attribute_id)
    template_index = {t.template_id: i for i, t in enumerate(templates)}
    cell_of: dict[str, tuple[int, int, int]] = {}
    for item in round_.items:
        if item.attribute_id == attribute_id and item.template_id in template_index:
            g, k = where[item.variant_id]
            cell_of[item.item_id] = (template_index[item.template_id], g, k)
    runs = round_.manifest.repetitions
    shape = (len(templates), len(groups), positions, runs)
    variables = {v.variable_id: v for v in round_.variables}
    cells: dict[CellKey, Cells] = {}
    for system in round_.models:
        arrays = {
            v: (np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.bool_)) for v in variables
        }
        for row in round_.extractions.get(system.model_id, ()):
            cell = cell_of.get(row.item_id)
            if cell is None or not 1 <= row.run <= runs:
                continue
            value = _numeric(variables[row.variable_id], row.value)
            if value is not None:
                values, determined = arrays[row.variable_id]
                values[(*cell, row.run - 1)] = value
                determined[(*cell, row.run - 1)] = True
        for variable_id, (values, determined) in arrays.items():
            cells[(system.model_id, variable_id)] = Cells(values, determined)
    expected_yes = {
        v.variable_id: np.array(
            [t.expected.get(v.variable_id) == "yes" for t in templates], dtype=np.bool_
        )
        for v in round_.variables
        if v.type == "binary"
    }
    return AttributeCells(
        attribute_id=attribute_id,
        group_ids=tuple(g.group_id for g in groups),
        variant_ids=tuple(tuple(ids) for ids in variant_ids),
        template_ids=tuple(t.template_id for t in templates),
        removed=tuple(
            (t.template_id, tuple(removed[t.template_id]))
            for t in round_.templates
            if t.template_id in removed
        ),
        runs=runs,
        expected_yes=expected_yes,
        cells=cells,
    )


def round_cells(round_: Round) -> tuple[AttributeCells, ...]:
    """Every attribute's arrays, attributes.csv order."""
    return tuple(attribute_cells(round_, a.attribute_id) for a in round_.attributes)


def restrict(cells: AttributeCells, template_ids: tuple[str, ...]) -> AttributeCells:
    """The same attribute over a subset of its templates (the regression view, §11)."""
    keep = [cells.template_ids.index(t) for t in template_ids]
    return AttributeCells(
        attribute_id=cells.attribute_id,
        group_ids=cells.group_ids,
        variant_ids=cells.variant_ids,
        template_ids=template_ids,
        removed=cells.removed,
        runs=cells.runs,
        expected_yes={v: mask[keep] for v, mask in cells.expected_yes.items()},
        cells={key: Cells(c.values[keep], c.determined[keep]) for key, c in cells.cells.items()},
    )
