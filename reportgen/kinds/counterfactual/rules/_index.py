"""The round indexed once for every cross-table rule: dicts by id, by response, by cell.

A battery of 40 templates x 30 variants x 5 runs x 3 systems holds 18,000 responses
and, with 6 variables, 108,000 extraction rows; every rule reads these dicts instead of
scanning the tables again, so that all rules together stay linear.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property

from reportgen.archive import response_path
from reportgen.kinds._fields import by_field, first_by
from reportgen.kinds.counterfactual.battery import Battery
from reportgen.kinds.counterfactual.model import (
    Extraction,
    Item,
    Response,
    ResponseKey,
    Round,
    System,
    Variable,
)
from reportgen.kinds.counterfactual.schemas import (
    CALIBRATION_FILE,
    ITEMS_FILE,
    extraction_path,
)

__all__ = [
    "CALIBRATION_FILE",
    "ITEMS_FILE",
    "RoundIndex",
    "extraction_path",
    "response_path",
]

ExtractionKey = tuple[str, int, str]  # (item_id, run, variable_id) within one system


@dataclass(frozen=True)
class RoundIndex:
    """The round's rows by id, built once."""

    round_: Round

    @cached_property
    def battery(self) -> Battery:
        return Battery.of_round(self.round_)

    @cached_property
    def items(self) -> Mapping[str, Item]:
        """item_id -> its first row."""
        return first_by(self.round_.items, lambda item: item.item_id)

    @cached_property
    def systems(self) -> Mapping[str, System]:
        return by_field(self.round_.models, "model_id")

    @cached_property
    def variables(self) -> Mapping[str, Variable]:
        return by_field(self.round_.variables, "variable_id")

    @cached_property
    def responses(self) -> Mapping[str, Mapping[ResponseKey, Response]]:
        """model_id -> (item_id, run) -> its first response row, for every system."""
        return {
            model_id: first_by(rows, lambda row: (row.item_id, row.run))
            for model_id, rows in self.round_.responses.items()
        }

    @cached_property
    def extractions(self) -> Mapping[str, Mapping[ExtractionKey, Extraction]]:
        """model_id -> (item_id, run, variable_id) -> its first extraction row."""
        return {
            model_id: first_by(rows, lambda row: (row.item_id, row.run, row.variable_id))
            for model_id, rows in self.round_.extractions.items()
        }

    @cached_property
    def cell_item_ids(self) -> frozenset[str]:
        """The items that are cells of the battery: the first row of each (template,
        variant) the battery crosses. Responses are expected for these only; an
        unexpected or duplicate item is rule 29's alone."""
        expected = self.battery.expected_cells
        found: dict[tuple[str, str], str] = {}
        for item in self.round_.items:
            key = (item.template_id, item.variant_id)
            if key in expected and self.items[item.item_id] is item:
                found.setdefault(key, item.item_id)
        return frozenset(found.values())

    @cached_property
    def valid_cells(self) -> Mapping[str, frozenset[ResponseKey]]:
        """model_id -> the (item_id, run) of its responses that rule 32 accepts: an item
        of the battery, run in 1..R. Extractions are expected for these only."""
        runs = range(1, self.round_.manifest.repetitions + 1)
        return {
            model_id: frozenset(
                key for key in by_key if key[0] in self.cell_item_ids and key[1] in runs
            )
            for model_id, by_key in self.responses.items()
        }

    def cell_where(self, item_id: str, run: int, more: str = "") -> str:
        """How a problem names one (item, run): its template, variant and run, then
        `more` (e.g. ", variable tom")."""
        item = self.items.get(item_id)
        if item is None:
            return f"(item {item_id}, run {run}{more})"
        return f"(template {item.template_id}, variant {item.variant_id}, run {run}{more})"
