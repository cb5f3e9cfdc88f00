"""The leak review: nothing reaches a reviewer before a batch's leak report is decided.

A new batch is held (`batches.released_at` is None): every reviewer query filters it out
(`review_app.tasks.reviewing`), and judging one of its samples is refused. An administrator
reads the leak report, holds back the samples they do not trust (`batches.hold_sample`)
and releases the batch; the release records who, when and how many samples the report
flagged then, in the batch and in the audit log. A round whose settings say so has its
clean batches (an empty leak report when they are drawn) released at once by the system.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Connection, Engine, func, select, update

from review_app.core.auth import require
from review_app.core.db import accounts, assignments, audit, batches, now_utc, samples
from review_app.core.errors import ReviewInputError
from review_app.core.release_schema import round_settings
from review_app.rounds.batches import SampleLeaks, batch_leaks

VIA_ADMIN = "admin"  # an administrator in the app
VIA_CLI = "cli"  # `reportgen review release-batch`, run by the operator
VIA_AUTOMATIC = "automatic"  # the round's automatic release of a clean batch


@dataclass(frozen=True)
class Release:
    """A batch's release state: held (`released_at` None) or released."""

    batch_id: int
    released_at: datetime | None
    released_via: str | None
    flagged_at_release: int | None

    @property
    def held(self) -> bool:
        return self.released_at is None


@dataclass(frozen=True)
class BatchSummary:
    """What `reportgen review sample` tells: the batch, its size, who got what."""

    batch_id: int
    round_id: str
    task_type: str | None
    samples: int
    per_reviewer: dict[str, int]  # account name -> samples assigned
    release: Release


def release_state(connection: Connection, batch_id: int) -> Release:
    row = connection.execute(
        select(batches.c.released_at, batches.c.released_via, batches.c.flagged_at_release).where(
            batches.c.batch_id == batch_id
        )
    ).first()
    if row is None:
        raise ReviewInputError("error_unknown_batch", batch_id=batch_id)
    return Release(batch_id, row.released_at, row.released_via, row.flagged_at_release)


def release_batch(engine: Engine, token: str | None, batch_id: int) -> Release:
    """Release a held batch to its reviewers, as the administrator behind `token` (the
    batches page shows the leak report beside the button)."""
    me = require(engine, token, "admin")
    return release_batch_as(engine, batch_id, me.account_id, VIA_ADMIN)


def release_batch_as(engine: Engine, batch_id: int, account_id: int | None, via: str) -> Release:
    """Release on behalf of `account_id` (None: the CLI's operator); a released batch
    stays as it was released."""
    with engine.begin() as connection:
        state = release_state(connection, batch_id)
        if not state.held:
            return state
        _mark_released(connection, batch_id, account_id, via, batch_leaks(connection, batch_id))
        return release_state(connection, batch_id)


def release_if_clean(connection: Connection, batch_id: int, round_id: str) -> bool:
    """At sampling time, inside the sampling transaction: release the batch when its
    round releases clean batches automatically and its leak report is empty."""
    if not auto_release_clean(connection, round_id):
        return False
    report = batch_leaks(connection, batch_id)
    if report:
        return False
    _mark_released(connection, batch_id, None, VIA_AUTOMATIC, report)
    return True


def _mark_released(
    connection: Connection,
    batch_id: int,
    account_id: int | None,
    via: str,
    report: list[SampleLeaks],
) -> None:
    flagged = sum(1 for entry in report if entry.suspicions)
    connection.execute(
        update(batches)
        .where(batches.c.batch_id == batch_id, batches.c.released_at.is_(None))
        .values(
            released_at=now_utc(),
            released_by=account_id,
            released_via=via,
            flagged_at_release=flagged,
        )
    )
    detail = {
        "batch_id": batch_id,
        "via": via,
        "flagged": flagged,
        "held_back": sum(1 for entry in report if entry.held),
        "suspicions": sum(len(entry.suspicions) for entry in report),
    }
    audit(connection, account_id, "release_batch", detail)


def auto_release_clean(connection: Connection, round_id: str) -> bool:
    value = connection.execute(
        select(round_settings.c.auto_release_clean).where(round_settings.c.round_id == round_id)
    ).scalar()
    return bool(value)


def round_auto_release(engine: Engine, token: str | None, round_id: str) -> bool:
    require(engine, token, "admin")
    with engine.connect() as connection:
        return auto_release_clean(connection, round_id)


def set_auto_release(engine: Engine, token: str | None, round_id: str, on: bool) -> None:
    """Turn the automatic release of a round's clean batches on or off (audited)."""
    me = require(engine, token, "admin")
    set_auto_release_as(engine, round_id, on, me.account_id)


def set_auto_release_as(engine: Engine, round_id: str, on: bool, account_id: int | None) -> None:
    """On behalf of `account_id` (None: the CLI's operator)."""
    with engine.begin() as connection:
        if auto_release_clean(connection, round_id) == on:
            return
        exists = connection.execute(
            select(round_settings.c.round_id).where(round_settings.c.round_id == round_id)
        ).first()
        if exists is None:
            connection.execute(
                round_settings.insert().values(round_id=round_id, auto_release_clean=on)
            )
        else:
            connection.execute(
                update(round_settings)
                .where(round_settings.c.round_id == round_id)
                .values(auto_release_clean=on)
            )
        detail = {"round_id": round_id, "auto_release_clean": on}
        audit(connection, account_id, "round_settings", detail)


def leak_report_as(engine: Engine, batch_id: int) -> list[SampleLeaks]:
    """The leak report for the CLI's operator (the app's pages use `batches.leak_report`)."""
    with engine.connect() as connection:
        return batch_leaks(connection, batch_id)


def batch_summary(engine: Engine, batch_id: int) -> BatchSummary:
    """The batch's size, its reviewers' loads and its release state, for the CLI."""
    with engine.connect() as connection:
        release = release_state(connection, batch_id)
        batch = connection.execute(
            select(batches.c.round_id, batches.c.task_type).where(batches.c.batch_id == batch_id)
        ).one()
        count = connection.execute(
            select(func.count()).select_from(samples).where(samples.c.batch_id == batch_id)
        ).scalar_one()
        loads = connection.execute(
            select(accounts.c.name, func.count(assignments.c.assignment_id))
            .select_from(assignments)
            .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
            .join(samples, samples.c.sample_id == assignments.c.sample_id)
            .where(samples.c.batch_id == batch_id)
            .group_by(accounts.c.name)
            .order_by(accounts.c.name)
        ).all()
    return BatchSummary(
        batch_id,
        str(batch.round_id),
        batch.task_type,
        int(count),
        {str(name): int(n) for name, n in loads},
        release,
    )
