"""Freeze a raw round into an archive, and add a model to a continuous round.

Both label outputs with the deterministic parser (`reportgen.kinds.estigmas.parse`) and record its
version; both write through the archive's one writer, which leaves nothing half-written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import cast

import pyarrow as pa

from reportgen.archive import Problems, format_version, read_responses
from reportgen.errors import InputError, OutputExistsError
from reportgen.kinds import get_kind
from reportgen.kinds._fields import same_named
from reportgen.kinds.estigmas.archive import (
    NAME,
    column_latencies,
    column_texts,
    read_raw_round,
    write_round,
)
from reportgen.kinds.estigmas.model import Item, Model, ResponseRow, Round
from reportgen.kinds.estigmas.parse import PARSER_VERSION, parse_output
from reportgen.kinds.rounds import append_model
from reportgen.model import Round as CoreRound


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
        model_id: label_responses(model_id, raw.items, texts, raw.latency_ms[model_id])
        for model_id, texts in raw.raw_text.items()
    }
    write_round(
        out_dir,
        manifest=replace(raw.manifest, parser_version=PARSER_VERSION),
        **same_named(raw, "models stigmas structures items annulments"),
        responses=responses,
    )


def label_responses(
    model_id: str,
    items: Sequence[Item],
    texts: Sequence[str],
    latencies: Sequence[float | None],
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
        for item, text, latency in zip(items, texts, latencies, strict=True)
    )


def add_model(round_dir: Path, responses_file: Path, model: Model) -> None:
    """Add one model's outputs to the continuous round at `round_dir`.

    Adds responses/<model_id>.parquet, one models.csv line and the checksum lines;
    nothing else changes, and a failure leaves the archive as it was.
    """

    def labelled_rows(round_: CoreRound) -> tuple[ResponseRow, ...]:
        archive = cast(Round, round_)
        if archive.manifest.variant != "continuous":
            raise InputError(
                f"{round_dir}: models can be added only to a continuous round, "
                f"this one is {archive.manifest.variant!r}"
            )
        problems = Problems()
        table = read_responses(
            responses_file,
            problems.in_file(str(responses_file)),
            model.model_id,
            pa.array([item.item_id for item in archive.items], pa.string()),
            get_kind(NAME),
            version=format_version(archive.manifest.format),
            raw=True,
        )
        if table is None or problems.count:
            lines = [f"{responses_file}: unusable responses ({problems.count} problem(s))"]
            raise InputError("\n".join([*lines, *(f"  - {p}" for p in problems)]))
        texts, latencies = column_texts(table), column_latencies(table)
        return label_responses(model.model_id, archive.items, texts, latencies)

    append_model(round_dir, model, labelled_rows)
