"""The export of a multidomain round's human scores, for freezing with the round.

`reportgen review export ROUND_DIR` of a multidomain round writes into a folder:

- `audit.parquet` (Art. 26), in the round spec's schema: one row per criterion of each
  audited response, `audit_id` = "AUD-" + the sample code's token (unique per response;
  the admin's `audit` ledger lines cite it), `blind` true, `scored_at` the last time the
  scores were set. Each audited response must have exactly one reviewer's scores.
- `calibration.parquet` (Art. 22): the round's rows of its jurors, with the human
  reviewers' rows replaced by the review database's (`rater_id` = the reviewer's judge id,
  `scored_on` the date the scores were last set). Written only when the database holds
  calibration scores.

Who a review account is in judges.csv: a `human` judge of role `reviewer` whose
`judge_id` is the account's name, unless a reviewer map (CSV `account,judge_id`) names
another. An account that maps to no such judge is refused: the archive would not verify.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from sqlalchemy import Engine

from reportgen.kinds._review_export import write_export_files
from reportgen.kinds.multidomain.model import AuditScore, CalibrationScore, Round
from reportgen.kinds.multidomain.review import AUDIT, CALIBRATION
from reportgen.kinds.multidomain.schemas import (
    AUDIT_FILE,
    AUDIT_SCHEMA,
    CALIBRATION_FILE,
    CALIBRATION_SCHEMA,
)
from reportgen.kinds.multidomain.write import table_bytes
from reportgen.model import Round as CoreRound
from review_app.core.credentials import name_key
from review_app.core.errors import ReviewInputError
from review_app.tasks.rubric_scores import RubricJudgment, rubric_scores

MAP_HEADER = ("account", "judge_id")


@dataclass(frozen=True)
class RubricExport:
    """The files to write: name -> Parquet bytes, and what they hold."""

    files: Mapping[str, bytes]
    audited_responses: int
    calibration_ratings: int  # human (response, reviewer) pairs


def read_reviewer_map(path: Path) -> dict[str, str]:
    """A reviewer map file: account name (as accounts match: NFKC, case-folded) -> judge_id."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ReviewInputError("error_reviewer_map_unreadable", path=str(path)) from error
    rows = list(csv.reader(io.StringIO(text)))
    if not rows or tuple(cell.strip() for cell in rows[0]) != MAP_HEADER:
        raise ReviewInputError(
            "error_reviewer_map_header", path=str(path), header=",".join(MAP_HEADER)
        )
    mapping: dict[str, str] = {}
    for number, row in enumerate(rows[1:], 2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) != 2 or not row[0].strip() or not row[1].strip():
            raise ReviewInputError("error_reviewer_map_row", path=str(path), line=number)
        key = name_key(row[0].strip())
        if key in mapping:
            raise ReviewInputError(
                "error_reviewer_map_duplicate", path=str(path), account=row[0].strip()
            )
        mapping[key] = row[1].strip()
    return mapping


def judge_ids(
    round_: Round, judgments: Iterable[RubricJudgment], reviewer_map: Mapping[str, str]
) -> dict[str, str]:
    """Account name -> judge_id of every reviewer in `judgments`, each a `human` judge of
    role `reviewer` of the round's judges.csv; refused otherwise."""
    humans = sorted(j.judge_id for j in round_.judges if j.kind == "human" and j.role == "reviewer")
    found: dict[str, str] = {}
    for judgment in judgments:
        name = judgment.reviewer_name
        judge_id = reviewer_map.get(name_key(name), name)
        if judge_id not in humans:
            raise ReviewInputError(
                "error_export_no_judge", account=name, judge_id=judge_id, judges=", ".join(humans)
            )
        found[name] = judge_id
    return found


def audit_rows(judgments: Sequence[RubricJudgment], judges: Mapping[str, str]) -> list[AuditScore]:
    """audit.parquet's rows: one per criterion of each audited response (one reviewer)."""
    by_response: dict[tuple[str, str, int], list[RubricJudgment]] = defaultdict(list)
    for judgment in judgments:
        by_response[(judgment.item_id, judgment.model_id, judgment.run)].append(judgment)
    rows: list[AuditScore] = []
    for key in sorted(by_response):
        found = by_response[key]
        if len(found) != 1:
            raise ReviewInputError(
                "error_export_audit_reviewers", item_id=key[0], run=key[2], count=len(found)
            )
        judgment = found[0]
        rows.extend(audit_scores(judgment, judges[judgment.reviewer_name]))
    return rows


def audit_scores(judgment: RubricJudgment, reviewer_id: str) -> Iterator[AuditScore]:
    """The audit.parquet rows of one reviewer's scores of an audited response, one per
    criterion (in criterion order), `reviewer_id` naming the reviewer."""
    for criterion_id, score in sorted(judgment.scores.items()):
        yield AuditScore(
            audit_id=judgment.audit_id,
            item_id=judgment.item_id,
            model_id=judgment.model_id,
            run=judgment.run,
            reviewer_id=reviewer_id,
            criterion_id=criterion_id,
            score=score,
            blind=judgment.blind,
            scored_at=judgment.scored_at,
        )


def calibration_rows(
    round_: Round, judgments: Sequence[RubricJudgment], judges: Mapping[str, str]
) -> list[CalibrationScore]:
    """calibration.parquet's rows: the round's non-reviewer rows, and the database's human
    reviewers' rows in place of the round's."""
    humans = {j.judge_id for j in round_.judges if j.kind == "human" and j.role == "reviewer"}
    kept = [row for row in round_.calibration if row.rater_id not in humans]
    texts = {row.response_id: row for row in round_.calibration}
    added: list[CalibrationScore] = []
    for judgment in judgments:
        source = texts.get(judgment.unit_key)
        if source is None:
            raise ReviewInputError("error_export_calibration_response", response=judgment.unit_key)
        added.extend(
            CalibrationScore(
                item_id=source.item_id,
                response_id=source.response_id,
                response_text=source.response_text,
                response_sha256=hashlib.sha256(source.response_text.encode("utf-8")).hexdigest(),
                rater_id=judges[judgment.reviewer_name],
                criterion_id=criterion_id,
                score=score,
                scored_on=judgment.scored_at.date(),
            )
            for criterion_id, score in sorted(judgment.scores.items())
        )
    return sorted(
        [*kept, *added], key=lambda r: (r.item_id, r.response_id, r.rater_id, r.criterion_id)
    )


def rubric_export(
    round_: Round, judgments: Sequence[RubricJudgment], reviewer_map: Mapping[str, str]
) -> RubricExport:
    """The files of the export: audit.parquet always, calibration.parquet when the
    database holds calibration scores. Judgments of batches without a task are audits."""
    audits = [j for j in judgments if (j.task_type or AUDIT) == AUDIT]
    calibrations = [j for j in judgments if j.task_type == CALIBRATION]
    judges = judge_ids(round_, judgments, reviewer_map)
    files = {AUDIT_FILE: table_bytes(audit_rows(audits, judges), AUDIT_SCHEMA)}
    if calibrations:
        rows = calibration_rows(round_, calibrations, judges)
        files[CALIBRATION_FILE] = table_bytes(rows, CALIBRATION_SCHEMA)
    return RubricExport(
        files=files,
        audited_responses=len({(j.item_id, j.model_id, j.run) for j in audits}),
        calibration_ratings=len(calibrations),
    )


def export_round(
    engine: Engine,
    round_: CoreRound,
    output: Path | None,
    reviewer_map: Path | None,
    *,
    force: bool = False,
) -> str:
    """`reportgen review export` of a multidomain round: read the map and the scores,
    write the files (default folder: review-export/<round_id>/); what to tell the user."""
    typed = cast(Round, round_)
    mapping = read_reviewer_map(reviewer_map) if reviewer_map is not None else {}
    with engine.connect() as connection:
        judgments = rubric_scores(connection, typed.round_id)
    export = rubric_export(typed, judgments, mapping)
    folder = output or Path("review-export") / typed.round_id
    written = write_export_files(export.files, folder, force=force)
    return (
        f"Round {typed.round_id}: {export.audited_responses} audited responses, "
        f"{export.calibration_ratings} human calibration ratings; written to "
        + ", ".join(str(path) for path in written)
        + "."
    )
