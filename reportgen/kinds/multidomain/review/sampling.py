"""The multidomain samples: the Art. 26 audit and the Art. 22 calibration.

Neither is a random draw of the app's own. The audit sample is the metrics spec's
(`derive.audit_draw`: per domain × language, the first n open items by the seeded rank
key), and its units are every status-`ok` response of a drawn item, all participants
and runs, each scored by exactly one human reviewer. The calibration sample is every
calibration response of calibration.parquet, scored by the round's two human reviewers
(`calibration.reviewers`). Only the order reviewers meet the units in depends on the
batch's seed.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy import Connection, Engine, select

from reportgen.kinds.multidomain import review
from reportgen.kinds.multidomain.derive import audit_draw
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.review_task import ReviewUnit
from review_app.core.db import batches
from review_app.core.errors import ReviewInputError
from review_app.core.spreadsheet import csv_text
from review_app.rounds.sampling import BatchPlan, store_drawn_batch

TASKS = ("audit", "calibration")


def audit_units(round_: Round) -> list[ReviewUnit]:
    """The audited responses (the kind's audit units of the drawn items), in the draw's
    order (stratum, rank), then the cast's order and the run."""
    drawn = [i for ids in audit_draw(round_.items, round_.manifest).values() for i in ids]
    position = {item_id: n for n, item_id in enumerate(drawn)}
    cast = {model.model_id: n for n, model in enumerate(round_.models)}
    units = [u for u in review.audit_units(round_) if u.item_id in position]
    return sorted(units, key=lambda u: (position[u.item_id], cast[u.model_id], u.run))


def calibration_units(round_: Round) -> list[ReviewUnit]:
    """Every calibration response (calibration.parquet), by item then response_id."""
    return list(review.calibration_units(round_))


def task_units(round_: Round, task_type: str) -> list[ReviewUnit]:
    if task_type == "audit":
        return audit_units(round_)
    if task_type == "calibration":
        return calibration_units(round_)
    raise ReviewInputError("md_error_task", task=task_type, tasks=", ".join(TASKS))


def dry_run_csv(round_: Round, task_type: str) -> str:
    """The drawn units as CSV: `item_id,model_id,run` (audit), `item_id,response_id`
    (calibration)."""
    units = task_units(round_, task_type)
    if task_type == "audit":
        return csv_text(
            ("item_id", "model_id", "run"), [(u.item_id, u.model_id, u.run) for u in units]
        )
    return csv_text(("item_id", "response_id"), [(u.item_id, u.key) for u in units])


def create_rubric_batch(
    engine: Engine,
    round_: Round,
    *,
    task_type: str,
    seed: int,
    reviewers: Sequence[str] | None = None,
    by_account: int | None = None,
) -> int:
    """Store the audit or calibration sample as a batch, in one transaction; returns
    its id. Audit: one reviewer per response; calibration: `calibration.reviewers`."""
    units = task_units(round_, task_type)
    overlap = 1 if task_type == "audit" else round_.manifest.calibration.reviewers
    order = np.random.default_rng(seed).permutation(len(units))
    return store_drawn_batch(
        engine,
        round_,
        [units[int(i)] for i in order],
        BatchPlan(seed, task_type, overlap, reviewers, by_account=by_account),
        lambda names: {"overlap": overlap, "reviewers": names},
        refuse=lambda connection: _refuse_second_task(connection, round_.round_id, task_type),
    )


def _refuse_second_task(connection: Connection, round_id: str, task_type: str) -> None:
    """The sample is the spec's, fixed by the archive: drawing it twice would give its
    responses a second reviewer."""
    existing = connection.execute(
        select(batches.c.batch_id).where(
            batches.c.round_id == round_id, batches.c.task_type == task_type
        )
    ).scalar()
    if existing is not None:
        raise ReviewInputError(
            "md_error_task_drawn", round_id=round_id, task=task_type, batch_id=existing
        )
