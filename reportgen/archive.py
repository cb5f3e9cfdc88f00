"""Read and verify a round archive (../shared/spec/round-archive.md).

`read_round` returns the typed, immutable `Round` or raises `ArchiveError` listing
every problem found; `verify_round` returns the same list without raising. Both run
the same checks: manifest, CSV tables, items, responses, ledger and SHA256SUMS.
`read_raw_round` runs them on a raw round (before freeze: no labels, no checksums).
"""

from __future__ import annotations

import hashlib
import json
import re
import types
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa

from reportgen.archive_ledger import LEDGER_FILE, parse_ledger
from reportgen.archive_manifest import MANIFEST_FILE, SLUG, check_manifest
from reportgen.archive_parquet import (
    ITEMS_FILE,
    RAW_RESPONSES_SCHEMA,
    RESPONSES_DIR,
    RESPONSES_SCHEMA,
    AlignedResponses,
    read_checked_table,
    read_items,
    read_responses,
    response_path,
)
from reportgen.archive_tables import (
    MODELS_FILE,
    MODELS_HEADER,
    STIGMAS_FILE,
    STIGMAS_HEADER,
    STRUCTURES_FILE,
    STRUCTURES_HEADER,
    parse_models,
    parse_stigmas,
    parse_structures,
    read_csv_records,
    read_text_file,
)
from reportgen.errors import ArchiveError, Problem
from reportgen.model import (
    Annulment,
    Item,
    Manifest,
    Model,
    ModelResponses,
    Round,
    Stigma,
    Structure,
)

CHECKSUMS_FILE = "SHA256SUMS"
_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64}) [ *](.+)")
_FIXED_FILES = (MANIFEST_FILE, MODELS_FILE, STIGMAS_FILE, STRUCTURES_FILE, ITEMS_FILE)


@dataclass(frozen=True)
class RawRound:
    """A raw round as freeze reads it: checked, responses aligned with the items."""

    manifest: Manifest  # parser_version is "" when round.json has none
    models: tuple[Model, ...]
    stigmas: tuple[Stigma, ...]
    structures: tuple[Structure, ...]
    items: tuple[Item, ...]
    responses: Mapping[str, AlignedResponses]  # by model_id, in models.csv order
    annulments: tuple[Annulment, ...]


@dataclass(frozen=True)
class _Loaded:
    raw: RawRound
    checksums: Mapping[str, str]
    ledger_sha256: str


def read_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The verified round; raises ArchiveError listing every problem found.

    With `with_text=False` the outputs' texts are not loaded (`raw_text` is `()`),
    which is all scoring needs.
    """
    problems: list[Problem] = []
    loaded = _load(round_dir, problems, raw=False, with_text=with_text)
    if loaded is None or problems:
        raise ArchiveError(str(round_dir), problems)
    raw = loaded.raw
    responses = {
        model_id: ModelResponses(
            model_id=model_id,
            raw_text=aligned.raw_text,
            label_codes=aligned.label_codes,  # type: ignore[arg-type]  # labelled round
            latency_ms=aligned.latency_ms,
        )
        for model_id, aligned in raw.responses.items()
    }
    return Round(
        path=round_dir,
        manifest=raw.manifest,
        models=raw.models,
        stigmas=raw.stigmas,
        structures=raw.structures,
        items=raw.items,
        responses=types.MappingProxyType(responses),
        annulments=raw.annulments,
        checksums=types.MappingProxyType(dict(loaded.checksums)),
        ledger_sha256=loaded.ledger_sha256,
    )


def verify_round(round_dir: Path) -> list[Problem]:
    """Every problem of the archive at `round_dir` (empty when it is valid)."""
    problems: list[Problem] = []
    _load(round_dir, problems, raw=False, with_text=True)
    return problems


def read_raw_round(raw_dir: Path) -> RawRound:
    """A raw round (responses without labels, no SHA256SUMS); raises ArchiveError."""
    problems: list[Problem] = []
    loaded = _load(raw_dir, problems, raw=True, with_text=True)
    if loaded is None or problems:
        raise ArchiveError(str(raw_dir), problems)
    return loaded.raw


def read_manifest_data(round_dir: Path, problems: list[Problem]) -> object:
    """round.json parsed as JSON (None after reporting why it could not be)."""
    text = read_text_file(round_dir / MANIFEST_FILE, MANIFEST_FILE, problems)
    if text is None:
        return None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        problems.append(
            Problem(MANIFEST_FILE, f"line {error.lineno}", f"not valid JSON: {error.msg}")
        )
        return None


def _load(
    round_dir: Path, problems: list[Problem], *, raw: bool, with_text: bool
) -> _Loaded | None:
    if not round_dir.is_dir():
        problems.append(Problem(str(round_dir), "", "not a directory"))
        return None
    start = len(problems)
    manifest_data = read_manifest_data(round_dir, problems)
    manifest = None
    if raw and isinstance(manifest_data, dict):
        # A raw round's parser_version means nothing: freeze records its own parser's.
        manifest_data = {k: v for k, v in manifest_data.items() if k != "parser_version"}
    if manifest_data is not None:
        manifest = check_manifest(
            manifest_data,
            problems,
            # resolve(): `reportgen verify .` inside the round dir must work too.
            folder_name=None if raw else round_dir.resolve().name,
            require_parser_version=not raw,
        )
    model_records = read_csv_records(round_dir / MODELS_FILE, MODELS_FILE, MODELS_HEADER, problems)
    models = parse_models(model_records or [], problems)
    stigma_records = read_csv_records(
        round_dir / STIGMAS_FILE, STIGMAS_FILE, STIGMAS_HEADER, problems
    )
    stigmas = parse_stigmas(stigma_records or [], problems)
    structure_records = read_csv_records(
        round_dir / STRUCTURES_FILE, STRUCTURES_FILE, STRUCTURES_HEADER, problems
    )
    structures = parse_structures(structure_records or [], problems)
    # Ids of every row, valid or not, so that a bad row is not reported twice.
    stigma_ids = _ids(stigma_records, "stigma_id")
    structure_ids = _ids(structure_records, "structure_id")
    items = read_items(round_dir, problems, stigma_ids=stigma_ids, structure_ids=structure_ids)

    # Only slugs name response files: a model id like "../x" must not become a path.
    model_ids = [
        model_id
        for model_id in dict.fromkeys(record["model_id"] for _, record in model_records or [])
        if SLUG.fullmatch(model_id)
    ]
    responses = _read_all_responses(
        round_dir, model_ids, items, problems, raw=raw, with_text=with_text
    )
    if model_records is not None:
        _check_response_files(round_dir, set(model_ids), problems)

    annulments: tuple[Annulment, ...] = ()
    ledger_sha256 = ""
    ledger_path = round_dir / LEDGER_FILE
    if ledger_path.exists():
        try:
            ledger = ledger_path.read_bytes()
        except OSError as error:
            problems.append(Problem(LEDGER_FILE, "", f"unreadable file: {error.strerror}"))
        else:
            ledger_sha256 = hashlib.sha256(ledger).hexdigest()
            known = None if items is None else frozenset(item.item_id for item in items)
            annulments = parse_ledger(ledger, problems, item_ids=known)

    present = _present_files(round_dir, problems)
    _check_layout(present, raw=raw, problems=problems)
    checksums: dict[str, str] = {}
    if not raw:
        checksums = _check_checksums(round_dir, present, problems)

    if len(problems) > start or manifest is None or items is None:
        return None
    raw_round = RawRound(
        manifest=manifest,
        models=models,
        stigmas=stigmas,
        structures=structures,
        items=items,
        responses=types.MappingProxyType(responses),
        annulments=annulments,
    )
    return _Loaded(raw=raw_round, checksums=checksums, ledger_sha256=ledger_sha256)


def _ids(records: list[tuple[int, dict[str, str]]] | None, field: str) -> frozenset[str] | None:
    return None if records is None else frozenset(record[field] for _, record in records)


def _read_all_responses(
    round_dir: Path,
    model_ids: list[str],
    items: tuple[Item, ...] | None,
    problems: list[Problem],
    *,
    raw: bool,
    with_text: bool,
) -> dict[str, AlignedResponses]:
    responses: dict[str, AlignedResponses] = {}
    if items is None:
        # Without items the coverage cannot be checked; the columns still can.
        schema = RAW_RESPONSES_SCHEMA if raw else RESPONSES_SCHEMA
        for model_id in model_ids:
            rel = response_path(model_id)
            read_checked_table(round_dir / rel, rel, schema, problems)
        return responses
    # Unique ids: a duplicate item is reported once, by the items check.
    item_ids = pa.array(list(dict.fromkeys(item.item_id for item in items)), pa.string())
    for model_id in model_ids:
        rel = response_path(model_id)
        aligned = read_responses(
            round_dir / rel,
            rel,
            model_id,
            item_ids,
            problems,
            labelled=not raw,
            with_text=with_text,
        )
        if aligned is not None:
            responses[model_id] = aligned
    return responses


def _check_response_files(round_dir: Path, model_ids: set[str], problems: list[Problem]) -> None:
    directory = round_dir / RESPONSES_DIR
    if not directory.is_dir():
        problems.append(Problem(RESPONSES_DIR, "", "missing directory (one file per model)"))
        return
    for entry in sorted(directory.iterdir()):
        rel = f"{RESPONSES_DIR}/{entry.name}"
        if not entry.is_file() or entry.suffix != ".parquet":
            problems.append(
                Problem(rel, "", "unexpected entry: responses/ holds only <model_id>.parquet")
            )
        elif entry.stem not in model_ids:
            problems.append(
                Problem(rel, "", f"response file for model {entry.stem!r}, which models.csv lacks")
            )


def _present_files(round_dir: Path, problems: list[Problem]) -> list[str]:
    try:
        return sorted(
            path.relative_to(round_dir).as_posix()
            for path in round_dir.rglob("*")
            if path.is_file() or path.is_symlink()
        )
    except OSError as error:
        problems.append(Problem(str(round_dir), "", f"cannot list the directory: {error.strerror}"))
        return []


def _check_layout(present: list[str], *, raw: bool, problems: list[Problem]) -> None:
    allowed = {*_FIXED_FILES, LEDGER_FILE, CHECKSUMS_FILE}
    for rel in present:
        in_responses = rel.startswith(f"{RESPONSES_DIR}/")
        if rel not in allowed and not in_responses:
            problems.append(Problem(rel, "", "unexpected file: not part of the archive layout"))
    if not raw and CHECKSUMS_FILE not in present:
        problems.append(Problem(CHECKSUMS_FILE, "", "missing file"))


def _check_checksums(
    round_dir: Path, present: list[str], problems: list[Problem]
) -> dict[str, str]:
    listed: dict[str, str] = {}
    if CHECKSUMS_FILE not in present:
        return listed
    text = read_text_file(round_dir / CHECKSUMS_FILE, CHECKSUMS_FILE, problems)
    if text is None:
        return listed
    for number, line in enumerate(text.split("\n"), start=1):
        if not line and number == text.count("\n") + 1:
            break  # the empty string after the final newline
        where = f"line {number}"
        match = _CHECKSUM_LINE.fullmatch(line)
        if match is None:
            problems.append(
                Problem(CHECKSUMS_FILE, where, "expected '<64 lowercase hex digits>  <path>'")
            )
            continue
        digest, rel = match.groups()
        if rel in (CHECKSUMS_FILE, LEDGER_FILE):
            problems.append(Problem(CHECKSUMS_FILE, where, f"{rel} must not be listed"))
        elif rel in listed:
            problems.append(Problem(CHECKSUMS_FILE, where, f"{rel} is listed twice"))
        else:
            listed[rel] = digest
    if text and not text.endswith("\n"):
        problems.append(Problem(CHECKSUMS_FILE, "", "the last line does not end with a newline"))
    present_set = set(present)
    for rel, digest in listed.items():
        if rel not in present_set:
            problems.append(Problem(rel, "", "listed in SHA256SUMS but absent"))
            continue
        try:
            with (round_dir / rel).open("rb") as handle:
                actual = hashlib.file_digest(handle, "sha256").hexdigest()
        except OSError as error:
            problems.append(Problem(rel, "", f"unreadable file: {error.strerror}"))
            continue
        if actual != digest:
            problems.append(
                Problem(
                    rel, "", f"checksum mismatch: SHA256SUMS lists {digest}, the file has {actual}"
                )
            )
    for rel in present:
        if rel not in listed and rel not in (CHECKSUMS_FILE, LEDGER_FILE):
            problems.append(Problem(rel, "", "present but not listed in SHA256SUMS"))
    return listed
