"""The administrator's side: progress, calibration, disagreements, adjudication, batches.

These functions unblind samples (through `review_app.core.unblinding`); each one checks
the admin role on the server before touching anything.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Engine, func, select, update

from reportgen.kinds.review_task import SCORED, ReviewTask
from review_app.core.auth import require
from review_app.core.db import (
    NOTE_MAX_CHARS,
    accounts,
    adjudications,
    as_utc,
    assignments,
    audit,
    batches,
    judgments,
    now_utc,
    rounds,
    samples,
)
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import unblinded
from review_app.rounds.calibration import (
    cohens_kappa,
    confusion_matrix,
    krippendorff_alpha_nominal,
    majority,
)
from review_app.tasks.lookup import task_of_kind, task_of_round


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
    round_id: str
    model_id: str
    item_id: str
    stratum: tuple[str, ...]  # the kind's sampling strata (Estigmas: style, language)
    automatic: str  # what automatic scoring answered (Estigmas: the parser's label)
    choices: dict[str, str]  # reviewer name -> choice
    notes: dict[str, str]
    adjudicated: str | None
    task: ReviewTask
    prompt_text: str = ""  # the anonymised texts the reviewers read
    output_text: str = ""
    submitted: dict[str, datetime] = field(default_factory=dict)  # reviewer name -> when

    @property
    def consensus(self) -> str | None:
        """The adjudicated choice, else the strict majority of reviewers."""
        return self.adjudicated or majority(list(self.choices.values()))

    @property
    def disagreement(self) -> str | None:
        """Why the sample needs an administrator: reviewers split, or all against scoring."""
        if len(set(self.choices.values())) > 1:
            return "reviewers"
        compare = self.task.compare
        if self.choices and compare(next(iter(self.choices.values()))) != compare(self.automatic):
            return "parser"
        return None


@dataclass(frozen=True)
class Calibration:
    judged_samples: int
    kappa_by_reviewer: dict[str, float]
    kappa_majority: float
    alpha_reviewers: float
    # reviewer choices (rows, task.choices order) × automatic answers (columns,
    # task.automatic_values order)
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


# long: one query and its fold into samples; split, it would only pass rows around.
def _judged_samples(connection: Connection, batch_id: int | None) -> list[JudgedSample]:
    blind = (
        select(
            samples.c.sample_id,
            samples.c.code,
            samples.c.batch_id,
            samples.c.prompt_text,
            samples.c.output_text,
            samples.c.criteria,
            batches.c.round_id,
            rounds.c.kind,
            batches.c.task_type,
            accounts.c.name,
            judgments.c.choice,
            judgments.c.note,
            judgments.c.submitted_at,
            adjudications.c.choice.label("adjudicated"),
        )
        .select_from(judgments)
        .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
        .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(rounds, rounds.c.round_id == batches.c.round_id)
        .outerjoin(adjudications, adjudications.c.sample_id == samples.c.sample_id)
        # A rubric judgment (multidomain audit, calibration) has scores, not a choice to
        # compare with the parser: its task has its own pages (the kind's review.pages).
        .where(judgments.c.choice != SCORED)
        .order_by(samples.c.sample_id, accounts.c.name)
    )
    query = unblinded(blind, "model_id", "item_id", "stratum", "automatic")
    if batch_id is not None:
        query = query.where(samples.c.batch_id == batch_id)
    first_rows: dict[int, Any] = {}
    choices: dict[int, dict[str, str]] = defaultdict(dict)
    notes: dict[int, dict[str, str]] = defaultdict(dict)
    submitted: dict[int, dict[str, datetime]] = defaultdict(dict)
    for row in connection.execute(query):
        if row.criteria:
            # A count of the counterfactual extraction check: a number, not a choice the
            # task's comparison knows (its agreement is the export's and the round's).
            continue
        first_rows.setdefault(row.sample_id, row)
        choices[row.sample_id][row.name] = row.choice
        submitted[row.sample_id][row.name] = as_utc(row.submitted_at)
        if row.note:
            notes[row.sample_id][row.name] = row.note
    return [
        JudgedSample(
            sample_id=sample_id,
            code=row.code,
            batch_id=row.batch_id,
            round_id=row.round_id,
            model_id=row.model_id,
            item_id=row.item_id,
            stratum=tuple(row.stratum),
            automatic=row.automatic,
            choices=choices[sample_id],
            notes=notes[sample_id],
            adjudicated=row.adjudicated,
            task=task_of_kind(row.kind, row.task_type),
            prompt_text=row.prompt_text,
            output_text=row.output_text,
            submitted=submitted[sample_id],
        )
        for sample_id, row in first_rows.items()
    ]


def calibrate(judged: list[JudgedSample], task: ReviewTask) -> Calibration:
    """κ of each reviewer and of the consensus against automatic scoring (in the task's
    comparison space), α among reviewers (on their choices), and the confusion matrix.
    `judged` holds samples of rounds whose kind has `task`."""
    compare = task.compare
    by_reviewer: dict[str, tuple[list[str], list[str]]] = defaultdict(lambda: ([], []))
    for sample in judged:
        for name, choice in sample.choices.items():
            by_reviewer[name][0].append(compare(choice))
            by_reviewer[name][1].append(compare(sample.automatic))
    with_consensus = [s for s in judged if s.consensus is not None]
    kappa_majority = cohens_kappa(
        [compare(str(s.consensus)) for s in with_consensus],
        [compare(s.automatic) for s in with_consensus],
    )
    pairs = [(c, s.automatic) for s in judged for c in s.choices.values()]
    matrix = confusion_matrix(
        [p[0] for p in pairs], [p[1] for p in pairs], task.choices, task.automatic_values
    )
    agreement: dict[str, list[bool]] = defaultdict(list)
    for s in with_consensus:
        agreement[s.model_id].append(compare(str(s.consensus)) == compare(s.automatic))
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
    if len(note) > NOTE_MAX_CHARS:
        raise ReviewInputError("error_note_long", maximum=NOTE_MAX_CHARS, length=len(note))
    with engine.begin() as connection:
        round_id = connection.execute(
            select(batches.c.round_id)
            .join(samples, samples.c.batch_id == batches.c.batch_id)
            .where(samples.c.sample_id == sample_id)
        ).scalar()
        if round_id is None:
            raise ReviewInputError("error_unknown_sample", code=str(sample_id))
        if choice not in task_of_round(connection, str(round_id)).choices:
            raise ReviewInputError("error_choice", choice=choice)
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
    held: bool = False  # awaiting the leak review (review_app.rounds.batch_release)


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
            batches.c.released_at,
        )
        .select_from(batches)
        .outerjoin(samples, samples.c.batch_id == batches.c.batch_id)
        .group_by(
            batches.c.batch_id, batches.c.round_id, batches.c.closed_at, batches.c.released_at
        )
        .order_by(batches.c.batch_id)
    ).all()
    return [
        BatchInfo(int(b), str(r), int(n), c is not None, released is None)
        for b, r, n, c, released in rows
    ]


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
