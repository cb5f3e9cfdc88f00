"""Rubric batches of the tiny multidomain round for the review tests.

`rubric_batch` stores a round's audit or calibration units (from the kind's review task)
as one batch, the way the sampling stores samples (anonymised texts, language, criteria;
the key with run and unit key), each unit assigned to `reviewers` in turn, and releases
it as an administrator would after its leak report.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy import Engine, select

from reportgen.demo.multidomain.tiny import write_tiny_round
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review import AUDIT_TASK, CALIBRATION_TASK
from reportgen.kinds.rounds import read_round
from review_app.anonymiser.anonymise import Scrubber, new_code, round_names
from review_app.core.db import (
    accounts,
    assignments,
    batches,
    inserted_id,
    now_utc,
    rounds,
    samples,
)
from review_app.core.unblinding import sample_keys
from tests.review.helpers import released


def tiny_round(folder: Path) -> Round:
    round_ = read_round(write_tiny_round(folder), with_text=True)
    assert isinstance(round_, Round)
    return round_


def rubric_batch(
    engine: Engine,
    round_: Round,
    task_type: str,
    reviewer_names: Sequence[str],
    *,
    overlap: int = 1,
    seed: int = 1,
) -> int:
    """A batch of every unit of `task_type`, each given to `overlap` reviewers in turn."""
    task = AUDIT_TASK if task_type == "audit" else CALIBRATION_TASK
    units = list(task.units(round_))
    scrub = Scrubber(round_names(round_.models))
    with engine.begin() as connection:
        ids = [
            connection.execute(
                select(accounts.c.account_id).where(accounts.c.name == name)
            ).scalar_one()
            for name in reviewer_names
        ]
        known = select(rounds).where(rounds.c.round_id == round_.round_id)
        if connection.execute(known).first() is None:
            connection.execute(
                rounds.insert().values(
                    round_id=round_.round_id,
                    round_dir=str(round_.path.resolve()),
                    kind=round_.manifest.kind,
                    sums_sha256=None,
                )
            )
        batch_id = inserted_id(
            connection.execute(
                batches.insert().values(
                    round_id=round_.round_id,
                    seed=seed,
                    settings={},
                    created_at=now_utc(),
                    task_type=task_type,
                )
            )
        )
        for position, unit in enumerate(units):
            sample_id = inserted_id(
                connection.execute(
                    samples.insert().values(
                        batch_id=batch_id,
                        code=new_code(),
                        prompt_text=scrub(unit.prompt),
                        output_text=scrub(unit.output),
                        language=unit.language or None,
                        criteria=[c.as_dict() for c in unit.criteria],
                    )
                )
            )
            connection.execute(
                sample_keys.insert().values(
                    sample_id=sample_id,
                    item_id=unit.item_id,
                    model_id=unit.model_id,
                    automatic=unit.automatic,
                    stratum=list(unit.stratum),
                    run=unit.run,
                    unit_key=unit.unit_key,
                )
            )
            connection.execute(
                assignments.insert(),
                [
                    {
                        "sample_id": sample_id,
                        "reviewer_id": ids[(position * overlap + k) % len(ids)],
                        "position": position,
                    }
                    for k in range(overlap)
                ],
            )
    return released(engine, batch_id)  # the leak review, as an administrator would
