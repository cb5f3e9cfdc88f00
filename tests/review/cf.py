"""The counterfactual demonstration round for the calibration review tests: a copy to
draw from, and reviewers scoring their whole queue."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from sqlalchemy import Engine

from reportgen.kinds.counterfactual.model import Round
from review_app.cf_reviewing import submit_scale
from review_app.cf_round import read_cf_round
from review_app.reviewing import load_sample, my_queue

DEMO = (
    Path(__file__).resolve().parents[2]
    / "examples"
    / "counterfactual"
    / "rounds"
    / "atendimento-2026-09"
)


def demo_copy(parent: Path) -> Round:
    """A copy of the demonstration round under `parent` (its folder name kept), read."""
    target = parent / DEMO.name
    shutil.copytree(DEMO, target)
    return read_cf_round(target)


def score_queue(
    engine: Engine,
    token: str,
    score: Callable[[str], int] = lambda _code: 4,
    *,
    flagged: Sequence[str] = (),
) -> list[str]:
    """Score every sample of the reviewer's queue (`score` of its code), flagging the
    codes in `flagged`; returns the codes scored."""
    codes = [entry.code for entry in my_queue(engine, token)]
    for code in codes:
        assert load_sample(engine, token, code).criteria  # a scale sample
        submit_scale(engine, token, code, score(code), code in flagged)
    return codes
