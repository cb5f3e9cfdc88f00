"""The administrator's decision in the mask audit of a counterfactual round (issue 21).

A reviewer scoring the judge's masked input may mark it "this answer still reveals the
attribute" (review.scale). The administrator reads each flagged sample and
decides: the mask **held** (the flag is no leak) or it **leaked** (the judge could read
the customer's group: its score of that response is void for the analysis). A decision
is one row per sample (the last one given) and one line of the hash-chained audit log
(action `mask_decision`: round, sample code, variable, system, item, run, decision), the
app's ledger. `voided_scores` lists the judge scores a leaked mask voids.

`mask_audit_rows` gives the decisions as the archive's rows (mask_audit.parquet, or
mask_audit.jsonl in a raw round; `reportgen.kinds.counterfactual.mask_audit`), which
`reportgen review export` writes with the calibration; `undecided_flags` names the
flagged samples still without a decision (the export refuses them: every flag is
decided before the analysis).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy import Connection, Engine, select, update

from reportgen.kinds.counterfactual.mask_audit import decision_value
from reportgen.kinds.counterfactual.model import MaskDecision
from reportgen.kinds.counterfactual.review import parse_unit_key
from reportgen.kinds.counterfactual.review.tables import mask_decisions, mask_flags
from review_app.core.auth import require
from review_app.core.db import assignments, audit, batches, now_utc, samples
from review_app.core.errors import ReviewInputError
from review_app.core.unblinding import unblinded

HELD = "held"
LEAKED = "leaked"
DECISIONS = (HELD, LEAKED)

ScoreKey = tuple[str, str, str, int]  # (variable_id, model_id, item_id, run)


def decide_mask(engine: Engine, token: str | None, round_id: str, code: str, decision: str) -> bool:
    """Record the administrator's `decision` on flagged sample `code` of `round_id`.
    Returns False when it is already the recorded one (nothing written);
    ReviewInputError for another decision, or a sample no reviewer flagged there."""
    admin = require(engine, token, "admin")
    if decision not in DECISIONS:
        raise ReviewInputError("cf_error_mask_decision", decision=decision)
    with engine.begin() as connection:
        flagged = (
            select(samples.c.sample_id)
            .join(batches, batches.c.batch_id == samples.c.batch_id)
            .join(assignments, assignments.c.sample_id == samples.c.sample_id)
            .join(mask_flags, mask_flags.c.assignment_id == assignments.c.assignment_id)
            .where(
                samples.c.code == code,
                batches.c.round_id == round_id,
                mask_flags.c.reveals.is_(True),
            )
        )
        row = connection.execute(unblinded(flagged, "unit_key").limit(1)).first()
        key = None if row is None else parse_unit_key(str(row.unit_key))
        if row is None or key is None:
            raise ReviewInputError("cf_error_mask_not_flagged", code=code, round_id=round_id)
        current = connection.execute(
            select(mask_decisions.c.decision).where(mask_decisions.c.sample_id == row.sample_id)
        ).scalar_one_or_none()
        if current == decision:
            return False
        values = {"decision": decision, "decided_by": admin.account_id, "decided_at": now_utc()}
        if current is None:
            connection.execute(mask_decisions.insert().values(sample_id=row.sample_id, **values))
        else:
            connection.execute(
                update(mask_decisions)
                .where(mask_decisions.c.sample_id == row.sample_id)
                .values(**values)
            )
        variable_id, model_id, item_id, run = key
        detail = {
            "round_id": round_id,
            "code": code,
            "variable_id": variable_id,
            "model_id": model_id,
            "item_id": item_id,
            "run": run,
            "decision": decision,
            "replaces": current,
        }
        audit(connection, admin.account_id, "mask_decision", detail)
    return True


def mask_decision_map(engine: Engine, token: str | None, round_id: str) -> dict[str, str]:
    """Sample code -> the decision recorded on it, for the decided samples of `round_id`."""
    require(engine, token, "admin")
    query = (
        select(samples.c.code, mask_decisions.c.decision)
        .join(mask_decisions, mask_decisions.c.sample_id == samples.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_id)
    )
    with engine.connect() as connection:
        return {str(code): str(decision) for code, decision in connection.execute(query)}


def voided_scores(engine: Engine, token: str | None, round_id: str) -> list[ScoreKey]:
    """The judge scores of `round_id` that a leaked mask voids, sorted."""
    require(engine, token, "admin")
    leaked = (
        select(samples.c.sample_id)
        .join(mask_decisions, mask_decisions.c.sample_id == samples.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_id, mask_decisions.c.decision == LEAKED)
    )
    with engine.connect() as connection:
        rows = connection.execute(unblinded(leaked, "unit_key"))
        keys = [parse_unit_key(str(row.unit_key)) for row in rows]
    return sorted(key for key in keys if key is not None)


def mask_audit_rows(
    connection: Connection, round_id: str, judge_inputs: Mapping[ScoreKey, str]
) -> list[MaskDecision]:
    """The decisions of `round_id` as mask_audit rows, sorted by response;
    `judge_inputs`: each judged response's input_sha256 (a decision on a response
    without one is refused)."""
    decided = (
        select(samples.c.code, mask_decisions.c.decision, mask_decisions.c.decided_at)
        .join(mask_decisions, mask_decisions.c.sample_id == samples.c.sample_id)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .where(batches.c.round_id == round_id)
    )
    rows: list[MaskDecision] = []
    for code, decision, decided_at, unit_key in connection.execute(unblinded(decided, "unit_key")):
        key = parse_unit_key(str(unit_key))
        value = decision_value(str(decision))
        input_sha256 = None if key is None else judge_inputs.get(key)
        if key is None or value is None or input_sha256 is None:
            raise ReviewInputError("cf_error_export_response", unit=str(unit_key))
        variable_id, model_id, item_id, run = key
        rows.append(
            MaskDecision(
                variable_id=variable_id,
                model_id=model_id,
                item_id=item_id,
                run=run,
                input_sha256=input_sha256,
                decision=value,
                ref=str(code),
                decided_on=decided_at.date(),
            )
        )
    return sorted(rows, key=lambda row: row.key)


def undecided_flags(connection: Connection, round_id: str) -> list[str]:
    """The codes of `round_id`'s flagged samples that have no decision yet, sorted."""
    query = (
        select(samples.c.code)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(assignments, assignments.c.sample_id == samples.c.sample_id)
        .join(mask_flags, mask_flags.c.assignment_id == assignments.c.assignment_id)
        .outerjoin(mask_decisions, mask_decisions.c.sample_id == samples.c.sample_id)
        .where(
            batches.c.round_id == round_id,
            mask_flags.c.reveals.is_(True),
            mask_decisions.c.sample_id.is_(None),
        )
    )
    return sorted({str(code) for code in connection.execute(query).scalars()})


def mask_audit_status(connection: Connection, round_id: str) -> list[tuple[str, str, str | None]]:
    """Every flagged sample of `round_id`: (code, unit key, decision or None), by code.
    Administrator data for the CLI (`reportgen review mask-audit`), which reads it as the
    database's operator."""
    flagged = (
        select(samples.c.code, mask_decisions.c.decision)
        .join(batches, batches.c.batch_id == samples.c.batch_id)
        .join(assignments, assignments.c.sample_id == samples.c.sample_id)
        .join(mask_flags, mask_flags.c.assignment_id == assignments.c.assignment_id)
        .outerjoin(mask_decisions, mask_decisions.c.sample_id == samples.c.sample_id)
        .where(batches.c.round_id == round_id, mask_flags.c.reveals.is_(True))
    )
    found = {
        str(code): (str(key), None if decision is None else str(decision))
        for code, decision, key in connection.execute(unblinded(flagged, "unit_key"))
    }
    return [(code, *found[code]) for code in sorted(found)]
