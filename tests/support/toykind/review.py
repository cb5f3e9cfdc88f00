"""The toy kind's review part (`reportgen.kinds.review_part`, given by
`register_review_part`): its own `reportgen review sample` and `export`.

- `sample ROUND --seed S`: one output per model and language, drawn by the seed (the
  kind's own rule, not the app's stratified fraction), stored as a batch of the task
  `verdict` that every chosen reviewer judges; `--dry-run` prints the drawn units as CSV.
- `export ROUND [--output DIR]`: every verdict of the round's `verdict` batches, one row
  per judgment, into `verdicts.csv` (default folder: review-export/<round_id>/), with
  the automatic verdict beside it; mode 0600 (it unblinds the samples).

It is written on the review app's database and storage, through the app's generic
functions (`store_drawn_batch`, `judgment_rows`), as a built-in kind's review package is.
"""

from __future__ import annotations

from pathlib import Path

import click
import numpy as np
from sqlalchemy import select

from reportgen.atomic import write_atomic
from reportgen.errors import InputError, OutputExistsError
from reportgen.kinds import ExportRequest, KindReview, SampleRequest
from reportgen.kinds.review_task import ReviewUnit
from reportgen.kinds.rounds import read_round
from review_app.core.db import batches
from review_app.core.spreadsheet import csv_text
from review_app.rounds.judgment_export import judgment_rows
from review_app.rounds.sampling import BatchPlan, store_drawn_batch, strata_of
from tests.support.toykind.model import ToyRound
from tests.support.toykind.task import REVIEW_TASK, VERDICT

EXPORT_FILE = "verdicts.csv"
EXPORT_COLUMNS = ("item_id", "model_id", "automatic", "reviewer", "verdict", "agrees")


def draw(round_: ToyRound, seed: int) -> list[ReviewUnit]:
    """One unit per (model, language), chosen by the seed, in a seeded order."""
    groups = strata_of(REVIEW_TASK.units(round_))
    rng = np.random.default_rng(seed)
    chosen = [groups[key][int(rng.integers(len(groups[key])))] for key in sorted(groups)]
    return [chosen[int(i)] for i in rng.permutation(len(chosen))]


def _read(round_dir: Path) -> ToyRound:
    round_ = read_round(round_dir, with_text=True)
    if not isinstance(round_, ToyRound):
        raise InputError(f"{round_dir}: not a round of this kind")
    return round_


def sample(request: SampleRequest) -> str | None:
    """`review sample`: the dry run's CSV is printed here; a stored batch returns the
    line to print."""
    seed = request.seed
    if seed is None:
        raise click.BadParameter("a seed is required", param_hint="--seed")
    round_ = _read(request.round_dir)
    drawn = draw(round_, seed)
    if request.dry_run:
        rows = [(unit.item_id, unit.model_id) for unit in drawn]
        click.echo(csv_text(("item_id", "model_id"), rows), nl=False)
        return None
    batch_id = store_drawn_batch(
        request.open_engine(),
        round_,
        drawn,
        # Overlap None: every chosen reviewer judges every sample.
        BatchPlan(seed, VERDICT, None, list(request.reviewers) or None),
        lambda names: {"reviewers": names},
    )
    return f"Batch {batch_id} ({VERDICT}) of round {round_.round_id}: {len(drawn)} samples drawn."


def export(request: ExportRequest) -> str:
    """`review export`: verdicts.csv; refused when there is no verdict yet, or when the
    file exists (unless `force`). `--reviewer-map` is not used."""
    round_id = read_round(request.round_dir, with_text=False).round_id
    engine = request.open_engine()
    with engine.connect() as connection:
        ids = set(
            connection.execute(
                select(batches.c.batch_id).where(
                    batches.c.round_id == round_id, batches.c.task_type == VERDICT
                )
            ).scalars()
        )
    rows = [row for row in judgment_rows(engine, round_id) if row["batch_id"] in ids]
    if not rows:
        raise InputError(f"round {round_id}: no verdict has been given yet")
    target = (request.output or Path("review-export") / round_id) / EXPORT_FILE
    if target.exists() and not request.force:
        raise OutputExistsError(f"{target}: already exists (use --force to replace it)")
    cells = [
        [
            str(row["item_id"]),
            str(row["model_id"]),
            str(row["automatic"]),
            str(row["reviewer"]),
            str(row["choice"]),
            "yes" if row["choice"] == row["automatic"] else "no",
        ]
        for row in rows
    ]
    target.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(target, csv_text(EXPORT_COLUMNS, cells), mode=0o600)
    agree = sum(1 for cell in cells if cell[-1] == "yes")
    return f"Round {round_id}: {len(cells)} verdicts, {agree} agree with the scores; {target}."


REVIEW = KindReview(sample=sample, tasks=(VERDICT,), export=export)
