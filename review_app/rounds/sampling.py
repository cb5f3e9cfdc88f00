"""Stratified sampling of (item, model) outputs and their assignment to reviewers.

The units and their strata come from the round's kind (its review task; Estigmas:
model × style × language). Each stratum gives ceil(fraction × size) outputs, at least
`min_per_stratum` (or all of a smaller stratum). Which outputs are drawn and the order
reviewers see them in depend only on the round and the seed.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
from sqlalchemy import Connection, Engine, select
from sqlalchemy.exc import IntegrityError

from reportgen.kinds.review_task import ReviewUnit
from reportgen.model import Round
from review_app.anonymiser.anonymise import Scrubber, new_code, round_names
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
from review_app.core.unblinding import store_key
from review_app.rounds.batch_release import release_if_clean
from review_app.tasks.lookup import task_of_kind

# A drawn output: the unit (item index, model, texts, automatic answer, strata).
Drawn = ReviewUnit


def draw_sample(round_: Round, *, fraction: float, min_per_stratum: int, seed: int) -> list[Drawn]:
    """The stratified sample, in the shuffled order reviewers will see it."""
    if not 0 < fraction <= 1:
        raise ReviewInputError("error_fraction", value=fraction)
    if min_per_stratum < 0:
        raise ReviewInputError("error_min_per_stratum", value=min_per_stratum)
    task = task_of_kind(round_.manifest.kind)
    rng = np.random.default_rng(seed)
    drawn, _ = draw_strata(
        strata_of(task.units(round_)),
        lambda size: min(size, max(min_per_stratum, math.ceil(fraction * size))),
        rng,
    )
    order = rng.permutation(len(drawn))
    return [drawn[int(i)] for i in order]


def strata_of(units: Iterable[Drawn]) -> dict[tuple[str, ...], list[Drawn]]:
    """The units by stratum, (model, *the unit's strata), each in the units' order."""
    strata: dict[tuple[str, ...], list[Drawn]] = defaultdict(list)
    for unit in units:
        strata[(unit.model_id, *unit.stratum)].append(unit)
    return strata


def draw_strata(
    strata: Mapping[tuple[str, ...], Sequence[Drawn]],
    wanted: Callable[[int], int],
    rng: np.random.Generator,
) -> tuple[list[Drawn], list[Drawn]]:
    """Each stratum, in sorted order, gives `wanted(its size)` of its units, chosen by
    `rng.choice(size, k, replace=False)` and kept in the stratum's order: the drawn
    units, and the rest (stratum by stratum, in their order)."""
    drawn: list[Drawn] = []
    rest: list[Drawn] = []
    for key in sorted(strata):
        members = strata[key]
        picked = {
            int(i) for i in rng.choice(len(members), size=wanted(len(members)), replace=False)
        }
        drawn.extend(members[i] for i in sorted(picked))
        rest.extend(unit for i, unit in enumerate(members) if i not in picked)
    return drawn, rest


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
    return store_drawn_batch(
        engine,
        round_,
        drawn,
        BatchPlan(seed, None, overlap, reviewers, quotas or {}, by_account),
        lambda names: {
            "fraction": fraction,
            "min_per_stratum": min_per_stratum,
            "overlap": overlap,
            "reviewers": names,
            "quotas": dict(sorted((quotas or {}).items())),
        },
    )


@dataclass(frozen=True)
class BatchPlan:
    """How a drawn batch is stored: its seed and task (None: the column's default), how
    many reviewers see each sample (None: every chosen reviewer sees every sample), who
    (account names; None: every reviewer account) within which quotas (name -> most
    samples), and the account that asked (None: the command line)."""

    seed: int
    task_type: str | None
    overlap: int | None
    reviewers: Sequence[str] | None = None
    quotas: Mapping[str, int] = field(default_factory=dict)
    by_account: int | None = None


def store_drawn_batch(
    engine: Engine,
    round_: Round,
    drawn: Sequence[Drawn],
    plan: BatchPlan,
    settings: Callable[[list[str]], dict[str, object]],
    *,
    logged: Callable[[dict[str, object]], Mapping[str, object]] | None = None,
    refuse: Callable[[Connection], None] | None = None,
) -> int:
    """Store `drawn` as one batch, in one transaction, the one way every task does; returns
    its id. Refused: a batch of the round with the same seed (`refuse_same_draw`, also when
    another one commits first), and what `refuse` refuses. The batch's settings are
    `settings(sorted reviewer names)`; its audit-log line holds `logged(settings)`
    (default: the task type, when there is one, then the settings)."""
    scrub = Scrubber(round_names(round_.models))
    try:
        with engine.begin() as connection:
            refuse_same_draw(connection, round_.round_id, plan.seed)
            if refuse is not None:
                refuse(connection)
            names = chosen_reviewers(connection, plan.reviewers, plan.quotas)
            quota_by_id = {names[name_key(name)]: quota for name, quota in plan.quotas.items()}
            overlap = max(1, len(names)) if plan.overlap is None else plan.overlap
            reviewers_of = assign(len(drawn), list(names.values()), overlap, quota_by_id)
            ensure_round(connection, round_)
            described = settings(sorted(names))
            task = {} if plan.task_type is None else {"task_type": plan.task_type}
            return store_batch(
                connection,
                round_.round_id,
                plan.seed,
                (drawn, reviewers_of),
                scrub,
                settings=described,
                task_type=plan.task_type,
                logged=task | described if logged is None else logged(described),
                by_account=plan.by_account,
            )
    except IntegrityError:
        # Another `sample` with the same round and seed committed first.
        raise ReviewInputError(
            "error_same_draw", round_id=round_.round_id, seed=plan.seed
        ) from None


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
