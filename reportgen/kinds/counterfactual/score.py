"""The values y(m, v, t, g, k, r) of a counterfactual round, per attribute (metrics §1).

For each attribute a: its groups (groups.csv order), K positions, the templates crossed with
it (templates.csv order) minus those removed by annulment (an annulled item (t, v) removes t
from v's attribute), and per system × variable two aligned arrays over (t, g, k, r):
`values` (yes = 1, no = 0, or the integer) and `determined` (the value is not `na`, nor
a judge score a leaked mask voids: `Round.voided_scores`). The
statistics read populations off these arrays: DP(a) is every template, EO(a, v) the
templates whose `expected_v` is `yes`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from reportgen.kinds._fields import same_named
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


@dataclass(frozen=True)
class _Rows:
    """One system's extraction rows as aligned arrays: the row's item (its number among
    the distinct item ids of items.parquet; their count when unknown), run, variable
    (variables.csv index), the value as a number and whether it is determined (not
    `na`)."""

    item: IntArray
    run: IntArray
    variable: IntArray
    value: IntArray
    determined: BoolArray


def _rows_of(round_: Round, model_id: str, item_index: Mapping[str, int]) -> _Rows:
    """The arrays of one system's extractions; each distinct (variable, value) is read
    once (a battery's values repeat: yes, no, na and a few numbers)."""
    rows = round_.extractions.get(model_id, ())
    variables = {v.variable_id: (i, v) for i, v in enumerate(round_.variables)}
    numbers: dict[tuple[str, str], tuple[int, int | None]] = {}
    for pair in {(row.variable_id, row.value) for row in rows}:
        index, variable = variables[pair[0]]
        numbers[pair] = (index, _numeric(variable, pair[1]))
    unknown = len(item_index)
    coded = [numbers[(row.variable_id, row.value)] for row in rows]
    determined = np.array([code[1] is not None for code in coded], dtype=np.bool_)
    voided = round_.voided_scores
    if voided:  # a leaked mask's judge score is read as undetermined (mask_audit.py)
        determined &= np.array(
            [(row.variable_id, model_id, row.item_id, row.run) not in voided for row in rows],
            dtype=np.bool_,
        )
    return _Rows(
        item=np.array([item_index.get(row.item_id, unknown) for row in rows], dtype=np.int64),
        run=np.array([row.run for row in rows], dtype=np.int64),
        variable=np.array([code[0] for code in coded], dtype=np.int64),
        value=np.array([code[1] or 0 for code in coded], dtype=np.int64),
        determined=determined,
    )


def _templates_of(round_: Round, attribute_id: str) -> tuple[list[Template], dict[str, list[str]]]:
    """The templates crossed with the attribute, and those removed with their items."""
    crossed = [t for t in round_.templates if attribute_id in t.attributes]
    removed: dict[str, list[str]] = {}
    annulled = round_.annulled_item_ids
    for item in round_.items:
        if item.attribute_id == attribute_id and item.item_id in annulled:
            removed.setdefault(item.template_id, []).append(item.item_id)
    return [t for t in crossed if t.template_id not in removed], removed


def attribute_cells(
    round_: Round, attribute_id: str, rows: Mapping[str, _Rows] | None = None
) -> AttributeCells:
    """The arrays of one attribute over every system and variable (`rows`: each system's
    extractions as arrays, when the caller built them once for every attribute)."""
    groups = [g for g in round_.groups if g.attribute_id == attribute_id]
    group_index = {g.group_id: i for i, g in enumerate(groups)}
    variants = [v for v in round_.variants if v.group_id in group_index]
    positions = max((v.position for v in variants), default=0)
    variant_ids = [[""] * positions for _ in groups]
    for variant in variants:
        variant_ids[group_index[variant.group_id]][variant.position - 1] = variant.variant_id
    templates, removed = _templates_of(round_, attribute_id)
    runs = round_.manifest.repetitions
    shape = (len(templates), len(groups), positions, runs)
    if rows is None:
        rows = _round_rows(round_)
    at = {v.variant_id: (group_index[v.group_id], v.position - 1) for v in variants}
    where = _cell_of_items(round_, attribute_id, templates, at, _item_index(round_))
    cells: dict[CellKey, Cells] = {}
    for system in round_.models:
        found = rows[system.model_id]
        t, g, k = where[:, found.item]
        kept = (t >= 0) & (found.run >= 1) & (found.run <= runs) & found.determined
        for index, variable in enumerate(round_.variables):
            chosen = kept & (found.variable == index)
            spots = (t[chosen], g[chosen], k[chosen], found.run[chosen] - 1)
            values, determined = np.zeros(shape, dtype=np.int64), np.zeros(shape, dtype=np.bool_)
            values[spots] = found.value[chosen]
            determined[spots] = True
            cells[(system.model_id, variable.variable_id)] = Cells(values, determined)
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


def _cell_of_items(
    round_: Round,
    attribute_id: str,
    templates: list[Template],
    at: Mapping[str, tuple[int, int]],
    item_index: Mapping[str, int],
) -> IntArray:
    """(3, len(item_index) + 1): the (t, g, k) of each item id of the attribute's
    templates (`at`: a variant's g and k - 1), and -1 for every other id (the last
    column: an id items.parquet lacks)."""
    template_index = {t.template_id: i for i, t in enumerate(templates)}
    where = np.full((3, len(item_index) + 1), -1, dtype=np.int64)
    for item in round_.items:
        if item.attribute_id == attribute_id and item.template_id in template_index:
            where[:, item_index[item.item_id]] = (
                template_index[item.template_id],
                *at[item.variant_id],
            )
    return where


def _item_index(round_: Round) -> dict[str, int]:
    """Each distinct item id, numbered in items.parquet order."""
    return {item_id: n for n, item_id in enumerate(dict.fromkeys(i.item_id for i in round_.items))}


def _round_rows(round_: Round) -> dict[str, _Rows]:
    """Every system's extractions as arrays."""
    item_index = _item_index(round_)
    return {s.model_id: _rows_of(round_, s.model_id, item_index) for s in round_.models}


def round_cells(round_: Round) -> tuple[AttributeCells, ...]:
    """Every attribute's arrays, attributes.csv order (the extractions read once)."""
    rows = _round_rows(round_)
    return tuple(attribute_cells(round_, a.attribute_id, rows) for a in round_.attributes)


def restrict(cells: AttributeCells, template_ids: tuple[str, ...]) -> AttributeCells:
    """The same attribute over a subset of its templates (the regression view, §11)."""
    keep = [cells.template_ids.index(t) for t in template_ids]
    return AttributeCells(
        **same_named(cells, "attribute_id group_ids variant_ids removed runs"),
        template_ids=template_ids,
        expected_yes={v: mask[keep] for v, mask in cells.expected_yes.items()},
        cells={key: Cells(c.values[keep], c.determined[keep]) for key, c in cells.cells.items()},
    )
