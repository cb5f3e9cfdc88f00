"""The administrator's view of the counterfactual calibration: progress and mask audit.

Administrator code only (it unblinds a sample, through `review_app.core.unblinding`). The mask-audit
list holds every judged response a reviewer marked "this answer still reveals the
attribute": leaks the archive's automatic check cannot see (gendered agreement such as
"obrigada", a respelled name), to be read and, when confirmed, fixed in the masking and
the judge re-run, or the item annulled.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Engine, func, select

from reportgen.kinds.counterfactual.model import NAME
from reportgen.kinds.counterfactual.review import CALIBRATION, parse_unit_key
from reportgen.kinds.counterfactual.review.tables import mask_flags
from review_app.core.auth import require
from review_app.core.db import (
    accounts,
    as_utc,
    assignments,
    batches,
    judgments,
    rounds,
    samples,
)
from review_app.core.unblinding import unblinded


@dataclass(frozen=True)
class MaskFlag:
    """A masked input a reviewer found still revealing the attribute."""

    round_id: str
    code: str
    variable_id: str
    model_id: str
    item_id: str
    run: int
    reviewer: str
    flagged_at: datetime
    text: str  # what the reviewer read (the judge's masked input)


@dataclass(frozen=True)
class Progress:
    """How far a round's calibration sample is scored."""

    round_id: str
    batch_id: int
    drawn: int
    scored: int
    flagged: int
    min_items: int  # per judged variable


def counterfactual_rounds(engine: Engine, token: str | None) -> list[str]:
    """The ids of the counterfactual rounds in the database (they entered with a batch)."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        query = select(rounds.c.round_id).where(rounds.c.kind == NAME).order_by(rounds.c.round_id)
        return [str(round_id) for round_id in connection.execute(query).scalars()]


def mask_flag_list(engine: Engine, token: str | None, round_id: str) -> list[MaskFlag]:
    """Every flagged masked input of `round_id`'s calibration, by sample."""
    require(engine, token, "admin")
    blind = (
        select(samples.c.code, samples.c.output_text, accounts.c.name, mask_flags.c.flagged_at)
        .select_from(mask_flags)
        .join(assignments, assignments.c.assignment_id == mask_flags.c.assignment_id)
        .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_id, mask_flags.c.reveals.is_(True))
        .order_by(samples.c.sample_id, accounts.c.name)
    )
    query = unblinded(blind, "unit_key")
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    found: list[MaskFlag] = []
    for row in rows:
        key = parse_unit_key(str(row.unit_key))
        if key is None:
            continue
        variable_id, model_id, item_id, run = key
        found.append(
            MaskFlag(
                round_id=round_id,
                code=row.code,
                variable_id=variable_id,
                model_id=model_id,
                item_id=item_id,
                run=run,
                reviewer=row.name,
                flagged_at=as_utc(row.flagged_at),
                text=row.output_text,
            )
        )
    return found


def calibration_progress(engine: Engine, token: str | None, round_id: str) -> list[Progress]:
    """Each calibration batch of `round_id`: drawn, scored and flagged samples."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        batch_rows = connection.execute(
            select(batches.c.batch_id, batches.c.settings)
            .where(batches.c.round_id == round_id, batches.c.task_type == CALIBRATION)
            .order_by(batches.c.batch_id)
        ).all()
        progress: list[Progress] = []
        for batch_id, settings in batch_rows:
            in_batch = assignments.join(samples, samples.c.sample_id == assignments.c.sample_id)
            where = samples.c.batch_id == batch_id
            drawn = connection.execute(
                select(func.count()).select_from(samples).where(where)
            ).scalar_one()
            scored = connection.execute(
                select(func.count()).select_from(in_batch.join(judgments)).where(where)
            ).scalar_one()
            flagged = connection.execute(
                select(func.count())
                .select_from(in_batch.join(mask_flags))
                .where(where, mask_flags.c.reveals.is_(True))
            ).scalar_one()
            min_items = settings.get("min_items", 0) if isinstance(settings, dict) else 0
            progress.append(
                Progress(round_id, int(batch_id), int(drawn), int(scored), int(flagged), min_items)
            )
    return progress
