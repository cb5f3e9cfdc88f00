"""The rubric judgments of a round, unblinded: administrator code only.

Each judgment of a rubric sample (multidomain: the Art. 26 audit, the Art. 22
calibration) with what unblinds it (item, model, run, the unit's key) and its criterion
scores. The admin's divergence and calibration views and the export of `audit.parquet`
and `calibration.parquet` read it; no reviewer page does (it unblinds, through
`review_app.core.unblinding`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, select

from review_app.core.db import (
    accounts,
    as_utc,
    assignments,
    batches,
    criterion_scores,
    judgments,
    samples,
)
from review_app.core.unblinding import unblinded


@dataclass(frozen=True)
class RubricJudgment:
    """One reviewer's scores of one rubric sample."""

    code: str  # the sample's code (what the reviewer saw)
    batch_id: int
    task_type: str | None  # the batch's task ("audit", "calibration"; None: the kind's own)
    item_id: str
    model_id: str  # "" for a calibration response (no participant)
    run: int
    unit_key: str  # item|model|run, or a calibration response's response_id
    reviewer_account_id: int
    reviewer_name: str
    reviewer_pseudonym: str  # R1, R2, ... by name among the round's rubric reviewers
    scores: Mapping[str, int]  # criterion_id -> score
    submitted_at: datetime
    scored_at: datetime  # the last time the scores were set (revised, else submitted)
    blind: bool  # the reviewer saw neither identity nor other scores (a reviewer account)

    @property
    def audit_id(self) -> str:
        """The response's `audit_id` in audit.parquet, which an `audit` ledger line cites
        as its `ref`: "AUD-" and the sample code's token (unique per sample)."""
        return audit_id(self.code)


def audit_id(code: str) -> str:
    """The audit_id of the response sample `code` shows."""
    return "AUD-" + code.rpartition("-")[2]


def rubric_scores(
    connection: Connection, round_id: str, task_type: str | None = None
) -> list[RubricJudgment]:
    """Every scored rubric judgment of `round_id` (of batches of `task_type` when given),
    by sample then reviewer name."""
    blind = (
        select(
            samples.c.sample_id,
            samples.c.code,
            batches.c.batch_id,
            batches.c.task_type,
            assignments.c.assignment_id,
            accounts.c.account_id,
            accounts.c.name,
            accounts.c.role,
            judgments.c.submitted_at,
            judgments.c.revised_at,
        )
        .select_from(judgments)
        .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
        .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_id, samples.c.criteria.is_not(None))
        .order_by(samples.c.sample_id, accounts.c.name)
    )
    query = unblinded(blind, "item_id", "model_id", "run", "unit_key")
    if task_type is not None:
        query = query.where(batches.c.task_type == task_type)
    rows = connection.execute(query).all()
    scores = _scores_of(connection, [int(row.assignment_id) for row in rows])
    names = sorted({str(row.name) for row in rows})
    pseudonyms = {name: f"R{number}" for number, name in enumerate(names, 1)}
    return [
        RubricJudgment(
            code=row.code,
            batch_id=int(row.batch_id),
            task_type=row.task_type,
            item_id=row.item_id,
            model_id=row.model_id,
            run=int(row.run),
            unit_key=row.unit_key or f"{row.item_id}|{row.model_id}|{row.run}",
            reviewer_account_id=int(row.account_id),
            reviewer_name=row.name,
            reviewer_pseudonym=pseudonyms[row.name],
            scores=scores.get(int(row.assignment_id), {}),
            submitted_at=as_utc(row.submitted_at),
            scored_at=as_utc(row.revised_at or row.submitted_at),
            blind=row.role == "reviewer",
        )
        for row in rows
    ]


def _scores_of(connection: Connection, assignment_ids: list[int]) -> dict[int, dict[str, int]]:
    found: dict[int, dict[str, int]] = defaultdict(dict)
    # In slices: a long audit would pass SQLite's limit on bound parameters.
    for start in range(0, len(assignment_ids), 500):
        chunk = assignment_ids[start : start + 500]
        for assignment_id, criterion_id, score in connection.execute(
            select(
                criterion_scores.c.assignment_id,
                criterion_scores.c.criterion_id,
                criterion_scores.c.score,
            ).where(criterion_scores.c.assignment_id.in_(chunk))
        ):
            found[int(assignment_id)][str(criterion_id)] = int(score)
    return dict(found)
