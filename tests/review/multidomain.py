"""The tiny multidomain round in a review database: its audit sample, scored.

`tiny_before_audit` writes the tiny round (reportgen.demo.multidomain.tiny) into a test
folder and removes its ledger: the state in which the admin has not yet invalidated i7.
`score_audit` records a reviewer's criterion scores the way the reviewer page does (a
`judgments` row whose choice is "scored", one `criterion_scores` row per criterion).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from sqlalchemy import Engine, select

from reportgen.archive import LEDGER_FILE
from reportgen.demo.multidomain.tiny import write_tiny_round
from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.review.sampling import create_rubric_batch
from reportgen.kinds.review_task import SCORED
from review_app.core.db import (
    accounts,
    assignments,
    criterion_scores,
    judgments,
    now_utc,
    samples,
)
from review_app.core.unblinding import sample_keys
from tests.review.helpers import released

# The tiny round's human scores (tiny.py `_HUMAN`): i7 P1 diverges by 3/2.
HUMAN = {
    ("i3", "p1"): (4, 5),
    ("i3", "p2"): (3, 4),
    ("i3", "p3"): (4, 5),
    ("i7", "p1"): (2, 3),
    ("i7", "p2"): (4, 4),
    ("i7", "p3"): (2, 3),
}


def tiny_before_audit(folder: Path) -> Path:
    """The tiny round written under `folder`, without its annulment ledger."""
    round_dir = write_tiny_round(folder)
    (round_dir / LEDGER_FILE).unlink()
    return round_dir


def audit_batch(engine: Engine, round_dir: Path, seed: int = 5) -> int:
    batch_id = create_rubric_batch(
        engine, read_md_round(round_dir), task_type="audit", seed=seed, reviewers=None
    )
    return released(engine, batch_id)  # the leak review, as an administrator


def score_audit(
    engine: Engine,
    scores: Mapping[tuple[str, str], tuple[int, ...]] | None = None,
    *,
    reviewer: str | None = None,
) -> None:
    """Every rubric assignment (of `reviewer`, else everyone's) scored with `scores`
    (by item and model, "" for a calibration response; default HUMAN)."""
    wanted = HUMAN if scores is None else scores
    with engine.begin() as connection:
        query = (
            select(
                assignments.c.assignment_id,
                sample_keys.c.item_id,
                sample_keys.c.model_id,
                samples.c.criteria,
            )
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .join(sample_keys, sample_keys.c.sample_id == samples.c.sample_id)
            .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        )
        if reviewer is not None:
            query = query.where(accounts.c.name == reviewer)
        rows = connection.execute(query).all()
        for assignment_id, item_id, model_id, criteria in rows:
            values = wanted.get((item_id, model_id))
            if values is None:
                continue
            connection.execute(
                judgments.insert().values(
                    assignment_id=assignment_id, choice=SCORED, note="", submitted_at=now_utc()
                )
            )
            connection.execute(
                criterion_scores.insert(),
                [
                    {
                        "assignment_id": assignment_id,
                        "criterion_id": criterion["criterion_id"],
                        "score": score,
                    }
                    for criterion, score in zip(criteria, values, strict=True)
                ],
            )
