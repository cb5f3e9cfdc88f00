"""The `estigmas` kind's part of a round archive: its manifest block, its tables
(stigmas.csv, structures.csv), its item columns and its responses' `label`.

Version 1 (`estigmas-round/1`) manifests are read through `upgrade_manifest`, which
moves their Estigmas keys into the version-2 block and names them back in problems.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import cast

import pyarrow as pa

from reportgen.archive import (
    MANIFEST_FILE,
    SLUG,
    FileProblems,
    Record,
    RowChecker,
    language_texts,
    parse_rows,
    record_row,
)
from reportgen.archive._kind import JsonObject
from reportgen.errors import ArchiveError, Problem
from reportgen.kinds import TableSpec, rounds
from reportgen.kinds.estigmas.model import (
    AXES,
    LANGUAGES,
    ORIGINS,
    VARIANTS,
    Axis,
    Item,
    Manifest,
    ResponseRow,
    Round,
    Stigma,
    Structure,
)
from reportgen.model import Annulment, Model
from reportgen.model import Manifest as CoreManifest

NAME = "estigmas"
LEGACY_FORMAT = "estigmas-round/1"
STIGMAS_FILE = "stigmas.csv"
STRUCTURES_FILE = "structures.csv"
STIGMAS_HEADER = ("stigma_id", "name_pt", "name_en", "origin", "peril", "peril_source", "axis")
STRUCTURES_HEADER = (
    "structure_id",
    "scenario_id",
    "scenario_pt",
    "scenario_en",
    "biased_answer",
    "brazilian",
)
PERIL_SOURCES = ("pachankis2018", "assigned")
ANSWERS = ("yes", "no")
PERIL_RANGE = (0.0, 6.0)
BLOCK_KEYS = (
    "variant",
    "contract_version",
    "parser_version",
    "instruction",
    "eligibility",
    "peril_bands",
    "parent_round",
)
GENERATION_KEYS = ("temperature", "seed", "system_prompt")
# Version 1 keys moved into the block: the block key -> the version-1 key.
_V1_NAMES = {"variant": "kind", **{key: key for key in BLOCK_KEYS if key != "variant"}}


def parse_stigmas(records: Sequence[Record], found: FileProblems) -> tuple[Stigma, ...]:
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Stigma:
        axis = row.choice("axis", ("", *AXES))
        return Stigma(
            stigma_id=row.unique_id("stigma_id", seen, slug=False),
            name_pt=row.text("name_pt"),
            name_en=row.text("name_en"),
            origin=row.choice("origin", ORIGINS),  # type: ignore[arg-type]
            peril=row.number("peril", *PERIL_RANGE),
            peril_source=row.choice("peril_source", PERIL_SOURCES),  # type: ignore[arg-type]
            axis=cast(Axis | None, axis or None),
        )

    return parse_rows(records, found, build)


def parse_structures(records: Sequence[Record], found: FileProblems) -> tuple[Structure, ...]:
    seen: dict[str, int] = {}

    def build(row: RowChecker) -> Structure:
        return Structure(
            structure_id=row.unique_id("structure_id", seen, slug=False),
            scenario_id=row.text("scenario_id"),
            scenario_pt=row.text("scenario_pt"),
            scenario_en=row.text("scenario_en"),
            biased_answer=row.choice("biased_answer", ANSWERS),  # type: ignore[arg-type]
            brazilian=row.boolean("brazilian"),
        )

    return parse_rows(records, found, build)


def stigmas_csv_row(stigma: Stigma) -> list[str]:
    return record_row(stigma, STIGMAS_HEADER)


def structures_csv_row(structure: Structure) -> list[str]:
    return record_row(structure, STRUCTURES_HEADER)


TABLES = (
    TableSpec(STIGMAS_FILE, STIGMAS_HEADER, parse_stigmas, stigmas_csv_row, "stigma_id"),
    TableSpec(
        STRUCTURES_FILE, STRUCTURES_HEADER, parse_structures, structures_csv_row, "structure_id"
    ),
)


def upgrade_manifest(data: dict[str, object]) -> tuple[dict[str, object], dict[str, str]]:
    """A version-1 round.json in the version-2 shape, and where each moved key came from."""
    upgraded: dict[str, object] = {
        key: value for key, value in data.items() if key not in _V1_NAMES.values()
    }
    upgraded["kind"] = NAME
    upgraded.setdefault("ended_on", None)
    upgraded.setdefault("languages", list(LANGUAGES))
    upgraded.setdefault("interpretations", [])
    upgraded[NAME] = {key: data[old] for key, old in _V1_NAMES.items() if old in data}
    return upgraded, {f"{NAME}.{key}": old for key, old in _V1_NAMES.items()}


def parse_manifest(  # one flat check per key, in the spec's order: long but plain
    core: CoreManifest, block: JsonObject, data: JsonObject, found: FileProblems, *, raw: bool
) -> Manifest | None:
    """The Estigmas manifest from the core one and the `estigmas` block (`raw`: a round
    before freeze, whose parser_version means nothing: freeze records its own)."""
    mark = found.problems.mark()

    def bad(key: str, message: str) -> None:
        found.add(f"{NAME}.{key}", message)

    for key in BLOCK_KEYS:
        if key not in block and not (raw and key == "parser_version"):
            bad(key, "missing key")
    for key in block:
        if key not in BLOCK_KEYS:
            bad(str(key), f"unknown key (expected only: {', '.join(BLOCK_KEYS)})")
    variant = block.get("variant")
    if "variant" in block and variant not in VARIANTS:
        bad("variant", f"expected one of {', '.join(VARIANTS)}, got {variant!r}")
    for key in ("contract_version", "parser_version"):
        value = block.get(key)
        checked = key in block and not (raw and key == "parser_version")
        if checked and (not isinstance(value, str) or not value):
            bad(key, "expected a non-empty string")
    instruction = language_texts(block.get("instruction"))
    if "instruction" in block and instruction is None:
        bad("instruction", 'expected {"pt-BR": "...", "en": "..."} with non-empty strings')
    eligibility = block.get("eligibility")
    max_omission = eligibility.get("max_omission") if isinstance(eligibility, dict) else None
    if "eligibility" in block and (
        not isinstance(eligibility, dict)
        or set(eligibility) != {"max_omission"}
        or not _is_number(max_omission)
        or not 0 <= cast(float, max_omission) <= 1
    ):
        bad("eligibility", 'expected {"max_omission": a number between 0 and 1}')
    bands = block.get("peril_bands")
    if "peril_bands" in block and (
        not isinstance(bands, list)
        or len(bands) != 2
        or not all(_is_number(b) for b in bands)
        or not 0 <= bands[0] < bands[1] <= 6
    ):
        bad("peril_bands", "expected two increasing numbers within 0-6, e.g. [1.0, 2.5]")
    parent_round = block.get("parent_round")
    if parent_round is not None and (
        not isinstance(parent_round, str) or not SLUG.fullmatch(parent_round)
    ):
        bad("parent_round", f"expected a round id (slug) or null, got {parent_round!r}")
    elif parent_round is not None and variant == "full":
        bad("parent_round", "a full round has no parent round: expected null")
    _check_core_fit(core, found)
    if not found.problems.ok_since(mark):
        return None
    return Manifest(
        **{name: getattr(core, name) for name in _core_fields()},
        variant=variant,  # type: ignore[arg-type]  # checked against VARIANTS above
        contract_version=cast(str, block["contract_version"]),
        parser_version="" if raw else cast(str, block["parser_version"]),
        instruction=cast(Mapping[str, str], instruction),
        max_omission=float(cast(float, max_omission)),
        peril_bands=(float(cast(list[float], bands)[0]), float(cast(list[float], bands)[1])),
        parent_round=cast(str | None, parent_round),
    )


def _check_core_fit(core: CoreManifest, found: FileProblems) -> None:
    """What the kind asks of the common keys: languages, and generation as in version 1."""
    if not set(core.languages) <= set(LANGUAGES):
        found.add("languages", f"an Estigmas round has items in {', '.join(LANGUAGES)} only")
    generation = core.generation
    seed = generation.get("seed")
    prompt = generation.get("system_prompt")
    if (
        not set(GENERATION_KEYS) <= set(generation)
        or (seed is not None and not isinstance(seed, int))
        or (prompt is not None and not isinstance(prompt, str))
    ):
        found.add(
            "generation",
            'expected {"temperature": number, "seed": integer or null, '
            '"system_prompt": string or null}',
        )


def _core_fields() -> tuple[str, ...]:
    return tuple(f.name for f in fields(CoreManifest))


def _is_number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def manifest_block(manifest: Manifest) -> dict[str, object]:
    return {
        "variant": manifest.variant,
        "contract_version": manifest.contract_version,
        "parser_version": manifest.parser_version,
        "instruction": {language: manifest.instruction[language] for language in LANGUAGES},
        "eligibility": {"max_omission": manifest.max_omission},
        "peril_bands": list(manifest.peril_bands),
        "parent_round": manifest.parent_round,
    }


def read_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The verified Estigmas round at `round_dir` (`reportgen.kinds.rounds.read_round`, typed);
    ArchiveError when the archive is invalid or of another kind."""
    round_ = rounds.read_round(round_dir, with_text=with_text)
    if not isinstance(round_, Round):
        problem = Problem(
            MANIFEST_FILE, "kind", f"expected an {NAME!r} round, got {round_.manifest.kind!r}"
        )
        raise ArchiveError(str(round_dir), [problem])
    return round_


def write_round(
    dest: Path,
    *,
    manifest: Manifest,
    models: Sequence[Model],
    stigmas: Sequence[Stigma],
    structures: Sequence[Structure],
    items: Sequence[Item],
    responses: Mapping[str, Sequence[ResponseRow]],
    annulments: Sequence[Annulment] = (),
) -> None:
    """Write an Estigmas round as `round-archive/2` (`reportgen.kinds.rounds.write_round`)."""
    rounds.write_round(
        dest,
        manifest=manifest,
        models=models,
        items=items,
        responses=responses,
        tables={STIGMAS_FILE: stigmas, STRUCTURES_FILE: structures},
        annulments=annulments,
    )


@dataclass(frozen=True)
class RawRound:
    """A raw Estigmas round as freeze reads it: checked, outputs aligned with the items."""

    manifest: Manifest  # parser_version is "": freeze records its own
    models: tuple[Model, ...]
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    items: tuple[Item, ...]
    raw_text: Mapping[str, tuple[str, ...]]  # by model_id, aligned with the items
    latency_ms: Mapping[str, tuple[float | None, ...]]
    annulments: tuple[Annulment, ...]


def read_raw_round(raw_dir: Path) -> RawRound:
    """A raw round (no labels, no SHA256SUMS), checked; ArchiveError when it is not valid."""
    content = rounds.read_raw_round(raw_dir)
    if content.manifest.kind != NAME:
        problem = Problem(
            MANIFEST_FILE, "kind", f"expected an {NAME!r} round, got {content.manifest.kind!r}"
        )
        raise ArchiveError(str(raw_dir), [problem])
    return RawRound(
        manifest=cast(Manifest, content.manifest),
        models=content.models,
        stigmas=content.tables[STIGMAS_FILE],
        structures=content.tables[STRUCTURES_FILE],
        items=cast(tuple[Item, ...], content.items),
        raw_text={mid: column_texts(table) for mid, table in content.responses.items()},
        latency_ms={mid: column_latencies(table) for mid, table in content.responses.items()},
        annulments=content.annulments,
    )


def column_texts(table: pa.Table) -> tuple[str, ...]:
    """`raw_text` as a tuple (() when it was not read)."""
    if "raw_text" not in table.column_names:
        return ()
    return tuple(cast(list[str], table.column("raw_text").to_pylist()))


def column_latencies(table: pa.Table) -> tuple[float | None, ...]:
    if "latency_ms" not in table.column_names:
        return (None,) * table.num_rows
    return tuple(table.column("latency_ms").to_pylist())
