"""The administrator's side: progress, calibration, disagreements, adjudication, batches.

Only these functions (and `export`, `contest`) read `sample_keys`; each one checks
the admin role on the server before touching anything.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Connection, Engine, func, select, update

from review_app.auth import require
from review_app.calibration import (
    cohens_kappa,
    confusion_matrix,
    krippendorff_alpha_nominal,
    majority,
    to_scoring,
)
from review_app.db import (
    CHOICES,
    NOTE_MAX_CHARS,
    accounts,
    adjudications,
    assignments,
    audit,
    batches,
    judgments,
    now_utc,
    sample_keys,
    samples,
)
from review_app.errors import ReviewInputError

PARSER_LABELS = ("yes", "no", "cant_tell", "inconclusive")


@dataclass(frozen=True)
class ReviewerProgress:
    name: str
    judged: int
    assigned: int


@dataclass(frozen=True)
class JudgedSample:
    """One sample with everything the administrator may see about it."""

    sample_id: int
    code: str
    batch_id: int
    model_id: str
    item_id: str
    style: str
    language: str
    parser_label: str
    choices: dict[str, str]  # reviewer name -> choice
    notes: dict[str, str]
    adjudicated: str | None

    @property
    def consensus(self) -> str | None:
        """The adjudicated choice, else the strict majority of reviewers."""
        return self.adjudicated or majority(list(self.choices.values()))

    @property
    def disagreement(self) -> str | None:
        """Why the sample needs an administrator: reviewers split, or all against the parser."""
        if len(set(self.choices.values())) > 1:
            return "reviewers"
        if self.choices and to_scoring(next(iter(self.choices.values()))) != to_scoring(
            self.parser_label
        ):
            return "parser"
        return None


@dataclass(frozen=True)
class Calibration:
    judged_samples: int
    kappa_by_reviewer: dict[str, float]
    kappa_majority: float
    alpha_reviewers: float
    # reviewer choices (rows, CHOICES order) × parser labels (columns, PARSER_LABELS order)
    confusion: list[list[int]] = field(default_factory=list)
    agreement_by_model: dict[str, float] = field(default_factory=dict)


def reviewer_progress(engine: Engine, token: str | None) -> list[ReviewerProgress]:
    require(engine, token, "admin")
    with engine.connect() as connection:
        rows = connection.execute(
            select(
                accounts.c.name,
                func.count(judgments.c.judgment_id),
                func.count(assignments.c.assignment_id),
            )
            .select_from(accounts)
            .join(assignments, assignments.c.reviewer_id == accounts.c.account_id)
            .outerjoin(judgments, judgments.c.assignment_id == assignments.c.assignment_id)
            .group_by(accounts.c.name)
            .order_by(accounts.c.name)
        ).all()
    return [ReviewerProgress(name, int(judged), int(total)) for name, judged, total in rows]


def judged_samples(
    engine: Engine, token: str | None, batch_id: int | None = None
) -> list[JudgedSample]:
    """Every sample with at least one judgment, unblinded."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        return _judged_samples(connection, batch_id)


def _judged_samples(connection: Connection, batch_id: int | None) -> list[JudgedSample]:
    query = (
        select(
            samples.c.sample_id,
            samples.c.code,
            samples.c.batch_id,
            sample_keys.c.model_id,
            sample_keys.c.item_id,
            sample_keys.c.style,
            sample_keys.c.language,
            sample_keys.c.parser_label,
            accounts.c.name,
            judgments.c.choice,
            judgments.c.note,
            adjudications.c.choice.label("adjudicated"),
        )
        .select_from(judgments)
        .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
        .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(sample_keys, sample_keys.c.sample_id == samples.c.sample_id)
        .outerjoin(adjudications, adjudications.c.sample_id == samples.c.sample_id)
        .order_by(samples.c.sample_id, accounts.c.name)
    )
    if batch_id is not None:
        query = query.where(samples.c.batch_id == batch_id)
    first_rows: dict[int, Any] = {}
    choices: dict[int, dict[str, str]] = defaultdict(dict)
    notes: dict[int, dict[str, str]] = defaultdict(dict)
    for row in connection.execute(query):
        first_rows.setdefault(row.sample_id, row)
        choices[row.sample_id][row.name] = row.choice
        if row.note:
            notes[row.sample_id][row.name] = row.note
    return [
        JudgedSample(
            sample_id=sample_id,
            code=row.code,
            batch_id=row.batch_id,
            model_id=row.model_id,
            item_id=row.item_id,
            style=row.style,
            language=row.language,
            parser_label=row.parser_label,
            choices=choices[sample_id],
            notes=notes[sample_id],
            adjudicated=row.adjudicated,
        )
        for sample_id, row in first_rows.items()
    ]


def calibrate(judged: list[JudgedSample]) -> Calibration:
    """κ of each reviewer and of the consensus against the parser (scoring space),
    α among reviewers (on their five choices), and the confusion matrix."""
    by_reviewer: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for sample in judged:
        for name, choice in sample.choices.items():
            by_reviewer[name][0].append(to_scoring(choice))
            by_reviewer[name][1].append(to_scoring(sample.parser_label))
    with_consensus = [s for s in judged if s.consensus is not None]
    kappa_majority = cohens_kappa(
        [to_scoring(str(s.consensus)) for s in with_consensus],
        [to_scoring(s.parser_label) for s in with_consensus],
    )
    pairs = [(c, s.parser_label) for s in judged for c in s.choices.values()]
    matrix = confusion_matrix([p[0] for p in pairs], [p[1] for p in pairs], CHOICES, PARSER_LABELS)
    agreement: dict[str, list[bool]] = defaultdict(list)
    for s in with_consensus:
        agreement[s.model_id].append(to_scoring(str(s.consensus)) == to_scoring(s.parser_label))
    return Calibration(
        judged_samples=len(judged),
        kappa_by_reviewer={
            name: cohens_kappa(mine, parser) for name, (mine, parser) in sorted(by_reviewer.items())
        },
        kappa_majority=kappa_majority,
        alpha_reviewers=krippendorff_alpha_nominal([list(s.choices.values()) for s in judged]),
        confusion=matrix.tolist(),
        agreement_by_model={
            model: sum(hits) / len(hits) if hits else math.nan
            for model, hits in sorted(agreement.items())
        },
    )


def disagreement_queue(engine: Engine, token: str | None) -> list[JudgedSample]:
    """Samples awaiting adjudication: reviewers split, or unanimous against the parser."""
    return [
        s
        for s in judged_samples(engine, token)
        if s.disagreement is not None and s.adjudicated is None
    ]


def adjudicate(
    engine: Engine, token: str | None, sample_id: int, choice: str, note: str = ""
) -> None:
    me = require(engine, token, "admin")
    if choice not in CHOICES:
        raise ReviewInputError("error_choice", choice=choice)
    if len(note) > NOTE_MAX_CHARS:
        raise ReviewInputError("error_note_long", maximum=NOTE_MAX_CHARS, length=len(note))
    with engine.begin() as connection:
        if (
            connection.execute(
                select(samples.c.sample_id).where(samples.c.sample_id == sample_id)
            ).first()
            is None
        ):
            raise ReviewInputError("error_unknown_sample", code=str(sample_id))
        existing = connection.execute(
            select(adjudications.c.sample_id).where(adjudications.c.sample_id == sample_id)
        ).first()
        values = {
            "choice": choice,
            "note": note.strip(),
            "admin_id": me.account_id,
            "decided_at": now_utc(),
        }
        if existing is None:
            connection.execute(adjudications.insert().values(sample_id=sample_id, **values))
        else:
            connection.execute(
                update(adjudications).where(adjudications.c.sample_id == sample_id).values(**values)
            )
        audit(connection, me.account_id, "adjudicate", {"sample_id": sample_id, "choice": choice})


@dataclass(frozen=True)
class BatchInfo:
    batch_id: int
    round_id: str
    samples: int
    closed: bool


def list_batches(engine: Engine, token: str | None) -> list[BatchInfo]:
    require(engine, token, "admin")
    with engine.connect() as connection:
        return _list_batches(connection)


def _list_batches(connection: Connection) -> list[BatchInfo]:
    rows = connection.execute(
        select(
            batches.c.batch_id,
            batches.c.round_id,
            func.count(samples.c.sample_id),
            batches.c.closed_at,
        )
        .select_from(batches)
        .outerjoin(samples, samples.c.batch_id == batches.c.batch_id)
        .group_by(batches.c.batch_id, batches.c.round_id, batches.c.closed_at)
        .order_by(batches.c.batch_id)
    ).all()
    return [BatchInfo(int(b), str(r), int(n), c is not None) for b, r, n, c in rows]


def close_batch(engine: Engine, token: str | None, batch_id: int) -> None:
    """Freeze a batch's judgments: reviewers can no longer revise them."""
    me = require(engine, token, "admin")
    close_batch_as(engine, batch_id, me.account_id)


def close_batch_as(engine: Engine, batch_id: int, account_id: int | None) -> None:
    """Close a batch on behalf of `account_id` (None: the CLI, run by the operator)."""
    with engine.begin() as connection:
        row = connection.execute(
            select(batches.c.closed_at).where(batches.c.batch_id == batch_id)
        ).first()
        if row is None:
            raise ReviewInputError("error_unknown_batch", batch_id=batch_id)
        if row.closed_at is not None:
            return
        connection.execute(
            update(batches).where(batches.c.batch_id == batch_id).values(closed_at=now_utc())
        )
        audit(connection, account_id, "close_batch", {"batch_id": batch_id})
