"""Freeze a raw round into an archive, and add a model to a continuous round.

Both label outputs with the deterministic parser (`reportgen.kinds.estigmas.parse`) and record its
version; neither leaves anything half-written on failure.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pyarrow as pa

from reportgen.archive import CHECKSUMS_FILE, read_raw_round, read_round, verify_round
from reportgen.archive_manifest import SLUG
from reportgen.archive_parquet import (
    AlignedResponses,
    read_responses,
    response_path,
    responses_table,
)
from reportgen.archive_tables import MODELS_FILE, MODELS_HEADER, csv_text, models_csv_row
from reportgen.archive_write import parquet_bytes, write_file, write_round
from reportgen.errors import ArchiveError, InputError, OutputExistsError, Problem
from reportgen.kinds.estigmas.parse import PARSER_VERSION, parse_output
from reportgen.model import Item, Model, ResponseRow

_CHECKSUM_LINE = re.compile(r"([0-9a-f]{64}) [ *](.+)")


def freeze_round(raw_dir: Path, out_dir: Path) -> None:
    """Check the raw round at `raw_dir`, label every output and write the archive.

    The round id in round.json must equal `out_dir`'s name; `out_dir` must not exist.
    """
    if out_dir.exists() or out_dir.is_symlink():
        raise OutputExistsError(f"{out_dir} already exists: a round archive is never overwritten")
    raw = read_raw_round(raw_dir)
    if raw.manifest.round_id != out_dir.name:
        raise InputError(
            f"{raw_dir / 'round.json'}: round_id {raw.manifest.round_id!r} must equal the "
            f"name of the output folder ({out_dir.name!r})"
        )
    responses = {
        model_id: label_responses(model_id, raw.items, aligned)
        for model_id, aligned in raw.responses.items()
    }
    write_round(
        out_dir,
        manifest=replace(raw.manifest, parser_version=PARSER_VERSION),
        models=raw.models,
        stigmas=raw.stigmas,
        structures=raw.structures,
        items=raw.items,
        responses=responses,
        annulments=raw.annulments,
    )


def label_responses(
    model_id: str, items: tuple[Item, ...], aligned: AlignedResponses
) -> tuple[ResponseRow, ...]:
    """Response rows in item order, each labelled by the parser in the item's language."""
    return tuple(
        ResponseRow(
            item_id=item.item_id,
            model_id=model_id,
            raw_text=text,
            label=parse_output(text, item.language),
            latency_ms=latency,
        )
        for item, text, latency in zip(items, aligned.raw_text, aligned.latency_ms, strict=True)
    )


def add_model(round_dir: Path, responses_file: Path, model: Model) -> None:
    """Add one model's outputs to the continuous round at `round_dir`.

    Adds responses/<model_id>.parquet, one models.csv line and the checksum lines;
    nothing else changes. Every step before the final renames is checked, and the
    renames are undone if one fails, so a failure leaves the archive as it was.
    """
    archive = read_round(round_dir, with_text=False)
    if archive.manifest.kind != "continuous":
        raise InputError(
            f"{round_dir}: models can be added only to a continuous round, "
            f"this one is {archive.manifest.kind!r}"
        )
    _check_new_model(model, {m.model_id for m in archive.models}, round_dir)
    problems: list[Problem] = []
    item_ids = pa.array([item.item_id for item in archive.items], pa.string())
    aligned = read_responses(
        responses_file, str(responses_file), model.model_id, item_ids, problems, labelled=False
    )
    if aligned is None or problems:
        lines = [f"{responses_file}: unusable responses ({len(problems)} problem(s))"]
        raise InputError("\n".join([*lines, *(f"  - {p}" for p in problems)]))
    rows = label_responses(model.model_id, archive.items, aligned)
    new_response = parquet_bytes(responses_table(rows))

    models_path = round_dir / MODELS_FILE
    checksums_path = round_dir / CHECKSUMS_FILE
    old_models = models_path.read_bytes()
    old_checksums = checksums_path.read_bytes()
    separator = b"" if old_models.endswith(b"\n") else b"\n"
    # csv_text's first line is the header; keep only the new data line.
    line = csv_text(MODELS_HEADER, [models_csv_row(model)], name=MODELS_FILE).split("\n", 1)[1]
    new_models = old_models + separator + line.encode("utf-8")
    new_checksums = _updated_checksums(
        old_checksums.decode("utf-8"),
        {MODELS_FILE: new_models, response_path(model.model_id): new_response},
    )
    response_target = round_dir / response_path(model.model_id)
    with _temporary_files(round_dir, 3) as (response_tmp, models_tmp, checksums_tmp):
        write_file(response_tmp, new_response)
        write_file(models_tmp, new_models)
        write_file(checksums_tmp, new_checksums.encode("utf-8"))
        try:
            os.replace(response_tmp, response_target)
            os.replace(models_tmp, models_path)
            os.replace(checksums_tmp, checksums_path)
            problems = verify_round(round_dir)
            if problems:
                raise ArchiveError(str(round_dir), problems)
        except BaseException:
            _restore(response_target, models_path, old_models, checksums_path, old_checksums)
            raise


def _check_new_model(model: Model, existing: set[str], round_dir: Path) -> None:
    if not SLUG.fullmatch(model.model_id):
        raise InputError(f"--model-id {model.model_id!r} is not a slug [a-z0-9][a-z0-9-]*")
    if model.model_id in existing:
        raise InputError(f"{round_dir / MODELS_FILE}: model {model.model_id!r} is already there")
    for option, value in (
        ("--display-name", model.display_name),
        ("--provider", model.provider),
        ("--api-identifier", model.api_identifier),
    ):
        if not value.strip() or value != value.strip():
            raise InputError(f"{option}: expected a non-empty value without surrounding spaces")


def _updated_checksums(text: str, new_files: dict[str, bytes]) -> str:
    digests: dict[str, str] = {}
    for line in text.splitlines():
        match = _CHECKSUM_LINE.fullmatch(line)
        if match is not None:
            digests[match.group(2)] = match.group(1)
    for rel, data in new_files.items():
        digests[rel] = hashlib.sha256(data).hexdigest()
    return "".join(f"{digests[rel]}  {rel}\n" for rel in sorted(digests))


@contextlib.contextmanager
def _temporary_files(directory: Path, count: int) -> Iterator[list[Path]]:
    """Fresh paths in `directory` (same file system, so os.replace is atomic); removed
    on exit if still there."""
    paths: list[Path] = []
    try:
        for _ in range(count):
            descriptor, name = tempfile.mkstemp(prefix=".add-model.", suffix=".tmp", dir=directory)
            os.close(descriptor)
            os.unlink(name)  # write_file creates it exclusively
            paths.append(Path(name))
        yield paths
    finally:
        for path in paths:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _restore(
    response_target: Path,
    models_path: Path,
    old_models: bytes,
    checksums_path: Path,
    old_checksums: bytes,
) -> None:
    with contextlib.suppress(FileNotFoundError):
        response_target.unlink()
    for path, data in ((models_path, old_models), (checksums_path, old_checksums)):
        if path.read_bytes() != data:
            backup = path.with_name(f".{path.name}.restore")
            backup.write_bytes(data)
            os.replace(backup, path)
