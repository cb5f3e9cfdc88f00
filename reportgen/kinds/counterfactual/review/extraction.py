"""People's check of a counterfactual round's extracted decisions (issue 21, point 3).

`reportgen review sample ROUND --task extraction --seed N` draws, for each checked
variable (variables.csv order: every binary variable, and every count variable whose
extractor is a model), `preregistration.extraction_check.min_items` of its
extractions, stratified by (system, extracted value) with the calibration's own draw
(`review.sampling._stratified`: each stratum in sorted order gives an even
share, a shortfall is drawn from the rest, then one permutation orders the whole
sample). A reviewer reads the variable's question and the text the extractor read (the
raw answer, or a model extractor's masked input), never the extracted value, and answers
yes, no or cannot tell (`review.EXTRACTION_TASK`, a choice
task of the review app), or for a count types the number (`review.pages.count`: a
whole number >= 0, or cannot tell). Counts made by a code extractor are not drawn. Each
unit goes to one reviewer, in rotation.

`reportgen review export` writes the answers with the calibration (review.export):
`extraction_checks.parquet` (an archive) or `extraction_checks.jsonl` (a raw round), one
row per answer: the response, `extracted_value` (the frozen value), `human_value` (yes /
no / na, or the count: "0", "17", na), `reviewer` (R1, R2, ... by account name) and
`checked_on` (the date last answered).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sqlalchemy import Connection, Engine, select

from reportgen.kinds.counterfactual.extraction_check import checked_variables
from reportgen.kinds.counterfactual.model import ExtractionCheckRow, Round
from reportgen.kinds.counterfactual.review import EXTRACTION, extraction_units, parse_unit_key
from reportgen.kinds.counterfactual.review.sampling import _stratified
from reportgen.kinds.review_task import ReviewUnit
from review_app.core.db import (
    accounts,
    assignments,
    batches,
    judgments,
    samples,
)
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import unblinded
from review_app.rounds.sampling import BatchPlan, store_drawn_batch


def draw_extraction_check(round_: Round, seed: int) -> list[ReviewUnit]:
    """The sample of every checked variable's extractions, in the order reviewers see it."""
    plan = round_.manifest.preregistration.extraction_check
    if plan is None or not checked_variables(round_):
        raise ReviewInputError("cf_error_no_extraction_check", round_id=round_.round_id)
    units = list(extraction_units(round_))
    rng = np.random.default_rng(seed)
    drawn: list[ReviewUnit] = []
    for variable in checked_variables(round_):
        candidates = [u for u in units if u.stratum[0] == variable.variable_id]
        if len(candidates) < plan.min_items:
            raise ReviewInputError(
                "cf_error_too_few_extractions",
                variable=variable.variable_id,
                found=len(candidates),
                min_items=plan.min_items,
            )
        drawn.extend(_stratified(candidates, plan.min_items, rng))
    order = rng.permutation(len(drawn))
    return [drawn[int(i)] for i in order]


def create_extraction_batch(
    engine: Engine,
    round_: Round,
    *,
    seed: int,
    reviewers: Sequence[str] | None = None,
    by_account: int | None = None,
) -> int:
    """Draw and store the extraction check as one batch (task `extraction`), in one
    transaction; returns its id. Each unit goes to one reviewer, in rotation."""
    drawn = draw_extraction_check(round_, seed)
    return store_drawn_batch(
        engine,
        round_,
        drawn,
        BatchPlan(seed, EXTRACTION, 1, reviewers, by_account=by_account),
        lambda names: {"overlap": 1, "reviewers": names, "units": len(drawn)},
    )


def extraction_check_rows(connection: Connection, round_: Round) -> list[ExtractionCheckRow]:
    """Every answered extraction check of the round, sorted by response then reviewer;
    a sample whose extraction is no longer the frozen value is refused."""
    blind = (
        select(
            judgments.c.choice,
            judgments.c.submitted_at,
            judgments.c.revised_at,
            accounts.c.name,
        )
        .select_from(judgments)
        .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
        .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
        .join(samples, samples.c.sample_id == assignments.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_.round_id, batches.c.task_type == EXTRACTION)
    )
    found = connection.execute(unblinded(blind, "unit_key", "automatic")).all()
    pseudonyms = {name: f"R{n}" for n, name in enumerate(sorted({r.name for r in found}), 1)}
    frozen = {
        (e.variable_id, e.model_id, e.item_id, e.run): e.value
        for rows in round_.extractions.values()
        for e in rows
    }
    rows = []
    for row in found:
        key = parse_unit_key(str(row.unit_key))
        if key is None or frozen.get(key) != row.automatic:
            raise ReviewInputError("cf_error_export_response", unit=str(row.unit_key))
        variable_id, model_id, item_id, run = key
        rows.append(
            ExtractionCheckRow(
                variable_id=variable_id,
                model_id=model_id,
                item_id=item_id,
                run=run,
                extracted_value=str(row.automatic),
                human_value=str(row.choice),
                reviewer=pseudonyms[row.name],
                checked_on=(row.revised_at or row.submitted_at).date(),
            )
        )
    return sorted(rows, key=lambda r: (r.variable_id, r.model_id, r.item_id, r.run, r.reviewer))
