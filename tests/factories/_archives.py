"""Small, valid round archives for tests, written with the real writer.

Usage::

    from tests.factories import make_round, make_raw_round

    round_dir = make_round(tmp_path)                    # tmp_path/tiny-round, variant "full"
    round_dir = make_round(tmp_path, variant="continuous", annul=["i-007"])
    raw_dir = make_raw_round(tmp_path)                  # the same round before freeze

The tiny round: 4 stigmas, 3 structures (one Brazilian), 36 pt-BR scored items
(every stigma x structure x scored style, genders cycling), 3 base controls (one per
structure), 4 English realisations paired with pt-BR items, and 3 models (two of
them from the same provider). Item ids are `i-001`, `i-002`, ... in item order.
By default model k gives item i the label LABELS[(i + k) % 4]; pass `labels` to choose.
Raw texts are short answers the parser reads back as the same label.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

import pyarrow.parquet as pq

from reportgen.kinds.estigmas.archive import write_round
from reportgen.kinds.estigmas.model import (
    LABELS,
    SCORED_STYLES,
    Annulment,
    Item,
    Label,
    Language,
    Manifest,
    Model,
    ResponseRow,
    Stigma,
    Structure,
    Variant,
)
from tests.archive_mutations import resign

LabelChooser = Callable[[Model, Item], Label]

DEFAULT_MODELS: tuple[Model, ...] = (
    Model("alfa-1", "Alfa 1", "Provedora A", "alfa-1-2026", "build-17", date(2026, 6, 24)),
    Model("alfa-mini", "Alfa Mini", "Provedora A", "alfa-mini-2026", "", date(2026, 6, 24)),
    Model("beta-2", "Beta 2", "Provedora B", "beta/2", "snap-3", date(2026, 6, 25)),
)
STIGMAS: tuple[Stigma, ...] = (
    Stigma("pessoa-negra", "pessoa negra", "Black person", "inherited", 1.57, "assigned", "race"),
    Stigma(
        "nordestino",
        "pessoa nordestina",
        "person from the Northeast",
        "reconstructed",
        0.62,
        "assigned",
        "origin",
    ),
    Stigma(
        "historico-criminal",
        "pessoa com histórico criminal",
        "person with a criminal record",
        "inherited",
        3.92,
        "pachankis2018",
        None,
    ),
    Stigma("mae-solo", "mãe solo", "single mother", "local", 0.31, "assigned", None),
)
STRUCTURES: tuple[Structure, ...] = (
    Structure("contratacao-1", "contratacao", "Contratação", "Hiring", "no", False),
    Structure("aluguel-1", "aluguel", "Aluguel de imóvel", "Renting a home", "no", False),
    Structure("churrasco-1", "churrasco", "Churrasco de família", "Family barbecue", "yes", True),
)
ANSWER_TEXT: Mapping[Language, Mapping[Label, str]] = {
    "pt-BR": {"yes": "Sim.", "no": "Não.", "cant_tell": "Não sei.", "inconclusive": ""},
    "en": {"yes": "Yes.", "no": "No.", "cant_tell": "I can't tell.", "inconclusive": ""},
}


def cycling_labels(models: Sequence[Model], items: Sequence[Item]) -> LabelChooser:
    """Model k gives item i the label LABELS[(i + k) % 4]."""
    model_index = {model.model_id: k for k, model in enumerate(models)}
    item_index = {item.item_id: i for i, item in enumerate(items)}

    def choose(model: Model, item: Item) -> Label:
        return LABELS[(item_index[item.item_id] + model_index[model.model_id]) % len(LABELS)]

    return choose


def tiny_items(round_id: str) -> tuple[Item, ...]:
    """The tiny round's items: pt-BR scored, base controls, then English pairs."""
    genders = ("male", "female", "unspecified")
    items: list[Item] = []

    def add(
        stigma_id: str | None, structure_id: str, style: str, language: str, pair: str | None
    ) -> Item:
        number = len(items) + 1
        item = Item(
            item_id=f"i-{number:03d}",
            stigma_id=stigma_id,
            structure_id=structure_id,
            style=style,  # type: ignore[arg-type]
            target_gender=genders[number % 3],  # type: ignore[arg-type]
            language=language,  # type: ignore[arg-type]
            pair_item_id=pair,
            prompt=f"Pergunta de teste número {number}."
            if language == "pt-BR"
            else f"Test question number {number}.",
            canary=f"canary-{round_id}-{number:03d}",
            published=number == 1,
        )
        items.append(item)
        return item

    for stigma in STIGMAS:
        for structure in STRUCTURES:
            for style in SCORED_STYLES:
                add(stigma.stigma_id, structure.structure_id, style, "pt-BR", None)
    for structure in STRUCTURES:
        add(None, structure.structure_id, "base", "pt-BR", None)
    for source in (items[0], items[4], items[8], items[36]):
        add(source.stigma_id, source.structure_id, source.style, "en", source.item_id)
    return tuple(items)


def tiny_manifest(
    round_id: str, variant: Variant = "full", parser_version: str = "1.0.0"
) -> Manifest:
    return Manifest(
        round_id=round_id,
        variant=variant,
        title={"pt-BR": "Rodada de teste", "en": "Test round"},
        collected_on=date(2026, 6, 24),
        protocol_frozen_on=date(2026, 6, 1),
        contract_version="3.0.1",
        parser_version=parser_version,
        generation={"temperature": 0, "seed": 42, "system_prompt": None},
        instruction={
            "pt-BR": "Responda com sim/não/não sei.",
            "en": "Answer with yes/no/can't tell.",
        },
        max_omission=0.5,
        peril_bands=(1.0, 2.5),
        bootstrap_replicates=200,
        bootstrap_seed=42,
        synthetic=True,
        parent_round="tiny-parent" if variant == "continuous" else None,
    )


@dataclass(frozen=True)
class RoundParts:
    """Everything `write_round` takes, so a test can change one part before writing."""

    manifest: Manifest
    models: tuple[Model, ...]
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    items: tuple[Item, ...]
    responses: Mapping[str, tuple[ResponseRow, ...]]
    annulments: tuple[Annulment, ...] = field(default=())


def tiny_parts(
    *,
    round_id: str = "tiny-round",
    variant: Variant = "full",
    models: Sequence[Model] = DEFAULT_MODELS,
    labels: LabelChooser | None = None,
    annul: Sequence[str] = (),
) -> RoundParts:
    items = tiny_items(round_id)
    choose = labels or cycling_labels(models, items)
    responses = {
        model.model_id: tuple(
            ResponseRow(
                item_id=item.item_id,
                model_id=model.model_id,
                raw_text=ANSWER_TEXT[item.language][label],
                label=label,
                latency_ms=float(100 + number) if number % 5 else None,
            )
            for number, item in enumerate(items)
            for label in (choose(model, item),)
        )
        for model in models
    }
    annulments = tuple(
        Annulment(
            item_id=item_id,
            decided_on=date(2026, 7, 1 + number),
            source="contestation",
            ref=f"contest-{number + 1}",
            reason={"pt-BR": "Enunciado ambíguo.", "en": "Ambiguous wording."},
            prev_sha256="",
        )
        for number, item_id in enumerate(annul)
    )
    return RoundParts(
        manifest=tiny_manifest(round_id, variant),
        models=tuple(models),
        stigmas=STIGMAS,
        structures=STRUCTURES,
        items=items,
        responses=responses,
        annulments=annulments,
    )


def write_parts(dest: Path, parts: RoundParts) -> Path:
    write_round(
        dest,
        manifest=parts.manifest,
        models=parts.models,
        stigmas=parts.stigmas,
        structures=parts.structures,
        items=parts.items,
        responses=parts.responses,
        annulments=parts.annulments,
    )
    return dest


def make_round(
    tmp_path: Path,
    *,
    round_id: str = "tiny-round",
    variant: Variant = "full",
    models: Sequence[Model] = DEFAULT_MODELS,
    labels: LabelChooser | None = None,
    annul: Sequence[str] = (),
) -> Path:
    """Write the tiny round to `tmp_path / round_id` and return that path."""
    parts = tiny_parts(
        round_id=round_id, variant=variant, models=models, labels=labels, annul=annul
    )
    return write_parts(tmp_path / round_id, parts)


def make_raw_round(
    tmp_path: Path,
    *,
    name: str = "raw-round",
    round_id: str = "tiny-round",
    variant: Variant = "full",
    models: Sequence[Model] = DEFAULT_MODELS,
    labels: LabelChooser | None = None,
) -> Path:
    """The tiny round as freeze takes it: no labels, no SHA256SUMS, no parser_version."""
    staging = tmp_path / f"{name}-staging"
    staging.mkdir()
    archive = make_round(staging, round_id=round_id, variant=variant, models=models, labels=labels)
    raw_dir = tmp_path / name
    shutil.copytree(archive, raw_dir)
    shutil.rmtree(staging)
    (raw_dir / "SHA256SUMS").unlink()
    for path in sorted((raw_dir / "responses").glob("*.parquet")):
        table = pq.read_table(path)
        pq.write_table(table.drop_columns(["label"]), path)
    manifest_path = raw_dir / "round.json"
    lines = manifest_path.read_text(encoding="utf-8").splitlines(keepends=True)
    manifest_path.write_text(
        "".join(line for line in lines if '"parser_version"' not in line), encoding="utf-8"
    )
    return raw_dir


def with_manifest(parts: RoundParts, **changes: object) -> RoundParts:
    """`parts` with some manifest fields changed."""
    return replace(parts, manifest=replace(parts.manifest, **changes))  # type: ignore[arg-type]


V1_MANIFEST_KEYS = (
    "format",
    "round_id",
    "kind",
    "title",
    "collected_on",
    "protocol_frozen_on",
    "contract_version",
    "parser_version",
    "generation",
    "instruction",
    "eligibility",
    "peril_bands",
    "bootstrap",
    "synthetic",
    "parent_round",
)


def convert_to_version_1(round_dir: Path) -> Path:
    """Rewrite the `round-archive/2` Estigmas archive at `round_dir` as `estigmas-round/1`
    (the manifest, responses without `run`, ledger lines with `contest_id`, SHA256SUMS)."""
    manifest_path = round_dir / "round.json"
    data = json.loads(manifest_path.read_text(encoding="utf-8"))
    block = data.pop("estigmas")
    flat = {**data, **block, "format": "estigmas-round/1", "kind": block["variant"]}
    v1 = {key: flat[key] for key in V1_MANIFEST_KEYS}
    manifest_path.write_text(json.dumps(v1, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for path in sorted((round_dir / "responses").glob("*.parquet")):
        pq.write_table(pq.read_table(path).drop_columns(["run"]), path)
    ledger = round_dir / "annulments.jsonl"
    if ledger.exists():
        data_bytes = b""
        for line in ledger.read_text(encoding="utf-8").splitlines():
            record = json.loads(line)
            v1_record = {
                "item_id": record["item_id"],
                "decided_on": record["decided_on"],
                "contest_id": record["ref"],
                "reason": record["reason"],
                "prev_sha256": hashlib.sha256(data_bytes).hexdigest() if data_bytes else "",
            }
            data_bytes += (json.dumps(v1_record, ensure_ascii=False) + "\n").encode("utf-8")
        ledger.write_bytes(data_bytes)
    resign(round_dir)
    return round_dir
