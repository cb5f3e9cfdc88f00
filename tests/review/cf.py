"""The counterfactual demonstration round for the calibration review tests: a copy to
draw from, and reviewers scoring their whole queue."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Sequence
from pathlib import Path

from sqlalchemy import Engine

from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.scale import submit_scale
from review_app.tasks.reviewing import load_sample, my_queue

DEMO = (
    Path(__file__).resolve().parents[2]
    / "examples"
    / "counterfactual"
    / "rounds"
    / "atendimento-2026-09"
)


def demo_copy(parent: Path) -> Round:
    """A copy of the demonstration round under `parent` (its folder name kept), as
    collected: without the reviews it ships (`before_reviews`), read."""
    target = parent / DEMO.name
    shutil.copytree(DEMO, target)
    before_reviews(target)
    return read_cf_round(target)


def before_reviews(round_dir: Path) -> None:
    """Take the demonstration's generated reviews out of a copy (its extraction check,
    declared and done, and the mask audit's decisions): the round as the review app
    first meets it. SHA256SUMS is rewritten."""
    from tests.factories.counterfactual import refresh_checksums

    for name in ("extraction_checks.parquet", "mask_audit.parquet"):
        (round_dir / name).unlink(missing_ok=True)
    path = round_dir / "round.json"
    data = json.loads(path.read_text("utf-8"))
    data["counterfactual"]["preregistration"].pop("extraction_check", None)
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "utf-8")
    refresh_checksums(round_dir)


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
