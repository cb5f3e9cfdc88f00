"""`reportgen review export` of a counterfactual round: calibration.parquet from the hand
scores, in exactly the round spec's schema, with pseudonyms; the round re-frozen with it
passes `reportgen verify`; the refusals write nothing.
"""

from __future__ import annotations

import dataclasses
from functools import partial
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, delete, select

from reportgen.cli import main
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.review.export import export_calibration
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.schemas import CALIBRATION_SCHEMA
from reportgen.kinds.rounds import verify_round
from review_app.core.db import assignments, judgments, samples
from review_app.core.errors import ReviewInputError
from review_app.tasks.reviewing import my_queue
from tests.factories.counterfactual import refresh_checksums
from tests.review.cf import demo_copy, score_queue
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, release_all

SEED = 5
REVIEWERS = ("Beatriz Souza", "Abel Lima")  # R1 is Abel (by name), R2 Beatriz


def _constant(score: int, _code: str) -> int:
    return score


def _scored(engine: Engine, round_: Round) -> dict[str, str]:
    """Every sample scored by the two reviewers (2, then 4); token by name."""
    tokens = {name: add_and_login(engine, name) for name in REVIEWERS}
    create_scale_batch(engine, round_, seed=SEED)
    release_all(engine)
    for name, token in tokens.items():
        score_queue(engine, token, partial(_constant, 2 if name == REVIEWERS[0] else 4))
    return tokens


@pytest.mark.parametrize("kind", KINDS)
def test_the_export_is_the_spec_table_and_the_refrozen_round_verifies(
    kind: str, tmp_path: Path
) -> None:
    engine = fresh_database(kind, tmp_path)
    round_ = demo_copy(tmp_path / "rounds")
    _scored(engine, round_)
    folder = tmp_path / "export"
    result = CliRunner().invoke(
        main,
        [
            *("review", "export", str(round_.path), "--output", str(folder)),
            *("--db", engine.url.render_as_string(hide_password=False)),
        ],
    )
    assert result.exit_code == 0, result.output
    table = pq.read_table(folder / "calibration.parquet")
    assert table.schema.remove_metadata() == CALIBRATION_SCHEMA
    rows = table.to_pylist()
    judge = {
        (e.variable_id, e.model_id, e.item_id, e.run): e
        for extractions in round_.extractions.values()
        for e in extractions
    }
    assert len(rows) >= round_.manifest.preregistration.calibration.min_items
    assert {row["reviewer"] for row in rows} == {"R1", "R2"}
    for row in rows:
        extraction = judge[(row["variable_id"], row["model_id"], row["item_id"], row["run"])]
        assert row["input_sha256"] == extraction.input_sha256
        assert str(row["judge_score"]) == extraction.value
        assert row["human_score"] == (4 if row["reviewer"] == "R1" else 2)
    data = (folder / "calibration.parquet").read_bytes()
    for name in REVIEWERS:
        assert name.encode() not in data  # identities stay in the app
    # Re-frozen with the hand scores: the archive verifies.
    (round_.path / "calibration.parquet").write_bytes(data)
    refresh_checksums(round_.path)
    assert verify_round(round_.path) == []
    verified = CliRunner().invoke(main, ["verify", str(round_.path)])
    assert verified.exit_code == 0, verified.output
    engine.dispose()


def test_the_export_refuses_and_writes_nothing(tmp_path: Path) -> None:
    engine = fresh_database("sqlite", tmp_path)
    round_ = demo_copy(tmp_path / "rounds")
    token = add_and_login(engine, "ana")
    create_scale_batch(engine, round_, seed=SEED)
    release_all(engine)
    folder = tmp_path / "export"
    codes = [entry.code for entry in my_queue(engine, token)]
    score_queue(engine, token)
    # Too few hand scores: one short of min_items (the others' judgments taken away).
    short = round_.manifest.preregistration.calibration.min_items
    with engine.begin() as connection:
        keep = codes[: short - 1]
        drop = select(assignments.c.assignment_id).join(samples).where(samples.c.code.not_in(keep))
        connection.execute(delete(judgments).where(judgments.c.assignment_id.in_(drop)))
    with pytest.raises(ReviewInputError, match="fewer than the"):
        export_calibration(engine, round_, folder)
    assert not folder.exists()
    engine.dispose()


def test_changed_judge_inputs_and_an_existing_file_are_refused(tmp_path: Path) -> None:
    engine = fresh_database("sqlite", tmp_path)
    round_ = demo_copy(tmp_path / "rounds")
    token = add_and_login(engine, "ana")
    create_scale_batch(engine, round_, seed=SEED)
    release_all(engine)
    score_queue(engine, token)
    folder = tmp_path / "export"
    export_calibration(engine, round_, folder)
    first = (folder / "calibration.parquet").read_bytes()
    result = CliRunner().invoke(
        main,
        [
            *("review", "export", str(round_.path), "--output", str(folder)),
            *("--db", f"sqlite:///{tmp_path / 'review.db'}"),
        ],
    )
    assert result.exit_code == 1
    assert "already exists" in result.output
    assert (folder / "calibration.parquet").read_bytes() == first
    changed = dict(round_.checksums)
    changed["extractions/assistente-a.parquet"] = "0" * 64
    moved = dataclasses.replace(round_, checksums=changed)
    with pytest.raises(ReviewInputError, match="changed since batch"):
        export_calibration(engine, moved, folder, force=True)
    assert (folder / "calibration.parquet").read_bytes() == first
    engine.dispose()
