"""The Estigmas round's types (kind `estigmas`, docs/archive-format.md).

They extend the common core of `reportgen.model`: `Manifest` adds the `estigmas`
block, `Round` adds the stigmas, structures and labelled responses. Responses are
columnar (one tuple per column, aligned with `Round.items`) because a round holds
tens of thousands of outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from reportgen import model as core
from reportgen.model import Annulment as Annulment  # re-exported: the round holds them
from reportgen.model import Model as Model

Label = Literal["yes", "no", "cant_tell", "inconclusive"]
Style = Literal["original", "doubt", "positive", "base"]
Gender = Literal["male", "female", "unspecified"]
Language = Literal["pt-BR", "en"]
Variant = Literal["full", "continuous"]
Origin = Literal["inherited", "reconstructed", "local"]
Axis = Literal["race", "origin"]
Answer = Literal["yes", "no"]

LABELS: tuple[Label, ...] = ("yes", "no", "cant_tell", "inconclusive")
# Integer codes used in label arrays: index into LABELS.
LABEL_CODE: Mapping[str, int] = {label: code for code, label in enumerate(LABELS)}
STYLES: tuple[Style, ...] = ("original", "doubt", "positive", "base")
SCORED_STYLES: tuple[Style, ...] = ("original", "doubt", "positive")
POSITIVE = SCORED_STYLES.index("positive")  # the style of the omission rate, in the arrays
GENDERS: tuple[Gender, ...] = ("male", "female", "unspecified")
LANGUAGES: tuple[Language, ...] = ("pt-BR", "en")  # the instrument's languages
PERIL_BANDS: tuple[str, ...] = ("low", "medium", "high")


def peril_band(peril: float, bounds: tuple[float, float]) -> int:
    """Index into PERIL_BANDS: low <= bounds[0] < medium <= bounds[1] < high."""
    return 0 if peril <= bounds[0] else 1 if peril <= bounds[1] else 2


VARIANTS: tuple[Variant, ...] = ("full", "continuous")
ORIGINS: tuple[Origin, ...] = ("inherited", "reconstructed", "local")
AXES: tuple[Axis, ...] = ("race", "origin")


@dataclass(frozen=True, kw_only=True)
class Manifest(core.Manifest):
    """round.json: the common keys plus the `estigmas` block."""

    kind: str = "estigmas"
    variant: Variant  # version 1's `kind`
    contract_version: str
    parser_version: str
    instruction: Mapping[str, str]  # per language
    max_omission: float  # eligibility.max_omission
    peril_bands: tuple[float, float]  # upper bounds of the low and medium bands
    parent_round: str | None


@dataclass(frozen=True)
class Stigma:
    """One row of stigmas.csv."""

    stigma_id: str
    name_pt: str
    name_en: str
    origin: Origin
    peril: float
    peril_source: Literal["pachankis2018", "assigned"]
    axis: Axis | None


@dataclass(frozen=True)
class Structure:
    """One row of structures.csv."""

    structure_id: str
    scenario_id: str
    scenario_pt: str
    scenario_en: str
    biased_answer: Answer
    brazilian: bool


@dataclass(frozen=True)
class Item:
    """One row of items.parquet: the common columns plus the Estigmas ones."""

    item_id: str
    stigma_id: str | None  # None only for base controls
    structure_id: str
    style: Style
    target_gender: Gender
    language: Language
    pair_item_id: str | None  # for an `en` item, the pt-BR item it realises
    prompt: str
    canary: str
    published: bool


@dataclass(frozen=True)
class ResponseRow:
    """One row of responses/<model_id>.parquet, as written by freeze and the demo."""

    item_id: str
    model_id: str
    raw_text: str
    label: Label
    latency_ms: float | None = None
    run: int = 1  # an Estigmas round has a single run


@dataclass(frozen=True)
class ModelResponses:
    """One model's responses, aligned with `Round.items` (same order, same length).

    `label_codes` holds indexes into LABELS and is read-only.
    """

    model_id: str
    raw_text: tuple[str, ...]
    label_codes: npt.NDArray[np.int8]
    latency_ms: tuple[float | None, ...]

    def label(self, index: int) -> Label:
        return LABELS[int(self.label_codes[index])]


@dataclass(frozen=True, kw_only=True)
class Round(core.Round):
    """A verified Estigmas round archive plus its annulment ledger."""

    manifest: Manifest
    items: tuple[Item, ...]
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    responses: Mapping[str, ModelResponses]  # by model_id, in models.csv order

    def is_scored(self, item: Item) -> bool:
        """Scored items: pt-BR, style not base, not annulled (spec)."""
        return (
            item.language == "pt-BR"
            and item.style != "base"
            and item.item_id not in self.annulled_item_ids
        )
