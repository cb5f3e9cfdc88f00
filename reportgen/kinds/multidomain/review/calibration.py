"""The Art. 22 calibration for the administrator, computed as the report computes it.

The model rows of calibration.parquet (raters of role `juror`, and the adjudicator whose
hit rate Art. 16 reads) plus the human rows the
reviewers entered in the app (the calibration batch's criterion scores, one rater per
reviewer) go through the kind's own calibration section
(`results._sections.calibration_section`, over `stats.quality`): the interval
Krippendorff α, each item's hit rate and its band flag, the hit rate per language and
the parity gap, the mean |J − H|.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from sqlalchemy import Engine, select

from reportgen.kinds.multidomain.model import CalibrationScore, Round
from reportgen.kinds.multidomain.results import Calibration
from reportgen.kinds.multidomain.results._sections import calibration_section
from reportgen.kinds.multidomain.review.round import read_md_round
from review_app.core.auth import require
from review_app.core.db import rounds
from review_app.core.errors import ReviewInputError
from review_app.tasks.rubric_scores import RubricJudgment, rubric_scores

# Human raters are named after the reviewers' pseudonyms, apart from judges.csv's ids.
HUMAN_RATER_PREFIX = "app:"


def calibration_view(engine: Engine, token: str | None, round_id: str) -> Calibration:
    """The calibration figures of `round_id` with the app's human rows."""
    require(engine, token, "admin")
    with engine.connect() as connection:
        round_dir = connection.execute(
            select(rounds.c.round_dir).where(rounds.c.round_id == round_id)
        ).scalar()
        if round_dir is None:
            raise ReviewInputError("error_unknown_round", round_id=round_id)
        judgments = rubric_scores(connection, round_id, "calibration")
    round_ = read_md_round(Path(round_dir), with_text=False)
    return calibration_section(with_human_rows(round_, judgments))


def with_human_rows(round_: Round, judgments: list[RubricJudgment]) -> Round:
    """The round whose calibration rows are its jurors' and adjudicators' plus the app's
    reviewers'."""
    role = {judge.judge_id: judge.role for judge in round_.judges}
    kept = ("juror", "adjudicator")
    jury_rows = [row for row in round_.calibration if role.get(row.rater_id) in kept]
    texts = {row.response_id: (row.response_text, row.response_sha256) for row in jury_rows}
    human_rows = [
        CalibrationScore(
            item_id=judgment.item_id,
            response_id=judgment.unit_key,
            response_text=texts[judgment.unit_key][0],
            response_sha256=texts[judgment.unit_key][1],
            rater_id=HUMAN_RATER_PREFIX + judgment.reviewer_pseudonym,
            criterion_id=criterion_id,
            score=score,
            scored_on=judgment.scored_at.date(),
        )
        for judgment in judgments
        if judgment.unit_key in texts
        for criterion_id, score in sorted(judgment.scores.items())
    ]
    return dataclasses.replace(round_, calibration=(*jury_rows, *human_rows))
