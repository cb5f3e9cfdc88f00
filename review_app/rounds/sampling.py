"""Stratified sampling of (item, model) outputs and their assignment to reviewers.

The units and their strata come from the round's kind (its review task; Estigmas:
model × style × language). Each stratum gives ceil(fraction × size) outputs, at least
`min_per_stratum` (or all of a smaller stratum). Which outputs are drawn and the order
reviewers see them in depend only on the round and the seed.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence

import numpy as np
from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import IntegrityError

from reportgen.kinds.review_task import ReviewUnit
from reportgen.model import Round
from review_app.anonymiser.anonymise import Scrubber, new_code, round_names
from review_app.rounds.batch_release import release_if_clean
from review_app.core.credentials import name_key
from review_app.core.db import (
    accounts,
    assignments,
    audit,
    batches,
    inserted_id,
    now_utc,
    rounds,
    samples,
)
from review_app.core.errors import ReviewInputError
from review_app.core.ledger_provenance import record_baseline
from review_app.core.round_identity import listing_sha256, sums_sha256
from review_app.tasks.lookup import task_of_kind
from review_app.core.unblinding import store_key

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


def assign(
    sample_count: int,
    reviewer_ids: list[int],
    overlap: int,
    quotas: Mapping[int, int] | None = None,
) -> list[tuple[int, ...]]:
    """Reviewers of each sample: `overlap` distinct ones, spread evenly in rotation.

    With `quotas` (reviewer id -> most samples of this batch; absent: no limit), each
    sample goes to the reviewers with the most room left, so that every quota holds."""
    if overlap < 1 or len(reviewer_ids) < overlap:
        raise ReviewInputError("error_overlap", overlap=overlap, count=len(reviewer_ids))
    count = len(reviewer_ids)
    if not quotas:
        return [
            tuple(reviewer_ids[(position * overlap + k) % count] for k in range(overlap))
            for position in range(sample_count)
        ]
    room = _targets(sample_count, reviewer_ids, overlap, quotas)
    order = {r: i for i, r in enumerate(reviewer_ids)}
    chosen: list[tuple[int, ...]] = []
    for position in range(sample_count):
        # Most room left first (each reviewer reaches its share), then the rotation's turn.
        ranked = sorted(
            reviewer_ids, key=lambda r: (-room[r], (order[r] - position * overlap) % count)
        )
        reviewers = tuple(ranked[:overlap])
        for reviewer in reviewers:
            room[reviewer] -= 1
        chosen.append(reviewers)
    return chosen


def _targets(
    sample_count: int, reviewer_ids: list[int], overlap: int, quotas: Mapping[int, int]
) -> dict[int, int]:
    """How many samples each reviewer should get: its quota, and for those without one an
    even share of what the quotas leave. Refused when the places do not cover the batch."""
    needed = overlap * sample_count
    target = {r: min(quotas[r], sample_count) for r in reviewer_ids if r in quotas}
    free = [r for r in reviewer_ids if r not in quotas]
    capacity = sum(target.values()) + sample_count * len(free)
    if capacity < needed:
        raise ReviewInputError(
            "error_quota", samples=sample_count, overlap=overlap, capacity=capacity
        )
    share = math.ceil(max(needed - sum(target.values()), 0) / len(free)) if free else 0
    return target | {r: min(share, sample_count) for r in free}


def create_batch(
    engine: Engine,
    round_: Round,
    *,
    fraction: float,
    min_per_stratum: int,
    overlap: int,
    seed: int,
    by_account: int | None = None,
    reviewers: Sequence[str] | None = None,
    quotas: Mapping[str, int] | None = None,
) -> int:
    """Draw, anonymise and store a batch in one transaction; returns its id.

    `reviewers` (account names; default: every reviewer account) receive the samples,
    each at most its quota (`quotas`: name -> samples). A second batch of the same round
    with the same seed would draw the same outputs again, and is refused."""
    drawn = draw_sample(round_, fraction=fraction, min_per_stratum=min_per_stratum, seed=seed)
    scrub = Scrubber(round_names(round_.models))
    try:
        with engine.begin() as connection:
            refuse_same_draw(connection, round_.round_id, seed)
            names = chosen_reviewers(connection, reviewers, quotas or {})
            ids = list(names.values())
            quota_by_id = {names[name_key(name)]: quota for name, quota in (quotas or {}).items()}
            reviewers_of = assign(len(drawn), ids, overlap, quota_by_id)
            ensure_round(connection, round_)
            settings: dict[str, object] = {
                "fraction": fraction,
                "min_per_stratum": min_per_stratum,
                "overlap": overlap,
                "reviewers": sorted(names),
                "quotas": dict(sorted((quotas or {}).items())),
            }
            batch_id = store_batch(
                connection,
                round_.round_id,
                seed,
                (drawn, reviewers_of),
                scrub,
                settings=settings,
                task_type=None,
                logged=settings,
                by_account=by_account,
            )
    except IntegrityError:
        # Another `sample` with the same round and seed committed first.
        raise ReviewInputError("error_same_draw", round_id=round_.round_id, seed=seed) from None
    return batch_id


def refuse_same_draw(connection: Connection, round_id: str, seed: int) -> None:
    existing = connection.execute(
        select(batches.c.batch_id).where(batches.c.round_id == round_id, batches.c.seed == seed)
    ).scalar()
    if existing is not None:
        raise ReviewInputError("error_same_draw", round_id=round_id, seed=seed)


def chosen_reviewers(
    connection: Connection, names: Sequence[str] | None, quotas: Mapping[str, int]
) -> dict[str, int]:
    """Name key -> account id of the batch's reviewers (every enabled reviewer account by
    default). Names are matched as accounts are: by their NFKC, case-folded key."""
    rows = connection.execute(
        select(accounts.c.name_key, accounts.c.account_id)
        .where(accounts.c.role == "reviewer", accounts.c.disabled.is_(False))
        .order_by(accounts.c.account_id)
    ).all()
    every = {str(key): int(account_id) for key, account_id in rows}
    wanted = set(every) if names is None else {name_key(name) for name in names}
    for name in [*(names or ()), *quotas]:
        if name_key(name) not in every or name_key(name) not in wanted:
            raise ReviewInputError("error_unknown_reviewer", name=name)
    for name, quota in quotas.items():
        if quota < 0:
            raise ReviewInputError("error_quota_negative", name=name, quota=quota)
    return {key: account_id for key, account_id in every.items() if key in wanted}


def ensure_round(connection: Connection, round_: Round) -> None:
    """Record the round on its first batch: its folder as an absolute, resolved path
    (a relative one would name another copy once the app runs elsewhere) and the
    archive's identity, checked before its ledger is appended to."""
    round_dir = round_.path.resolve()
    digest = sums_sha256(round_dir)
    if digest is None and round_.checksums:
        # A raw round, read before it can be frozen: the listing of its raw files.
        digest = listing_sha256(round_.checksums)
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
                # A kind whose round names its window (multidomain) keeps it.
                contest_window_days=int(getattr(round_.manifest, "contest_window_days", 10)),
            )
        )
        record_baseline(connection, round_.round_id, round_dir)  # the ledger it holds now
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


def store_sample(
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
                language=unit.language or None,
                criteria=[c.as_dict() for c in unit.criteria] if unit.criteria else None,
            )
        )
    )
    store_key(
        connection,
        sample_id,
        item_id=unit.item_id,
        model_id=unit.model_id,
        automatic=unit.automatic,
        stratum=unit.stratum,
        run=unit.run,
        unit_key=unit.unit_key,
    )
    connection.execute(
        assignments.insert(),
        [
            {"sample_id": sample_id, "reviewer_id": reviewer, "position": position}
            for reviewer in reviewers
        ],
    )


def store_batch(
    connection: Connection,
    round_id: str,
    seed: int,
    units: tuple[Sequence[Drawn], Sequence[tuple[int, ...]]],
    scrub: Scrubber,
    *,
    settings: Mapping[str, object],
    task_type: str | None,
    logged: Mapping[str, object],
    by_account: int | None,
) -> int:
    """Store a drawn batch, the one way every task does: the batch row (with its
    `task_type`, or the column's default), each sample (`store_sample`: anonymised, a code
    no other sample has, assigned to its reviewers), one `create_batch` line of the audit
    log (the batch, round and seed, then `logged`), and its release when its leak report
    is clean (else it is held). `units` pairs the drawn units with their reviewers.
    Returns the batch's id."""
    drawn, reviewers_of = units
    values: dict[str, object] = {
        "round_id": round_id,
        "seed": seed,
        "settings": dict(settings),
        "created_at": now_utc(),
    }
    if task_type is not None:
        values["task_type"] = task_type
    batch_id = inserted_id(connection.execute(batches.insert().values(**values)))
    used_codes: set[str] = set(connection.execute(select(samples.c.code)).scalars())
    for position, (unit, chosen) in enumerate(zip(drawn, reviewers_of, strict=True)):
        store_sample(connection, batch_id, unit, scrub, used_codes, position, chosen)
    audit(
        connection,
        by_account,
        "create_batch",
        {"batch_id": batch_id, "round_id": round_id, "seed": seed} | dict(logged),
    )
    release_if_clean(connection, batch_id, round_id)  # else held
    return batch_id
