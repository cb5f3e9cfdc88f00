"""The audit results a round's human-audit page shows (`reportgen.audit_export`).

Reviewers appear as R1, R2, ... (ordered by name): the site publishes agreement, not
who reviewed. The file is written atomically and never overwritten silently.
"""

from __future__ import annotations

import math
from datetime import datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, func, select

from reportgen.audit_export import (
    AuditExport,
    Confusion,
    ContestationCounts,
    write_audit_export,
)
from review_app.core.db import as_utc, batches, contestations, now_utc
from review_app.rounds.admin import JudgedSample, _judged_samples, calibrate
from review_app.rounds.agreement import agreement, pseudonymised
from review_app.rounds.calibration import BOOTSTRAP_REPLICATES, BOOTSTRAP_SEED
from review_app.rounds.contest import REPLY_DAYS
from review_app.tasks.lookup import task_of_round


def audit_results(
    engine: Engine,
    round_id: str,
    *,
    replicates: int = BOOTSTRAP_REPLICATES,
    seed: int = BOOTSTRAP_SEED,
    now: datetime | None = None,
    demonstration: bool = False,
) -> AuditExport:
    """Everything the human-audit page needs for `round_id` (NaN -> None); the bootstrap
    intervals use `replicates` and `seed`, recorded in the export. `now` (default: the
    clock) dates the export; `demonstration` marks the judgments as made by generated
    reviewers (only review_app.demo_audit sets it)."""
    now = now or now_utc()
    with engine.connect() as connection:
        task = task_of_round(connection, round_id)
        batch_ids = set(
            connection.execute(
                select(batches.c.batch_id).where(batches.c.round_id == round_id)
            ).scalars()
        )
        judged = [s for s in _judged_samples(connection, None) if s.batch_id in batch_ids]
        contestation_counts = _contestation_counts(connection, round_id, now)
        closed = connection.execute(
            select(func.count()).where(
                batches.c.round_id == round_id, batches.c.closed_at.is_not(None)
            )
        ).scalar_one()
    calibration = calibrate(judged, task)
    pseudonyms = reviewer_pseudonyms(judged)
    detail = agreement(judged, task, replicates=replicates, seed=seed)
    return AuditExport(
        round_id=round_id,
        generated_at=now.replace(microsecond=0),  # to the second, as people read it
        batches=len(batch_ids),
        batches_closed=int(closed),
        samples_judged=len(judged),
        judgments=sum(len(s.choices) for s in judged),
        reviewers=len(pseudonyms),
        adjudicated=sum(1 for s in judged if s.adjudicated is not None),
        kappa_majority_vs_parser=_number(calibration.kappa_majority),
        alpha_reviewers=_number(calibration.alpha_reviewers),
        kappa_by_reviewer={
            pseudonyms[name]: _number(kappa)
            for name, kappa in calibration.kappa_by_reviewer.items()
        },
        confusion=Confusion(
            rows=task.choices,
            columns=task.automatic_values,
            counts=tuple(tuple(row) for row in calibration.confusion),
        ),
        agreement_by_model={
            model: _number(rate) for model, rate in calibration.agreement_by_model.items()
        },
        contestations=contestation_counts,
        agreement=pseudonymised(detail, pseudonyms),
        demonstration=demonstration,
    )


def reviewer_pseudonyms(judged: list[JudgedSample]) -> dict[str, str]:
    """R1, R2, ... by reviewer name: the same in the audit and in the judgment export."""
    names = sorted({name for sample in judged for name in sample.choices})
    return {name: f"R{number}" for number, name in enumerate(names, 1)}


def _contestation_counts(
    connection: Connection, round_id: str, now: datetime
) -> ContestationCounts:
    rows = connection.execute(
        select(contestations.c.status, contestations.c.submitted_at).where(
            contestations.c.round_id == round_id
        )
    ).all()
    statuses = [status for status, _ in rows]
    return ContestationCounts(
        received=len(statuses),
        accepted=statuses.count("accepted"),
        rejected=statuses.count("rejected"),
        pending=statuses.count("pending"),
        overdue=sum(
            1
            for status, submitted in rows
            if status == "pending" and (now - as_utc(submitted)).days >= REPLY_DAYS
        ),
    )


def write_export(results: AuditExport, output: Path, *, force: bool = False) -> None:
    """Write `results` to `output` atomically; refuse to replace a file unless `force`."""
    write_audit_export(results, output, force=force)


def _number(value: float) -> float | None:
    return None if math.isnan(value) else round(value, 6)
