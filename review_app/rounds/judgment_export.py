"""The per-judgment export: every judgment of a round, as CSV or JSON Lines.

One row per judgment: the pseudonymised reviewer (R1, R2, ... as in the audit export), when
it was submitted and last revised, the sample's code and what unblinds it, the answer, the
note, and the administrator's adjudication of the sample. This is the shape annotation tools
(Argilla, Label Studio) export, for analyses the app does not make.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Final

from sqlalchemy import Engine, select

from reportgen.atomic import write_atomic
from reportgen.errors import InputError, OutputExistsError
from review_app.core.db import (
    accounts,
    adjudications,
    as_utc,
    assignments,
    batches,
    judgments,
    samples,
)
from review_app.core.spreadsheet import csv_text
from review_app.core.unblinding import unblinded
from review_app.tasks.lookup import task_of_round

COLUMNS: Final = (
    "round_id",
    "batch_id",
    "sample_code",
    "item_id",
    "model_id",
    "automatic",
    "reviewer",
    "submitted_at",
    "revised_at",
    "choice",
    "note",
    "adjudication",
    "adjudication_note",
)
FORMATS: Final = {".csv": "csv", ".jsonl": "jsonl", ".ndjson": "jsonl"}

JudgmentRow = dict[str, str | int | None]


def judgment_rows(engine: Engine, round_id: str) -> list[JudgmentRow]:
    """Every judgment of `round_id`, by sample and reviewer pseudonym."""
    with engine.connect() as connection:
        task_of_round(connection, round_id)  # an unknown round is a clear error
        blind = (
            select(
                batches.c.batch_id,
                samples.c.code,
                accounts.c.name,
                judgments.c.submitted_at,
                judgments.c.revised_at,
                judgments.c.choice,
                judgments.c.note,
                adjudications.c.choice.label("adjudication"),
                adjudications.c.note.label("adjudication_note"),
            )
            .select_from(judgments)
            .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
            .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .join(batches, batches.c.batch_id == samples.c.batch_id)
            .outerjoin(adjudications, adjudications.c.sample_id == samples.c.sample_id)
            .where(batches.c.round_id == round_id)
            .order_by(samples.c.sample_id, accounts.c.name)
        )
        rows = connection.execute(unblinded(blind, "item_id", "model_id", "automatic")).all()
    pseudonyms = {name: f"R{n}" for n, name in enumerate(sorted({r.name for r in rows}), 1)}
    return [
        {
            "round_id": round_id,
            "batch_id": int(row.batch_id),
            "sample_code": row.code,
            "item_id": row.item_id,
            "model_id": row.model_id,
            "automatic": row.automatic,
            "reviewer": pseudonyms[row.name],
            "submitted_at": as_utc(row.submitted_at).isoformat(),
            "revised_at": None if row.revised_at is None else as_utc(row.revised_at).isoformat(),
            "choice": row.choice,
            "note": row.note or "",
            "adjudication": row.adjudication,
            "adjudication_note": row.adjudication_note,
        }
        for row in rows
    ]


def export_format(path: Path) -> str:
    """`csv` or `jsonl`, from the file's suffix."""
    try:
        return FORMATS[path.suffix.lower()]
    except KeyError:
        raise InputError(
            f"{path}: the judgment export must end in .csv, .jsonl or .ndjson"
        ) from None


def render_judgments(rows: list[JudgmentRow], file_format: str) -> str:
    """The rows as CSV (a header, empty cells for absent values, text a spreadsheet
    would run as a formula quoted: review_app.core.spreadsheet) or JSON Lines (raw)."""
    if file_format == "jsonl":
        return "".join(json.dumps(row, ensure_ascii=False, sort_keys=True) + "\n" for row in rows)
    cells = [["" if row[column] is None else row[column] for column in COLUMNS] for row in rows]
    return csv_text(COLUMNS, cells, line_end="\r\n")  # RFC 4180: notes may hold a CR


def write_judgments(rows: list[JudgmentRow], path: Path, *, force: bool = False) -> None:
    """Write `rows` to `path` (its suffix gives the format) atomically, with mode 0600:
    the file unblinds the samples. An existing file is replaced only with `force`."""
    file_format = export_format(path)
    if path.exists() and not force:
        raise OutputExistsError(f"{path}: already exists (use --force to replace it)")
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, render_judgments(rows, file_format), mode=0o600)
