"""Language-neutral page contexts: what each page shows, as plain data.

A context holds numbers, ids and per-language names; the page templates format
them for one language. One dataclass per page kind; `RoundView` gathers what
every page of a round needs. Contexts never compute statistics: rates come from
`score_models`, intervals and tests from the statistics engine's results
(`RoundView.stats`, None when the engine is not available), or read from its bootstrap
replicates on demand (`RoundView.compared`).
"""

from __future__ import annotations

import dataclasses
import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date
from pathlib import PurePath
from typing import Any

from reportgen.kinds.estigmas.model import PERIL_BANDS, Round, peril_band
from reportgen.kinds.estigmas.render.aggregates import ModelBreakdown, model_breakdowns
from reportgen.kinds.estigmas.results import IndexDifference, RoundResults, model_intervals
from reportgen.kinds.estigmas.score import ModelScore, build_cube, score_models

INTERVAL_METRICS: tuple[str, ...] = (
    "failure",
    "index",
    "bias_rate",
    "omission_rate",
    "correct_rate",
)


@dataclass(frozen=True)
class ModelRow:
    """One model's metadata, counts and rates (and intervals when available)."""

    score: ModelScore
    api_identifier: str
    snapshot: str
    evaluated_on: date
    colour: str
    intervals: Mapping[str, tuple[float, float]]  # metric -> (lo, hi); empty without stats

    @property
    def model_id(self) -> str:
        return self.score.model_id


@dataclass(frozen=True)
class PublishedItem:
    item_id: str
    language: str
    style: str
    scenario_pt: str
    scenario_en: str
    stigma_pt: str | None
    stigma_en: str | None
    prompt: str


@dataclass(frozen=True)
class AnnulmentRow:
    item_id: str
    decided_on: date
    contest_id: str
    reason: Mapping[str, str]


@dataclass(frozen=True)
class RoundView:
    """Everything the pages of one round draw on."""

    round_id: str
    kind: str
    title: Mapping[str, str]
    collected_on: date
    protocol_frozen_on: date
    contract_version: str
    parser_version: str
    synthetic: bool
    parent_round: str | None
    max_omission: float
    peril_bands: tuple[float, float]
    bootstrap_replicates: int
    bootstrap_seed: int
    generation: Mapping[str, object]
    N: int
    n: int
    models: tuple[ModelRow, ...]  # ranking order, diagnostic cases last
    breakdowns: Mapping[str, ModelBreakdown]
    stigma_count: int
    structure_count: int
    scenario_count: int
    band_sizes: Mapping[str, int]
    local_stigmas: int
    brazilian_structures: int
    # The instrument as the round holds it: its pt-BR prompts, the base controls among them
    # (no stigma, never scored) and the scored items on a local marker.
    instrument_prompts: int
    base_controls: int
    local_marker_items: int
    published_items: tuple[PublishedItem, ...]
    annulments: tuple[AnnulmentRow, ...]
    checksums: Mapping[str, str]
    ledger_sha256: str
    stats: RoundResults | None
    # structure id -> scenario name by language
    structure_scenarios: Mapping[str, Mapping[str, str]]
    models_dir: str = "models/"  # where this round's model pages live, from the site root
    # The index differences of the pairs the compare page lists, read from the bootstrap
    # replicates when the site is built (`results.pair_differences`); empty without stats.
    compared: tuple[IndexDifference, ...] = ()

    # The lookups below are asked for on every model page (thousands per build) and scan
    # the round's models: each is worked out once per view (a view is never changed).
    @functools.cached_property
    def ranked(self) -> tuple[ModelRow, ...]:
        return tuple(m for m in self.models if m.score.eligible)

    @functools.cached_property
    def model_ids(self) -> tuple[str, ...]:
        return tuple(m.model_id for m in self.models)

    @functools.cached_property
    def _by_id(self) -> Mapping[str, ModelRow]:
        found: dict[str, ModelRow] = {}
        for m in self.models:
            found.setdefault(m.model_id, m)
        return found

    @property
    def diagnostic(self) -> tuple[ModelRow, ...]:
        return tuple(m for m in self.models if not m.score.eligible)

    @property
    def total_biased(self) -> int:
        return sum(m.score.biased for m in self.models)

    def model(self, model_id: str) -> ModelRow:
        return self._by_id[model_id]

    def name_of(self, model_id: str) -> str:
        """A model's display name (the id itself for an unknown id)."""
        found = self._by_id.get(model_id)
        return model_id if found is None else found.score.display_name

    def stigma_name(self, stigma_id: str, language: str) -> str:
        for row in next(iter(self.breakdowns.values())).stigmas if self.breakdowns else ():
            if row.stigma_id == stigma_id:
                return row.name_pt if language == "pt-BR" else row.name_en
        return stigma_id


# Okabe–Ito palette (distinguishable with the common colour-vision deficiencies),
# then Paul Tol's muted palette for rounds with many providers.
PALETTE: tuple[str, ...] = (
    "#E69F00",
    "#56B4E9",
    "#009E73",
    "#0072B2",
    "#D55E00",
    "#CC79A7",
    "#000000",
    "#F0E442",
    "#332288",
    "#88CCEE",
    "#44AA99",
    "#117733",
    "#999933",
    "#DDCC77",
    "#CC6677",
    "#882255",
    "#AA4499",
)


def provider_colours(providers: list[str]) -> dict[str, str]:
    """One colour per provider, stable: providers sorted by name take palette slots."""
    ordered = sorted(set(providers), key=str.casefold)
    return {p: PALETTE[i % len(PALETTE)] for i, p in enumerate(ordered)}


def _local_marker_items(round: Round) -> int:
    """The scored items whose stigma is a local marker (the article's 807, §3.1)."""
    local = {s.stigma_id for s in round.stigmas if s.origin == "local"}
    return sum(round.is_scored(item) and item.stigma_id in local for item in round.items)


def build_round_view(  # one constructor call: a field per line
    round: Round,
    stats: RoundResults | None = None,
    colours: Mapping[str, str] | None = None,
) -> RoundView:
    """The view of one verified round; `stats` is the statistics engine's results."""
    intervals = model_intervals(stats) if stats is not None else {}
    cube = build_cube(round)
    scores = score_models(round, cube)
    by_id = {m.model_id: m for m in round.models}
    colours = colours or provider_colours([m.provider for m in round.models])
    rows = tuple(
        ModelRow(
            score=s,
            api_identifier=by_id[s.model_id].api_identifier,
            snapshot=by_id[s.model_id].snapshot,
            evaluated_on=by_id[s.model_id].evaluated_on,
            colour=colours[s.provider],
            intervals=dict(intervals.get(s.model_id, {})),
        )
        for s in scores
    )
    stigma_of = {s.stigma_id: s for s in round.stigmas}
    structure_of = {s.structure_id: s for s in round.structures}
    published = tuple(
        PublishedItem(
            item_id=item.item_id,
            language=item.language,
            style=item.style,
            scenario_pt=structure_of[item.structure_id].scenario_pt,
            scenario_en=structure_of[item.structure_id].scenario_en,
            stigma_pt=stigma_of[item.stigma_id].name_pt if item.stigma_id else None,
            stigma_en=stigma_of[item.stigma_id].name_en if item.stigma_id else None,
            prompt=item.prompt,
        )
        for item in round.items
        if item.published
    )
    bands = [PERIL_BANDS[peril_band(s.peril, round.manifest.peril_bands)] for s in round.stigmas]
    manifest = round.manifest
    first = scores[0] if scores else None
    return RoundView(
        round_id=round.round_id,
        kind=manifest.variant,
        title=dict(manifest.title),
        collected_on=manifest.collected_on,
        protocol_frozen_on=manifest.protocol_frozen_on,
        contract_version=manifest.contract_version,
        parser_version=manifest.parser_version,
        synthetic=manifest.synthetic,
        parent_round=manifest.parent_round,
        max_omission=manifest.max_omission,
        peril_bands=manifest.peril_bands,
        bootstrap_replicates=manifest.bootstrap_replicates,
        bootstrap_seed=manifest.bootstrap_seed,
        generation=dict(manifest.generation),
        N=first.N if first else 0,
        n=first.n if first else 0,
        models=rows,
        breakdowns=model_breakdowns(round, cube),
        stigma_count=len(round.stigmas),
        structure_count=len(round.structures),
        scenario_count=len({s.scenario_id for s in round.structures}),
        band_sizes={b: bands.count(b) for b in ("low", "medium", "high")},
        local_stigmas=sum(s.origin == "local" for s in round.stigmas),
        brazilian_structures=sum(s.brazilian for s in round.structures),
        instrument_prompts=sum(i.language == "pt-BR" for i in round.items),
        base_controls=sum(i.language == "pt-BR" and i.style == "base" for i in round.items),
        local_marker_items=_local_marker_items(round),
        published_items=published,
        annulments=tuple(
            AnnulmentRow(a.item_id, a.decided_on, a.ref, dict(a.reason)) for a in round.annulments
        ),
        checksums=dict(sorted(round.checksums.items())),
        ledger_sha256=round.ledger_sha256,
        stats=stats,
        structure_scenarios={
            s.structure_id: {"pt-BR": s.scenario_pt, "en": s.scenario_en} for s in round.structures
        },
    )


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if hasattr(value, "rate"):
            fields["rate"] = value.rate
        return fields
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, PurePath):
        return value.as_posix()
    if isinstance(value, float):
        return round(value, 12)
    return value


def context_json(context: object) -> str:
    """A stable JSON dump of a context (golden-file tests compare these)."""
    return json.dumps(_plain(context), indent=1, sort_keys=True, ensure_ascii=False) + "\n"
