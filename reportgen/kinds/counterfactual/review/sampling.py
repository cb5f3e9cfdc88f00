"""The counterfactual calibration sample: a blind draw of judged responses.

`reportgen review sample ROUND --task calibration` of a counterfactual round. For each
judged score variable (variables.csv order) the candidates are its responses whose judge
value is not `na` (`review.calibration_units`: they cannot be compared), stratified by
(system, attribute, group). The draw, with one generator seeded by `--seed`:

1. each stratum (in sorted order) gives ceil(min_items / number of strata) responses,
   or all of a smaller one: `rng.choice(size, k, replace=False)`, sorted;
2. when that is short of `preregistration.calibration.min_items` (small strata), the
   shortfall is drawn the same way from the responses not yet drawn (in the candidates'
   order);
3. once every variable is drawn, the order reviewers meet the units in is
   `rng.permutation`.

Each unit goes to one reviewer (calibration.parquet holds one human score per response),
in rotation. Fewer candidates than min_items is refused: the archive would not verify.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from sqlalchemy import Connection, Engine, select

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.review import (
    CALIBRATION,
    SCALE,
    calibration_units,
    judged_variables,
    parse_unit_key,
)
from reportgen.kinds.counterfactual.schemas import EXTRACTIONS_DIR
from reportgen.kinds.review_task import ReviewUnit
from review_app.core.db import batches
from review_app.core.errors import ReviewInputError
from review_app.core.spreadsheet import csv_text
from review_app.rounds.sampling import BatchPlan, draw_strata, store_drawn_batch, strata_of

DRY_RUN_HEADER = ("variable_id", "model_id", "item_id", "run")


def _refuse_unscorable(round_: Round) -> None:
    variables = judged_variables(round_)
    if not variables:
        raise ReviewInputError("cf_error_no_judged", round_id=round_.round_id)
    for variable in variables:
        if variable.scale != SCALE:
            low, high = variable.scale or ("?", "?")
            raise ReviewInputError(
                "cf_error_scale", variable=variable.variable_id, low=low, high=high
            )


def _stratified(
    candidates: Sequence[ReviewUnit], wanted: int, rng: np.random.Generator
) -> list[ReviewUnit]:
    """At least `wanted` of `candidates`, spread evenly over (system, attribute, group)."""
    strata = strata_of(candidates)
    per_stratum = math.ceil(wanted / len(strata))
    chosen, rest = draw_strata(strata, lambda size: min(size, per_stratum), rng)
    shortfall = wanted - len(chosen)
    if shortfall > 0:
        extra = np.sort(rng.choice(len(rest), size=shortfall, replace=False))
        chosen.extend(rest[int(i)] for i in extra)
    return chosen


def draw_calibration(round_: Round, seed: int) -> list[ReviewUnit]:
    """The calibration sample of every judged variable, in the order reviewers see it."""
    _refuse_unscorable(round_)
    wanted = round_.manifest.preregistration.calibration.min_items
    units = list(calibration_units(round_))
    rng = np.random.default_rng(seed)
    drawn: list[ReviewUnit] = []
    for variable in judged_variables(round_):
        candidates = [u for u in units if u.criteria[0].criterion_id == variable.variable_id]
        if len(candidates) < wanted:
            raise ReviewInputError(
                "cf_error_too_few",
                variable=variable.variable_id,
                found=len(candidates),
                min_items=wanted,
            )
        drawn.extend(_stratified(candidates, wanted, rng))
    order = rng.permutation(len(drawn))
    return [drawn[int(i)] for i in order]


def drawn_rows(units: Sequence[ReviewUnit]) -> list[tuple[str, str, str, int]]:
    """(variable_id, model_id, item_id, run) of each unit, sorted."""
    rows = [parse_unit_key(unit.unit_key) for unit in units]
    return sorted(row for row in rows if row is not None)


def dry_run_csv(round_: Round, seed: int) -> str:
    """The drawn units as CSV `variable_id,model_id,item_id,run`, sorted."""
    return csv_text(DRY_RUN_HEADER, drawn_rows(draw_calibration(round_, seed)))


def extraction_digests(round_: Round) -> dict[str, str]:
    """SHA256SUMS digests of the extraction files: the judge's inputs and values the
    batch was drawn from (the export refuses an archive where they changed)."""
    prefix = f"{EXTRACTIONS_DIR}/"
    return {path: digest for path, digest in round_.checksums.items() if path.startswith(prefix)}


def create_scale_batch(
    engine: Engine,
    round_: Round,
    *,
    seed: int,
    reviewers: Sequence[str] | None = None,
    by_account: int | None = None,
) -> int:
    """Draw and store the calibration sample as one batch, in one transaction; returns
    its id. Each unit is given to one reviewer, in rotation."""
    drawn = draw_calibration(round_, seed)
    return store_drawn_batch(
        engine,
        round_,
        drawn,
        BatchPlan(seed, CALIBRATION, 1, reviewers, by_account=by_account),
        lambda names: {
            "overlap": 1,
            "reviewers": names,
            "min_items": round_.manifest.preregistration.calibration.min_items,
            "extractions": extraction_digests(round_),
        },
        logged=lambda settings: {
            "task_type": CALIBRATION,
            "units": len(drawn),
            "reviewers": settings["reviewers"],
        },
        refuse=lambda connection: _refuse_second_draw(connection, round_.round_id),
    )


def _refuse_second_draw(connection: Connection, round_id: str) -> None:
    """A second draw would give responses a second human score: calibration.parquet
    holds one per response."""
    existing = connection.execute(
        select(batches.c.batch_id).where(
            batches.c.round_id == round_id, batches.c.task_type == CALIBRATION
        )
    ).scalar()
    if existing is not None:
        raise ReviewInputError("cf_error_drawn", round_id=round_id, batch_id=existing)
