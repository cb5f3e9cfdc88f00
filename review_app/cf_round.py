"""A counterfactual round as the review app reads it while its calibration is collected.

The round spec's refusals 43 and 44 ask of calibration.parquet what the review app is
producing: enough hand scores per judged variable, each matching the judge's input and
value. While they are collected (a re-calibration after a judge change, or an archive
whose provisional calibration is being replaced) the app reads the archive with those
problems tolerated (`tolerate` of `read_round`); any other problem still refuses it.
Whether the file is there at all (refusal 42) and SHA256SUMS are the core reader's
checks, which no caller can tolerate.
"""

from __future__ import annotations

from pathlib import Path
from typing import cast

from reportgen.archive import read_round
from reportgen.errors import Problem
from reportgen.kinds.counterfactual.model import NAME, Round
from reportgen.kinds.counterfactual.schemas import CALIBRATION_FILE
from review_app.errors import ReviewInputError


def calibration_pending(problem: Problem) -> bool:
    """A problem the calibration in progress explains: calibration.parquet's rows."""
    return problem.file.endswith(CALIBRATION_FILE)


def read_cf_round(round_dir: Path, *, with_text: bool = True) -> Round:
    """The counterfactual round at `round_dir`, verified except for its calibration rows."""
    round_ = read_round(round_dir, with_text=with_text, tolerate=calibration_pending)
    if round_.manifest.kind != NAME:
        raise ReviewInputError("cf_error_not_counterfactual", round_id=round_.round_id)
    return cast(Round, round_)
