"""The export of a counterfactual round's hand scores: calibration.parquet, to freeze.

`reportgen review export ROUND_DIR` of a counterfactual round writes
`calibration.parquet` (default folder: review-export/<round_id>/) in exactly the round
spec's schema: `variable_id`, `model_id`, `item_id`, `run` (from the sample's key),
`input_sha256` and `judge_score` (the frozen extraction: the human saw what the judge
saw), `human_score` (the reviewer's score), `reviewer` (a pseudonym, R1, R2, ... by
account name among the round's calibration reviewers: no identity leaves the app) and
`scored_on` (the date the score was last set). The team then puts it in the round and
re-freezes it (SHA256SUMS), and `reportgen verify` checks it (refusals 42-44).

A raw round (calibrated before its first freeze, `review.round`) gets the same
rows as `calibration.jsonl`, the raw form `reportgen freeze` reads (one JSON object a
line, the columns above); with `--output RAW_DIR` it lands where freeze looks for it.
A folder that already holds `calibration.csv` is refused: freeze would read one of the
two and silently ignore the other.

Refused, with nothing written: a judged response scored twice, a key that names no
judged response of the archive (or one whose judge value is `na`), an archive whose
extraction files changed since the sample was drawn, fewer hand scores of a judged
variable than `preregistration.calibration.min_items`. The file is written atomically;
an existing one is replaced only with `--force`.

The mask audit's decisions (review.mask_audit) go with it: `mask_audit.parquet`
(an archive) or `mask_audit.jsonl` (a raw round), one row per decided response, when
there is a decision. A flagged sample still without a decision refuses the export.
People's extraction checks (review.extraction) go too, as `extraction_checks.*`.
A round with reviews to export but no calibration sample drawn (calibrated earlier)
gets no calibration file.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from pathlib import Path

import pyarrow as pa
from sqlalchemy import Connection, Engine, select

from reportgen.kinds._review_export import write_export_files
from reportgen.kinds.counterfactual.extraction_check import EXTRACTION_CHECKS_STEM
from reportgen.kinds.counterfactual.freeze import CALIBRATION_STEM
from reportgen.kinds.counterfactual.mask_audit import MASK_AUDIT_STEM
from reportgen.kinds.counterfactual.model import (
    NA,
    CalibrationRow,
    Extraction,
    ExtractionCheckRow,
    MaskDecision,
    Round,
)
from reportgen.kinds.counterfactual.raw_round import is_raw_round
from reportgen.kinds.counterfactual.review import CALIBRATION, judged_variables, parse_unit_key
from reportgen.kinds.counterfactual.review.extraction import extraction_check_rows
from reportgen.kinds.counterfactual.review.mask_audit import mask_audit_rows, undecided_flags
from reportgen.kinds.counterfactual.review.sampling import extraction_digests
from reportgen.kinds.counterfactual.schemas import (
    CALIBRATION_FILE,
    CALIBRATION_SCHEMA,
    EXTRACTION_CHECKS_FILE,
    EXTRACTION_CHECKS_SCHEMA,
    MASK_AUDIT_FILE,
    MASK_AUDIT_SCHEMA,
)
from reportgen.kinds.counterfactual.write import raw_table_bytes, table_bytes
from review_app.core.db import batches
from review_app.core.errors import ReviewInputError
from review_app.tasks.rubric_scores import RubricJudgment, rubric_scores

RAW_FILE = f"{CALIBRATION_STEM}.jsonl"  # a raw round's calibration, as freeze reads it
RAW_CSV = f"{CALIBRATION_STEM}.csv"  # its other raw form
RAW_MASK_FILE = f"{MASK_AUDIT_STEM}.jsonl"  # the mask audit's decisions, as freeze reads them
RAW_MASK_CSV = f"{MASK_AUDIT_STEM}.csv"
ResponseKey = tuple[str, str, str, int]  # variable_id, model_id, item_id, run


def _judged_extractions(round_: Round) -> dict[ResponseKey, Extraction]:
    judged = {variable.variable_id for variable in judged_variables(round_)}
    return {
        (row.variable_id, row.model_id, row.item_id, row.run): row
        for rows in round_.extractions.values()
        for row in rows
        if row.variable_id in judged
    }


def _row_of(
    judgment: RubricJudgment, extractions: Mapping[ResponseKey, Extraction]
) -> CalibrationRow:
    key = parse_unit_key(judgment.unit_key)
    extraction = extractions.get(key) if key is not None else None
    if key is None or extraction is None or extraction.value == NA:
        raise ReviewInputError("cf_error_export_response", unit=judgment.unit_key)
    variable_id, model_id, item_id, run = key
    human = judgment.scores.get(variable_id)
    if human is None or extraction.input_sha256 is None:
        raise ReviewInputError("cf_error_export_response", unit=judgment.unit_key)
    return CalibrationRow(
        variable_id=variable_id,
        model_id=model_id,
        item_id=item_id,
        run=run,
        input_sha256=extraction.input_sha256,
        judge_score=int(extraction.value),
        human_score=human,
        reviewer=judgment.reviewer_pseudonym,
        scored_on=judgment.scored_at.date(),
    )


def calibration_rows(round_: Round, judgments: Sequence[RubricJudgment]) -> list[CalibrationRow]:
    """calibration.parquet's rows from the scale judgments, sorted by response; refused
    when a response is scored twice or unknown, or a variable has too few rows."""
    extractions = _judged_extractions(round_)
    rows = [_row_of(judgment, extractions) for judgment in judgments]
    twice = [key for key, count in Counter(_key(row) for row in rows).items() if count > 1]
    if twice:
        raise ReviewInputError("cf_error_export_twice", unit="|".join(map(str, min(twice))))
    wanted = round_.manifest.preregistration.calibration.min_items
    per_variable = Counter(row.variable_id for row in rows)
    for variable in judged_variables(round_):
        scored = per_variable[variable.variable_id]
        if scored < wanted:
            raise ReviewInputError(
                "cf_error_export_too_few",
                variable=variable.variable_id,
                scored=scored,
                min_items=wanted,
            )
    return sorted(rows, key=_key)


def _key(row: CalibrationRow) -> ResponseKey:
    return (row.variable_id, row.model_id, row.item_id, row.run)


def _refuse_changed_inputs(connection: Connection, round_: Round, batch_ids: set[int]) -> None:
    """The judge's inputs and values must be the ones the sample was drawn from."""
    now = extraction_digests(round_)
    for batch_id in sorted(batch_ids):
        settings = connection.execute(
            select(batches.c.settings).where(batches.c.batch_id == batch_id)
        ).scalar()
        drawn = settings.get("extractions") if isinstance(settings, dict) else None
        if drawn is not None and drawn != now:
            raise ReviewInputError(
                "cf_error_export_changed", round_id=round_.round_id, batch_id=batch_id
            )


def export_calibration(
    engine: Engine, round_: Round, output: Path | None, *, force: bool = False
) -> str:
    """`reportgen review export` of a counterfactual round: write calibration.parquet
    (an archive) or calibration.jsonl (a raw round) into `output` (default
    review-export/<round_id>/), with the mask audit's decisions and people's extraction
    checks when there are any; what to tell the user."""
    inputs = {key: row.input_sha256 or "" for key, row in _judged_extractions(round_).items()}
    with engine.connect() as connection:
        judgments = rubric_scores(connection, round_.round_id, CALIBRATION)
        _refuse_changed_inputs(connection, round_, {j.batch_id for j in judgments})
        undecided = undecided_flags(connection, round_.round_id)
        decisions = mask_audit_rows(connection, round_.round_id, inputs)
        checks = extraction_check_rows(connection, round_)
    if undecided:
        raise ReviewInputError("cf_error_export_undecided", codes=", ".join(undecided))
    # No calibration drawn, but other reviews to export (a round already calibrated):
    # the calibration file is left out rather than refused as too short.
    calibrating = judged_variables(round_) and (judgments or not (decisions or checks))
    rows = calibration_rows(round_, judgments) if calibrating else []
    folder = output or Path("review-export") / round_.round_id
    raw = is_raw_round(round_.path)
    for stale in (RAW_CSV, RAW_MASK_CSV, f"{EXTRACTION_CHECKS_STEM}.csv") if raw else ():
        if (folder / stale).exists():
            raise ReviewInputError("cf_error_export_raw_csv", path=str(folder / stale))
    files = _review_files(raw, rows if calibrating else None, decisions, checks)
    write_export_files(files, folder, force=force)
    then = (
        "put them in the raw round (or export with --output RAW_DIR) and freeze it: "
        "reportgen freeze RAW_DIR --out ROUND_DIR."
        if raw
        else "put them in the round and re-freeze it (SHA256SUMS)."
    )
    voided = sum(1 for row in decisions if row.decision == "leaked")
    return (
        f"Round {round_.round_id}: {len(rows)} hand scores of the judge's masked inputs, "
        f"{len(decisions)} mask-audit decision(s) ({voided} judge score(s) voided), "
        f"{len(checks)} extraction check(s); written to {folder}: "
        f"{', '.join(sorted(files))}; {then}"
    )


def _review_files(
    raw: bool,
    rows: Sequence[CalibrationRow] | None,
    decisions: Sequence[MaskDecision],
    checks: Sequence[ExtractionCheckRow],
) -> dict[str, bytes]:
    """The export's files: the raw forms freeze reads, or the archive's tables."""
    files: dict[str, bytes] = {}
    if rows is not None:
        files[RAW_FILE if raw else CALIBRATION_FILE] = _table(rows, CALIBRATION_SCHEMA, raw)
    if decisions:
        files[RAW_MASK_FILE if raw else MASK_AUDIT_FILE] = _table(decisions, MASK_AUDIT_SCHEMA, raw)
    if checks:
        files[f"{EXTRACTION_CHECKS_STEM}.jsonl" if raw else EXTRACTION_CHECKS_FILE] = _table(
            checks, EXTRACTION_CHECKS_SCHEMA, raw
        )
    return files


def _table(rows: Sequence[object], schema: pa.Schema, raw: bool) -> bytes:
    """A table of the export: JSON lines for a raw round (freeze reads them), else Parquet."""
    return raw_table_bytes(rows, schema) if raw else table_bytes(rows, schema)
