"""The common, immutable in-memory round (docs/archive-format.md, common core).

Every kind of round shares these types: the core manifest keys, the models, the
annulment ledger and a `Round` holding them. A kind extends them with its own
(`reportgen.kinds.<kind>.model`); nothing downstream of `archive` reads files.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import date
from functools import cached_property
from pathlib import Path
from typing import Literal, Protocol

# The languages of every text the project writes (titles, reasons, pages), pt-BR first:
# the site's default language.
TEXT_LANGUAGES: tuple[str, ...] = ("pt-BR", "en")
# Identifiers (round_id, model_id, ...) and the folder names made from them.
SLUG = re.compile(r"[a-z0-9][a-z0-9-]*")

Source = Literal["contestation", "audit", "contamination"]
SOURCES: tuple[Source, ...] = ("contestation", "audit", "contamination")


@dataclass(frozen=True)
class Interpretation:
    """A reading chosen where the source text is ambiguous (printed on the methodology page)."""

    id: str
    topic: Mapping[str, str]  # {"pt-BR": ..., "en": ...}
    reading: Mapping[str, str]


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """round.json's common keys; each kind's manifest extends this class with its block."""

    format: str = "round-archive/2"
    round_id: str
    kind: str
    title: Mapping[str, str]  # {"pt-BR": ..., "en": ...}
    synthetic: bool
    collected_on: date
    protocol_frozen_on: date
    ended_on: date | None = None
    languages: tuple[str, ...] = ("pt-BR", "en")
    generation: Mapping[str, object]
    bootstrap_replicates: int
    bootstrap_seed: int
    interpretations: tuple[Interpretation, ...] = ()


@dataclass(frozen=True)
class Model:
    """One row of models.csv."""

    model_id: str
    display_name: str
    provider: str
    api_identifier: str
    snapshot: str  # may be empty
    evaluated_on: date


class ItemRecord(Protocol):
    """The common columns of items.parquet; a kind's item type has them and more."""

    @property
    def item_id(self) -> str: ...
    @property
    def language(self) -> str: ...
    @property
    def prompt(self) -> str: ...
    @property
    def canary(self) -> str | None: ...
    @property
    def published(self) -> bool: ...


@dataclass(frozen=True, slots=True)
class CoreItem:
    """The common columns of items.parquet, in their order (`ItemRecord`): a kind's item
    class whose own columns follow them derives from it."""

    item_id: str
    language: str
    prompt: str
    canary: str | None
    published: bool


@dataclass(frozen=True)
class Annulment:
    """One line of annulments.jsonl."""

    item_id: str
    decided_on: date
    source: Source
    ref: str  # the contestation, audit or contamination check id
    reason: Mapping[str, str]  # {"pt-BR": ..., "en": ...}
    prev_sha256: str


@dataclass(frozen=True, kw_only=True)
class Round:
    """A verified round archive plus its annulment ledger: what every kind has.

    A kind's round class extends it (its items, its tables, its responses).
    """

    path: Path
    manifest: Manifest
    models: tuple[Model, ...]
    items: tuple[ItemRecord, ...]
    annulments: tuple[Annulment, ...]
    checksums: Mapping[str, str] = field(default_factory=dict)  # relative path -> sha256 hex
    ledger_sha256: str = ""  # sha256 of annulments.jsonl bytes ("" when absent)

    @property
    def round_id(self) -> str:
        return self.manifest.round_id

    @cached_property
    def annulled_item_ids(self) -> frozenset[str]:
        return frozenset(a.item_id for a in self.annulments)
