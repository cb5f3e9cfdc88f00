"""Contestations: a reviewer or participant disputes an item; the administrator decides.

A contestation is accepted only within `contest_window_days` of the round's publication;
the administrator owes a written reply within REPLY_DAYS (pending ones past that are
flagged overdue). A kind may bring its own window, reply days and ledger reading (its
review part's `contest`, `reportgen.kinds.review_part`): a multidomain round's test
item's window opens at ended_on + embargo_days (metrics §9), and its ledger is read and
appended as its audit, under way, allows. Accepting appends a line to the round's
annulment ledger (hash-chained, by `reportgen.kinds.rounds.append_annulment`) inside the
same database transaction, so a failed append leaves the contestation pending; a commit
that fails after the append is repaired by the next decision, which reads the ledger
first. The ledger is touched only while the round's folder holds the archive recorded
when the round entered the database (`review_app.core.round_identity`).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, Row, select, update

from reportgen.kinds import review_kind_names, review_part
from reportgen.model import TEXT_LANGUAGES, Annulment
from review_app.core.auth import require
from review_app.core.db import (
    accounts,
    as_utc,
    audit,
    contestations,
    now_utc,
    rounds,
)
from review_app.core.errors import ReviewInputError
from review_app.core.ledger_provenance import check_before_append
from review_app.core.publication import check_publication, days_after
from review_app.core.round_identity import check_identity, item_ids_of
from review_app.core.unblinding import own_sample_item

REPLY_DAYS = 10
JUSTIFICATION_MIN_CHARS = 30
JUSTIFICATION_MAX_CHARS = 5000
REPLY_MAX_CHARS = 5000

AppendAnnulment = Callable[..., object]


def own_window_kinds() -> list[str]:
    """The kinds whose rounds bring their own contestation dates (open before publication
    for some items): those whose review part has `contest` rules."""
    return [name for name in review_kind_names() if review_part(name).contest is not None]


@dataclass(frozen=True)
class Contestation:
    contest_id: str
    round_id: str
    item_id: str
    account: str
    justification: str
    submitted_at: datetime
    status: str
    reply: str
    overdue: bool


def publish_round(
    engine: Engine,
    round_id: str,
    published_on: datetime,
    window_days: int = 10,
    *,
    by_account: int | None = None,
) -> None:
    """Record the publication moment that opens the contestation window (the range of
    dates and windows allowed: review_app.core.publication)."""
    check_publication(published_on, window_days)
    with engine.begin() as connection:
        result = connection.execute(
            update(rounds)
            .where(rounds.c.round_id == round_id)
            .values(published_on=published_on, contest_window_days=window_days)
        )
        if result.rowcount == 0:
            raise ReviewInputError("error_unknown_round", round_id=round_id)
        audit(
            connection,
            by_account,
            "publish_round",
            {"round_id": round_id, "published_on": published_on, "window_days": window_days},
        )


def submit_contestation(
    engine: Engine,
    token: str | None,
    round_id: str,
    reference: str,
    justification: str,
    *,
    clock: Callable[[], datetime] = now_utc,
) -> str:
    """Contest an item, named by one's own sample code or an item id; returns its id."""
    me = require(engine, token, "reviewer", "participant")
    text = justification.strip()
    if len(text) < JUSTIFICATION_MIN_CHARS:
        raise ReviewInputError("error_justification_short", minimum=JUSTIFICATION_MIN_CHARS)
    if len(text) > JUSTIFICATION_MAX_CHARS:
        raise ReviewInputError("error_justification_long", maximum=JUSTIFICATION_MAX_CHARS)
    now = clock()
    with engine.begin() as connection:
        round_row = connection.execute(select(rounds).where(rounds.c.round_id == round_id)).first()
        if round_row is None:
            raise ReviewInputError("error_unknown_round", round_id=round_id)
        if round_row.published_on is None and review_part(round_row.kind).contest is None:
            raise ReviewInputError("error_not_published", round_id=round_id)
        item_id = own_sample_item(connection, me.account_id, round_id, reference)
        if item_id is None:
            # Someone else's sample code and a code that does not exist get the same
            # answer, so that the form cannot be used to learn which codes are real.
            if reference.strip() not in item_ids_of(Path(round_row.round_dir)):
                raise ReviewInputError("error_unknown_reference", reference=reference)
            item_id = reference.strip()
        _check_window(round_row, str(item_id), now)
        contest_id = f"C-{now:%Y%m%d}-{secrets.token_hex(3).upper()}"
        connection.execute(
            contestations.insert().values(
                contest_id=contest_id,
                round_id=round_id,
                item_id=item_id,
                account_id=me.account_id,
                justification=text,
                submitted_at=now,
                status="pending",
                reply="",
            )
        )
        audit(connection, me.account_id, "contest", {"contest_id": contest_id})
    return contest_id


def _check_window(round_row: Row[Any], item_id: str, now: datetime) -> None:
    """Refuse outside the item's window: from publication for `contest_window_days`
    (Estigmas); the dates of a kind that brings its own (multidomain)."""
    published = None if round_row.published_on is None else as_utc(round_row.published_on)
    rules = review_part(round_row.kind).contest
    if rules is not None:
        window = rules.window(Path(round_row.round_dir), round_row.round_id, item_id, published)
        opens, closes = window
    else:
        assert published is not None  # refused above
        opens, closes = published, days_after(published, round_row.contest_window_days)
    if now < opens:
        raise ReviewInputError(
            "md_error_window_not_open", round_id=round_row.round_id, opens=opens.date().isoformat()
        )
    if now > closes:
        raise ReviewInputError(
            "error_window_closed", round_id=round_row.round_id, closes=closes.date().isoformat()
        )


def _reply_days(kind: str, round_dir: str, known: dict[str, int]) -> int:
    """Days the administrator has to reply: REPLY_DAYS, or the round's own (multidomain)."""
    rules = review_part(kind).contest
    if rules is None:
        return REPLY_DAYS
    if round_dir not in known:
        known[round_dir] = rules.reply_days(Path(round_dir))
    return known[round_dir]


def list_contestations(
    engine: Engine, token: str | None, *, clock: Callable[[], datetime] = now_utc
) -> list[Contestation]:
    """All contestations (administrator) or the caller's own (anyone else)."""
    me = require(engine, token, "admin", "reviewer", "participant")
    query = (
        select(contestations, accounts.c.name, rounds.c.kind, rounds.c.round_dir)
        .join(accounts, accounts.c.account_id == contestations.c.account_id)
        .join(rounds, rounds.c.round_id == contestations.c.round_id)
        .order_by(contestations.c.submitted_at)
    )
    if me.role != "admin":
        query = query.where(contestations.c.account_id == me.account_id)
    now = clock()
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    known: dict[str, int] = {}
    return [
        Contestation(
            contest_id=r.contest_id,
            round_id=r.round_id,
            # Item ids are the administrator's to see; a reviewer may have named a sample.
            item_id=r.item_id if me.role == "admin" else "",
            account=r.name,
            justification=r.justification,
            submitted_at=as_utc(r.submitted_at),
            status=r.status,
            reply=r.reply,
            overdue=r.status == "pending"
            and now > days_after(as_utc(r.submitted_at), _reply_days(r.kind, r.round_dir, known)),
        )
        for r in rows
    ]


def decide(
    engine: Engine,
    token: str | None,
    contest_id: str,
    *,
    accept: bool,
    reply: Mapping[str, str],
    clock: Callable[[], datetime] = now_utc,
    append_annulment: AppendAnnulment | None = None,
) -> None:
    """Accept (annul the item in the round's ledger) or reject, with a written reply.

    `reply` holds the reply per language ("pt-BR", "en"); an acceptance needs both,
    because the ledger line carries the reason in both languages. The round's folder
    must still hold the archive recorded for it, and the ledger is read first: an
    acceptance it holds but the database lost (a crash between the append and the
    commit) is recorded now, and such a contestation cannot be rejected.
    """
    me = require(engine, token, "admin")
    texts = _checked_reply(reply, accept=accept)
    now = clock()
    with engine.connect() as connection:
        row = connection.execute(
            select(contestations, rounds.c.round_dir, rounds.c.sums_sha256, rounds.c.kind)
            .join(rounds, rounds.c.round_id == contestations.c.round_id)
            .where(contestations.c.contest_id == contest_id)
        ).first()
    if row is None:
        raise ReviewInputError("error_unknown_contest", contest_id=contest_id)
    round_dir = Path(row.round_dir)
    check_identity(round_dir, row.round_id, row.sums_sha256)
    planned = (row.item_id, "contestation", contest_id) if accept else None
    check_before_append(engine, me.account_id, row.round_id, round_dir, append=planned)
    in_ledger = _ledger_acceptances(round_dir, row.kind)
    if contest_id in _reconcile(engine, me.account_id, row.round_id, in_ledger, now):
        if not accept:
            raise ReviewInputError("error_contest_in_ledger", contest_id=contest_id)
        return  # the interrupted acceptance is now complete
    _record_decision(
        engine, me.account_id, row, accept=accept, texts=texts, now=now,
        append=append_annulment or _default_append(row.kind),
    )  # fmt: skip


def _record_decision(
    engine: Engine,
    account_id: int,
    row: Row[Any],
    *,
    accept: bool,
    texts: Mapping[str, str],
    now: datetime,
    append: AppendAnnulment,
) -> None:
    """Store the decision; an acceptance also appends its line to the round's ledger."""
    with engine.begin() as connection:
        decided = connection.execute(
            update(contestations)
            .where(
                contestations.c.contest_id == row.contest_id, contestations.c.status == "pending"
            )
            .values(
                status="accepted" if accept else "rejected",
                reply="\n\n".join(t for t in texts.values() if t),
                decided_at=now,
                decided_by=account_id,
            )
        )
        # Filtering the update on "pending" (not checking the row read above) also
        # refuses a decision another administrator committed a moment ago.
        if decided.rowcount != 1:
            raise ReviewInputError("error_contest_decided", contest_id=row.contest_id)
        audit(
            connection,
            account_id,
            "accept_contest" if accept else "reject_contest",
            {"contest_id": row.contest_id, "item_id": row.item_id},
        )
        if accept:
            # Last, so that any database error above leaves the ledger untouched; a
            # failure here rolls the decision back. Should the commit itself fail after
            # the append, the next decision finds the line and records the acceptance.
            append(
                Path(row.round_dir),
                item_id=row.item_id,
                decided_on=now.date(),
                source="contestation",
                ref=row.contest_id,
                reason=dict(texts),
            )


def _ledger_acceptances(round_dir: Path, kind: str) -> dict[str, Annulment]:
    """The ledger's lines written by accepted contestations, by contestation id."""
    from reportgen.kinds.rounds import read_round

    rules = review_part(kind).contest
    if rules is not None:  # read as the kind reads it while its review is under way
        annulments = rules.annulments(round_dir)
    else:
        annulments = read_round(round_dir, with_text=False).annulments
    return {a.ref: a for a in annulments if a.source == "contestation"}


def _reconcile(
    engine: Engine,
    account_id: int,
    round_id: str,
    in_ledger: Mapping[str, Annulment],
    now: datetime,
) -> set[str]:
    """Mark accepted the round's pending contestations whose acceptance the ledger
    already holds; returns their ids. The ledger is the published record: its reason
    becomes the reply."""
    reconciled: set[str] = set()
    if not in_ledger:
        return reconciled
    with engine.begin() as connection:
        pending = connection.execute(
            select(contestations.c.contest_id, contestations.c.item_id).where(
                contestations.c.round_id == round_id, contestations.c.status == "pending"
            )
        ).all()
        for contest_id, item_id in pending:
            line = in_ledger.get(contest_id)
            if line is None or line.item_id != item_id:
                continue
            marked = connection.execute(
                update(contestations)
                .where(
                    contestations.c.contest_id == contest_id, contestations.c.status == "pending"
                )
                .values(
                    status="accepted",
                    reply="\n\n".join(line.reason.get(language, "") for language in TEXT_LANGUAGES),
                    decided_at=now,
                    decided_by=account_id,
                )
            )
            if marked.rowcount == 1:
                reconciled.add(contest_id)
                audit(
                    connection,
                    account_id,
                    "reconcile_contest",
                    {"contest_id": contest_id, "item_id": item_id, "decided_on": line.decided_on},
                )
    return reconciled


def _checked_reply(reply: Mapping[str, str], *, accept: bool) -> dict[str, str]:
    """The reply per language, stripped; an acceptance needs it in both languages."""
    texts = {language: reply.get(language, "").strip() for language in TEXT_LANGUAGES}
    if accept and not all(texts.values()):
        raise ReviewInputError("error_reply_both")
    if not any(texts.values()):
        raise ReviewInputError("error_reply_missing")
    if any(len(t) > REPLY_MAX_CHARS for t in texts.values()):
        raise ReviewInputError("error_reply_long", maximum=REPLY_MAX_CHARS)
    return texts


def _default_append(kind: str) -> AppendAnnulment:
    from reportgen.kinds.rounds import append_annulment

    rules = review_part(kind).contest
    return append_annulment if rules is None else rules.append
