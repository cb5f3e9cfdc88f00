"""Stratified sampling of (item, model) outputs and their assignment to reviewers.

The units and their strata come from the round's kind (its review task; Estigmas:
model × style × language). Each stratum gives ceil(fraction × size) outputs, at least
`min_per_stratum` (or all of a smaller stratum). Which outputs are drawn and the order
reviewers see them in depend only on the round and the seed.
"""

from __future__ import annotations

import math
from collections import defaultdict

import numpy as np
from sqlalchemy import Connection, Engine, select

from reportgen.kinds.review_task import ReviewUnit
from reportgen.model import Round
from review_app.anonymise import Scrubber, new_code, round_names
from review_app.db import (
    accounts,
    assignments,
    audit,
    batches,
    inserted_id,
    now_utc,
    rounds,
    sample_keys,
    samples,
)
from review_app.errors import ReviewInputError
from review_app.round_identity import sums_sha256
from review_app.tasks import task_of_kind

# A drawn output: the unit (item index, model, texts, automatic answer, strata).
Drawn = ReviewUnit


def draw_sample(round_: Round, *, fraction: float, min_per_stratum: int, seed: int) -> list[Drawn]:
    """The stratified sample, in the shuffled order reviewers will see it."""
    if not 0 < fraction <= 1:
        raise ReviewInputError("error_fraction", value=fraction)
    if min_per_stratum < 0:
        raise ReviewInputError("error_min_per_stratum", value=min_per_stratum)
    task = task_of_kind(round_.manifest.kind)
    strata: dict[tuple[str, ...], list[Drawn]] = defaultdict(list)
    for unit in task.units(round_):
        strata[(unit.model_id, *unit.stratum)].append(unit)
    rng = np.random.default_rng(seed)
    drawn: list[Drawn] = []
    for key in sorted(strata):
        members = strata[key]
        wanted = min(len(members), max(min_per_stratum, math.ceil(fraction * len(members))))
        chosen = np.sort(rng.choice(len(members), size=wanted, replace=False))
        drawn.extend(members[int(i)] for i in chosen)
    order = rng.permutation(len(drawn))
    return [drawn[int(i)] for i in order]


def assign(sample_count: int, reviewer_ids: list[int], overlap: int) -> list[tuple[int, ...]]:
    """Reviewers of each sample: `overlap` distinct ones, spread evenly in rotation."""
    if overlap < 1:
        raise ReviewInputError("error_overlap", overlap=overlap, reviewers=len(reviewer_ids))
    if len(reviewer_ids) < overlap:
        raise ReviewInputError("error_overlap", overlap=overlap, reviewers=len(reviewer_ids))
    count = len(reviewer_ids)
    return [
        tuple(reviewer_ids[(position * overlap + k) % count] for k in range(overlap))
        for position in range(sample_count)
    ]


def create_batch(
    engine: Engine,
    round_: Round,
    *,
    fraction: float,
    min_per_stratum: int,
    overlap: int,
    seed: int,
    by_account: int | None = None,
) -> int:
    """Draw, anonymise and store a batch in one transaction; returns its id."""
    drawn = draw_sample(round_, fraction=fraction, min_per_stratum=min_per_stratum, seed=seed)
    scrub = Scrubber(round_names(round_.models))
    with engine.begin() as connection:
        reviewer_ids = [
            int(r)
            for r in connection.execute(
                select(accounts.c.account_id)
                .where(accounts.c.role == "reviewer")
                .order_by(accounts.c.account_id)
            ).scalars()
        ]
        reviewers_of = assign(len(drawn), reviewer_ids, overlap)
        _ensure_round(connection, round_)
        settings = {"fraction": fraction, "min_per_stratum": min_per_stratum, "overlap": overlap}
        batch_id = inserted_id(
            connection.execute(
                batches.insert().values(
                    round_id=round_.round_id, seed=seed, settings=settings, created_at=now_utc()
                )
            )
        )
        used_codes: set[str] = set(connection.execute(select(samples.c.code)).scalars())
        for position, (unit, reviewers) in enumerate(zip(drawn, reviewers_of, strict=True)):
            _store_sample(connection, batch_id, unit, scrub, used_codes, position, reviewers)
        audit(
            connection,
            by_account,
            "create_batch",
            {"batch_id": batch_id, "round_id": round_.round_id, "seed": seed, **settings},
        )
    return batch_id


def _ensure_round(connection: Connection, round_: Round) -> None:
    """Record the round on its first batch: its folder as an absolute, resolved path
    (a relative one would name another copy once the app runs elsewhere) and the
    archive's identity, checked before its ledger is appended to."""
    round_dir = round_.path.resolve()
    digest = sums_sha256(round_dir)
    known = connection.execute(
        select(rounds.c.round_dir, rounds.c.sums_sha256).where(rounds.c.round_id == round_.round_id)
    ).first()
    if known is None:
        connection.execute(
            rounds.insert().values(
                round_id=round_.round_id,
                round_dir=str(round_dir),
                kind=round_.manifest.kind,
                sums_sha256=digest,
                contest_window_days=10,
            )
        )
    elif known.sums_sha256 != digest:
        # Two archives under one round_id: their batches must not mix.
        raise ReviewInputError(
            "error_round_other_archive",
            path=str(round_dir),
            round_id=round_.round_id,
            recorded=(known.sums_sha256 or "-")[:12],
            found_round_id=round_.round_id,
            found=(digest or "-")[:12],
        )


def _store_sample(
    connection: Connection,
    batch_id: int,
    unit: Drawn,
    scrub: Scrubber,
    used_codes: set[str],
    position: int,
    reviewers: tuple[int, ...],
) -> None:
    """One sample: its anonymised texts (what reviewers read), its key (what unblinds
    it, read by administrator code only) and its assignments."""
    code = new_code()
    while code in used_codes:
        code = new_code()
    used_codes.add(code)
    sample_id = inserted_id(
        connection.execute(
            samples.insert().values(
                batch_id=batch_id,
                code=code,
                prompt_text=scrub(unit.prompt),
                output_text=scrub(unit.output),
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
        )
    )
    connection.execute(
        assignments.insert(),
        [
            {"sample_id": sample_id, "reviewer_id": reviewer, "position": position}
            for reviewer in reviewers
        ],
    )
