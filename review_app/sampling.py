"""Stratified sampling of (item, model) outputs and their assignment to reviewers.

Strata are model × style × language. Each stratum gives ceil(fraction × size) outputs,
at least `min_per_stratum` (or all of a smaller stratum). Which outputs are drawn and
the order reviewers see them in depend only on the round and the seed.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

import numpy as np
from sqlalchemy import Engine, select

from reportgen.kinds.estigmas.model import Round
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


@dataclass(frozen=True)
class Drawn:
    """One drawn output: the item's index in `Round.items` and the model."""

    item_index: int
    model_id: str


def draw_sample(round_: Round, *, fraction: float, min_per_stratum: int, seed: int) -> list[Drawn]:
    """The stratified sample, in the shuffled order reviewers will see it."""
    if not 0 < fraction <= 1:
        raise ReviewInputError("error_fraction", value=fraction)
    if min_per_stratum < 0:
        raise ReviewInputError("error_min_per_stratum", value=min_per_stratum)
    strata: dict[tuple[str, str, str], list[Drawn]] = defaultdict(list)
    for model in round_.models:
        for index, item in enumerate(round_.items):
            strata[(model.model_id, item.style, item.language)].append(Drawn(index, model.model_id))
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
        known = connection.execute(
            select(rounds.c.round_id).where(rounds.c.round_id == round_.round_id)
        ).first()
        if known is None:
            connection.execute(
                rounds.insert().values(
                    round_id=round_.round_id, round_dir=str(round_.path), contest_window_days=10
                )
            )
        settings = {"fraction": fraction, "min_per_stratum": min_per_stratum, "overlap": overlap}
        batch_id = inserted_id(
            connection.execute(
                batches.insert().values(
                    round_id=round_.round_id, seed=seed, settings=settings, created_at=now_utc()
                )
            )
        )
        used_codes: set[str] = set(connection.execute(select(samples.c.code)).scalars())
        for position, (entry, reviewers) in enumerate(zip(drawn, reviewers_of, strict=True)):
            item = round_.items[entry.item_index]
            responses = round_.responses[entry.model_id]
            code = new_code()
            while code in used_codes:
                code = new_code()
            used_codes.add(code)
            sample_id = inserted_id(
                connection.execute(
                    samples.insert().values(
                        batch_id=batch_id,
                        code=code,
                        prompt_text=scrub(item.prompt),
                        output_text=scrub(responses.raw_text[entry.item_index]),
                    )
                )
            )
            connection.execute(
                sample_keys.insert().values(
                    sample_id=sample_id,
                    item_id=item.item_id,
                    model_id=entry.model_id,
                    parser_label=responses.label(entry.item_index),
                    style=item.style,
                    language=item.language,
                )
            )
            connection.execute(
                assignments.insert(),
                [
                    {"sample_id": sample_id, "reviewer_id": reviewer, "position": position}
                    for reviewer in reviewers
                ],
            )
        audit(
            connection,
            by_account,
            "create_batch",
            {"batch_id": batch_id, "round_id": round_.round_id, "seed": seed, **settings},
        )
    return batch_id
