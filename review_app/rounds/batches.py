"""The administrator's batch work: the leak report and held samples, who judges what,
and reopening a closed batch.

A held sample loses its assignments (kept in `held_samples`), so it leaves every reviewer
query, which all go through `assignments`; releasing it gives each reviewer back their
place. Every change is written to the audit log.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import Connection, Engine, delete, func, select, update

from review_app.anonymiser.anonymise import Scrubber
from review_app.anonymiser.leaks import Suspicion, suspicious_samples
from review_app.core.auth import require
from review_app.core.credentials import name_key
from review_app.core.db import (
    accounts,
    assignments,
    audit,
    batches,
    held_samples,
    judgments,
    now_utc,
    samples,
)
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import batch_model_ids


@dataclass(frozen=True)
class SampleLeaks:
    """One sample of the leak report: what still looks suspicious in its texts."""

    sample_id: int
    code: str
    prompt_text: str
    output_text: str
    suspicions: tuple[Suspicion, ...]  # text_index 0: the prompt, 1: the output
    held: bool


@dataclass(frozen=True)
class ReviewerLoad:
    name: str
    assigned: int
    judged: int


def leak_report(engine: Engine, token: str | None, batch_id: int) -> list[SampleLeaks]:
    """The batch's samples that look suspicious or are held, in the batch's order."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        return batch_leaks(connection, batch_id)


def batch_leaks(connection: Connection, batch_id: int) -> list[SampleLeaks]:
    """`leak_report` inside the caller's transaction, for code that checked the caller
    (review_app.rounds.batch_release: releasing, and the automatic release at sampling time)."""
    _batch_closed_at(connection, batch_id)
    rows = connection.execute(
        select(
            samples.c.sample_id,
            samples.c.code,
            samples.c.prompt_text,
            samples.c.output_text,
            held_samples.c.sample_id.label("held"),
        )
        .outerjoin(held_samples, held_samples.c.sample_id == samples.c.sample_id)
        .where(samples.c.batch_id == batch_id)
        .order_by(samples.c.sample_id)
    ).all()
    scrubber = Scrubber(_names_of(batch_model_ids(connection, batch_id)))
    suspicions = suspicious_samples(
        {row.code: (row.prompt_text, row.output_text) for row in rows}, scrubber
    )
    return [
        SampleLeaks(
            row.sample_id,
            row.code,
            row.prompt_text,
            row.output_text,
            tuple(suspicions.get(row.code, ())),
            row.held is not None,
        )
        for row in rows
        if row.code in suspicions or row.held is not None
    ]


def _names_of(model_ids: Iterable[object]) -> tuple[str, ...]:
    """The batch's model identifiers and their parts ("org/model"), as the scrubber had."""
    names: set[str] = set()
    for model_id in model_ids:
        names.add(str(model_id))
        names.update(part for part in re.split(r"[/:@]", str(model_id)) if len(part) >= 2)
    return tuple(sorted(names))


def hold_sample(engine: Engine, token: str | None, sample_id: int) -> None:
    """Take a sample away from its reviewers before they judge it."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        code = _open_sample(connection, sample_id)
        held = connection.execute(
            select(held_samples.c.sample_id).where(held_samples.c.sample_id == sample_id)
        ).first()
        if held is not None:
            return
        judged = connection.execute(
            select(func.count())
            .select_from(judgments)
            .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
            .where(assignments.c.sample_id == sample_id)
        ).scalar_one()
        if judged:
            raise ReviewInputError("error_hold_judged", code=code)
        taken = connection.execute(
            select(assignments.c.reviewer_id, assignments.c.position)
            .where(assignments.c.sample_id == sample_id)
            .order_by(assignments.c.reviewer_id)
        ).all()
        connection.execute(delete(assignments).where(assignments.c.sample_id == sample_id))
        connection.execute(
            held_samples.insert().values(
                sample_id=sample_id,
                assignments=[[int(r), int(p)] for r, p in taken],
                held_by=me.account_id,
                held_at=now_utc(),
            )
        )
        audit(connection, me.account_id, "hold_sample", {"sample_id": sample_id, "code": code})


def release_sample(engine: Engine, token: str | None, sample_id: int) -> None:
    """Give a held sample back to the reviewers it was assigned to."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        code = _open_sample(connection, sample_id)
        kept = connection.execute(
            select(held_samples.c.assignments).where(held_samples.c.sample_id == sample_id)
        ).scalar()
        if kept is None:
            return
        if kept:
            connection.execute(
                assignments.insert(),
                [{"sample_id": sample_id, "reviewer_id": r, "position": p} for r, p in kept],
            )
        connection.execute(delete(held_samples).where(held_samples.c.sample_id == sample_id))
        audit(connection, me.account_id, "release_sample", {"sample_id": sample_id, "code": code})


def reviewer_loads(engine: Engine, token: str | None, batch_id: int) -> list[ReviewerLoad]:
    """Who judges the batch: samples assigned and judged, per reviewer."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        _batch_closed_at(connection, batch_id)
        rows = connection.execute(
            select(
                accounts.c.name,
                func.count(assignments.c.assignment_id),
                func.count(judgments.c.judgment_id),
            )
            .select_from(assignments)
            .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .outerjoin(judgments, judgments.c.assignment_id == assignments.c.assignment_id)
            .where(samples.c.batch_id == batch_id)
            .group_by(accounts.c.name)
            .order_by(accounts.c.name)
        ).all()
    return [ReviewerLoad(str(name), int(n), int(done)) for name, n, done in rows]


def reviewer_names(engine: Engine, token: str | None) -> list[str]:
    """Every reviewer account's name, for choosing who takes over work."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        names = connection.execute(
            select(accounts.c.name)
            .where(accounts.c.role == "reviewer", accounts.c.disabled.is_(False))
            .order_by(accounts.c.name)
        ).scalars()
        return [str(name) for name in names]


def reassign(
    engine: Engine,
    token: str | None,
    batch_id: int,
    from_name: str,
    to_name: str | None,
) -> int:
    """Move `from_name`'s unjudged samples of an open batch to `to_name` (None: unassign
    them). Samples `to_name` already has stay where they are. Returns how many moved."""
    me = require(engine, token, "admin")
    with engine.begin() as connection:
        if _batch_closed_at(connection, batch_id) is not None:
            raise ReviewInputError("error_batch_is_closed", batch_id=batch_id)
        source = _reviewer_id(connection, from_name)
        target = None if to_name is None else _reviewer_id(connection, to_name)
        if target == source:
            return 0
        unjudged = (
            select(assignments.c.assignment_id)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .outerjoin(judgments, judgments.c.assignment_id == assignments.c.assignment_id)
            .where(
                samples.c.batch_id == batch_id,
                assignments.c.reviewer_id == source,
                judgments.c.judgment_id.is_(None),
            )
        )
        if target is not None:
            has_it = select(assignments.c.sample_id).where(assignments.c.reviewer_id == target)
            unjudged = unjudged.where(assignments.c.sample_id.not_in(has_it))
        moving = [int(a) for a in connection.execute(unjudged).scalars()]
        where = assignments.c.assignment_id.in_(moving)
        if target is None:
            connection.execute(delete(assignments).where(where))
        else:
            connection.execute(update(assignments).where(where).values(reviewer_id=target))
        action = "unassign" if target is None else "reassign"
        detail = {"batch_id": batch_id, "from": from_name, "to": to_name, "samples": len(moving)}
        audit(connection, me.account_id, action, detail)
    return len(moving)


def reopen_batch(engine: Engine, token: str | None, batch_id: int) -> None:
    """Open a closed batch again: its reviewers may revise their judgments (logged)."""
    me = require(engine, token, "admin")
    reopen_batch_as(engine, batch_id, me.account_id)


def reopen_batch_as(engine: Engine, batch_id: int, account_id: int | None) -> None:
    """Reopen on behalf of `account_id` (None: the CLI, run by the operator)."""
    with engine.begin() as connection:
        if _batch_closed_at(connection, batch_id) is None:
            return
        connection.execute(
            update(batches).where(batches.c.batch_id == batch_id).values(closed_at=None)
        )
        audit(connection, account_id, "reopen_batch", {"batch_id": batch_id})


def _batch_closed_at(connection: Connection, batch_id: int) -> object:
    row = connection.execute(
        select(batches.c.closed_at).where(batches.c.batch_id == batch_id)
    ).first()
    if row is None:
        raise ReviewInputError("error_unknown_batch", batch_id=batch_id)
    return row.closed_at


def _open_sample(connection: Connection, sample_id: int) -> str:
    """The code of a sample whose batch is open; closed batches do not change."""
    row = connection.execute(
        select(samples.c.code, samples.c.batch_id).where(samples.c.sample_id == sample_id)
    ).first()
    if row is None:
        raise ReviewInputError("error_unknown_sample", code=str(sample_id))
    if _batch_closed_at(connection, row.batch_id) is not None:
        raise ReviewInputError("error_batch_is_closed", batch_id=row.batch_id)
    return str(row.code)


def _reviewer_id(connection: Connection, name: str) -> int:
    account_id = connection.execute(
        select(accounts.c.account_id).where(
            accounts.c.name_key == name_key(name),
            accounts.c.role == "reviewer",
            accounts.c.disabled.is_(False),
        )
    ).scalar()
    if account_id is None:
        raise ReviewInputError("error_unknown_reviewer", name=name)
    return int(account_id)
