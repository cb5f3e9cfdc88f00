"""The typed, immutable in-memory round (../shared/spec/round-archive.md).

Every stage after `archive` works on these types only; nothing downstream
reads files. Responses are columnar (one tuple per column, aligned with
`Round.items`) because a round holds tens of thousands of outputs.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Literal

import numpy as np
import numpy.typing as npt

FORMAT = "estigmas-round/1"

Label = Literal["yes", "no", "cant_tell", "inconclusive"]
Style = Literal["original", "doubt", "positive", "base"]
Gender = Literal["male", "female", "unspecified"]
Language = Literal["pt-BR", "en"]
Kind = Literal["full", "continuous"]
Origin = Literal["inherited", "reconstructed", "local"]
Axis = Literal["race", "origin"]
Answer = Literal["yes", "no"]

LABELS: tuple[Label, ...] = ("yes", "no", "cant_tell", "inconclusive")
# Integer codes used in label arrays: index into LABELS.
LABEL_CODE: Mapping[str, int] = {label: code for code, label in enumerate(LABELS)}
STYLES: tuple[Style, ...] = ("original", "doubt", "positive", "base")
SCORED_STYLES: tuple[Style, ...] = ("original", "doubt", "positive")
GENDERS: tuple[Gender, ...] = ("male", "female", "unspecified")
LANGUAGES: tuple[Language, ...] = ("pt-BR", "en")
KINDS: tuple[Kind, ...] = ("full", "continuous")
ORIGINS: tuple[Origin, ...] = ("inherited", "reconstructed", "local")
AXES: tuple[Axis, ...] = ("race", "origin")


@dataclass(frozen=True)
class Manifest:
    """round.json."""

    round_id: str
    kind: Kind
    title: Mapping[str, str]  # {"pt-BR": ..., "en": ...}
    collected_on: date
    protocol_frozen_on: date
    contract_version: str
    parser_version: str
    generation: Mapping[str, object]  # {"temperature", "seed", "system_prompt"}
    instruction: Mapping[str, str]  # per language
    max_omission: float  # eligibility.max_omission
    peril_bands: tuple[float, float]  # upper bounds of the low and medium bands
    bootstrap_replicates: int
    bootstrap_seed: int
    synthetic: bool
    parent_round: str | None
    format: str = FORMAT


@dataclass(frozen=True)
class Model:
    """One row of models.csv."""

    model_id: str
    display_name: str
    provider: str
    api_identifier: str
    snapshot: str  # may be empty
    evaluated_on: date


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
    """One row of items.parquet."""

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


@dataclass(frozen=True)
class Annulment:
    """One line of annulments.jsonl."""

    item_id: str
    decided_on: date
    contest_id: str
    reason: Mapping[str, str]  # {"pt-BR": ..., "en": ...}
    prev_sha256: str


@dataclass(frozen=True)
class Round:
    """A verified round archive plus its annulment ledger."""

    path: Path
    manifest: Manifest
    models: tuple[Model, ...]
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    items: tuple[Item, ...]
    responses: Mapping[str, ModelResponses]  # by model_id, in models.csv order
    annulments: tuple[Annulment, ...]
    checksums: Mapping[str, str]  # relative path -> sha256 hex, from SHA256SUMS
    ledger_sha256: str  # sha256 of annulments.jsonl bytes ("" when absent)

    @property
    def round_id(self) -> str:
        return self.manifest.round_id

    @cached_property
    def annulled_item_ids(self) -> frozenset[str]:
        return frozenset(a.item_id for a in self.annulments)

    def is_scored(self, item: Item) -> bool:
        """Scored items: pt-BR, style not base, not annulled (spec)."""
        return (
            item.language == "pt-BR"
            and item.style != "base"
            and item.item_id not in self.annulled_item_ids
        )
