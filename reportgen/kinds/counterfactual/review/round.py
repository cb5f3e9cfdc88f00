"""A counterfactual round as the review app reads it while its calibration is collected.

The round spec's refusals 43 and 44 ask of calibration.parquet what the review app is
producing: enough hand scores per judged variable, each matching the judge's input and
value. While they are collected (a re-calibration after a judge change, or an archive
whose provisional calibration is being replaced) the app reads the archive with those
problems tolerated (`tolerate` of `read_round`); any other problem still refuses it.
Whether the file is there at all (refusal 42) and SHA256SUMS are the core reader's
checks, which no caller can tolerate.

A team calibrating its judge for the first time has no archive yet: freeze refuses a
judged score without its hand scores. A folder without SHA256SUMS is read as the filled
raw round (`reportgen counterfactual render`, then responses/ and extractions/ filled
in): the typed round freeze would archive, assembled by freeze's own code with the
calibration pending (`reportgen.kinds.counterfactual.raw_round`). Its export is the raw
calibration file freeze reads.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from reportgen.errors import Problem
from reportgen.kinds.counterfactual.model import NAME, Round
from reportgen.kinds.counterfactual.raw_round import is_raw_round, read_raw_round
from reportgen.kinds.counterfactual.schemas import CALIBRATION_FILE, EXTRACTION_CHECKS_FILE
from reportgen.kinds.rounds import read_round
from reportgen.model import Round as CoreRound
from review_app.core.errors import ReviewInputError


def calibration_pending(problem: Problem) -> bool:
    """A problem the reviews in progress explain: calibration.parquet's rows, or people's
    extraction checks (extraction_checks.parquet) not yet all given."""
    return problem.file.endswith((CALIBRATION_FILE, EXTRACTION_CHECKS_FILE))


def read_cf_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The counterfactual round at `round_dir` (an archive, or a filled raw round),
    verified except for its calibration rows."""
    if is_raw_round(round_dir):
        return _of_kind(
            read_raw_round(round_dir, with_text=with_text, tolerate=calibration_pending)
        )
    return _of_kind(read_round(round_dir, with_text=with_text, tolerate=calibration_pending))


def _of_kind(round_: CoreRound) -> Round:
    if round_.manifest.kind != NAME:
        raise ReviewInputError("cf_error_not_counterfactual", round_id=round_.round_id)
    return cast(Round, round_)
