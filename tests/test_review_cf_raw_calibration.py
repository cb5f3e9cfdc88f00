"""The first calibration of a counterfactual judge, before the round can be frozen:
render, fill (responses and extractions, no calibration), `reportgen review sample
RAW_DIR --task calibration`, reviewers score, `reportgen review export RAW_DIR --output
RAW_DIR` (calibration.jsonl), `reportgen freeze`, `reportgen verify`. The raw round is
read with freeze's own assembly; nothing is written into it but the export."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine, delete, select

from reportgen.cli import main
from reportgen.kinds.counterfactual.freeze import assemble_archive
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.raw_round import read_raw_round
from reportgen.kinds.counterfactual.review.export import export_calibration
from reportgen.kinds.counterfactual.review.round import calibration_pending, read_cf_round
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.terms import sha256_text
from reportgen.kinds.rounds import read_round
from review_app.core.db import batches, judgments, rounds, samples
from review_app.core.errors import ReviewInputError
from review_app.core.round_identity import listing_sha256
from tests.factories.counterfactual_raw import fill, render, write_battery
from tests.factories.counterfactual_rounds import JUDGE_INPUT, MIN_ITEMS, ROUND_ID
from tests.review.cf import score_queue
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, release_all

SEED = 7
REVIEWERS = ("Beatriz Souza", "Abel Lima")  # R1 is Abel (by name), R2 Beatriz


@pytest.fixture
def raw_dir(tmp_path: Path) -> Path:
    """A rendered round, answered and extracted by both systems, not yet calibrated."""
    write_battery(tmp_path / "battery")
    render(tmp_path / "battery", tmp_path / "raw")
    fill(tmp_path / "raw", calibration=False)
    return tmp_path / "raw"


def _cli(engine: Engine, *args: str) -> Result:
    url = engine.url.render_as_string(hide_password=False)
    return CliRunner().invoke(main, ["review", *args, "--db", url])


def _constant(score: int, _code: str) -> int:
    return score


def _files(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("kind", KINDS)
def test_the_first_calibration_from_render_to_a_verified_archive(
    kind: str, tmp_path: Path, raw_dir: Path
) -> None:
    engine = fresh_database(kind, tmp_path)
    tokens = {name: add_and_login(engine, name) for name in REVIEWERS}
    out = tmp_path / ROUND_ID
    refused = CliRunner().invoke(main, ["freeze", str(raw_dir), "--out", str(out)])
    assert refused.exit_code == 1
    assert "calibration.jsonl: missing file" in refused.output
    assert not out.exists()
    before = _files(raw_dir)
    sampled = _cli(engine, "sample", str(raw_dir), "--task", "calibration", "--seed", str(SEED))
    assert sampled.exit_code == 0, sampled.output
    assert f"calibration) of round {ROUND_ID} created" in sampled.output
    release_all(engine)  # the leak review, as an administrator
    assert _files(raw_dir) == before  # reading the raw round writes nothing into it
    with engine.connect() as connection:
        recorded = connection.execute(select(rounds)).one()
        texts = list(connection.execute(select(samples.c.output_text)).scalars())
    sources = assemble_archive(raw_dir, with_calibration=False).sources
    assert (recorded.round_dir, recorded.sums_sha256) == (
        str(raw_dir.resolve()),
        listing_sha256(sources),
    )
    assert set(texts) == {JUDGE_INPUT}  # the judge's masked input, never the answer
    for name, token in tokens.items():
        score_queue(engine, token, partial(_constant, 2 if name == REVIEWERS[0] else 5))
    exported = _cli(engine, "export", str(raw_dir), "--output", str(raw_dir))
    assert exported.exit_code == 0, exported.output
    assert "reportgen freeze RAW_DIR --out ROUND_DIR" in exported.output
    lines = [json.loads(line) for line in (raw_dir / "calibration.jsonl").read_text().splitlines()]
    assert len(lines) >= MIN_ITEMS
    assert {line["reviewer"] for line in lines} == {"R1", "R2"}
    assert all(line["input_sha256"] == sha256_text(JUDGE_INPUT) for line in lines)
    assert all(line["judge_score"] == 4 for line in lines)
    assert not any(
        name.split()[0] in (raw_dir / "calibration.jsonl").read_text() for name in REVIEWERS
    )
    frozen = CliRunner().invoke(main, ["freeze", str(raw_dir), "--out", str(tmp_path / ROUND_ID)])
    assert frozen.exit_code == 0, frozen.output
    verified = CliRunner().invoke(main, ["verify", str(tmp_path / ROUND_ID)])
    assert verified.exit_code == 0, verified.output
    archive = read_round(tmp_path / ROUND_ID)
    assert isinstance(archive, Round)
    humans = {
        (r.model_id, r.item_id, r.run): (r.reviewer, r.human_score) for r in archive.calibration
    }
    assert humans == {
        (line["model_id"], line["item_id"], line["run"]): (line["reviewer"], line["human_score"])
        for line in lines
    }
    assert {score for _, score in humans.values()} == {2, 5}
    # The raw round and its archive are one round: the same seed draws the same answers.
    draws = [
        _cli(engine, "sample", str(folder), "--task", "calibration", "--seed", "3", "--dry-run")
        for folder in (raw_dir, tmp_path / ROUND_ID)
    ]
    assert draws[0].exit_code == 0, draws[0].output
    assert draws[0].output.startswith("variable_id,model_id,item_id,run\n")
    assert draws[0].output == draws[1].output
    engine.dispose()


def test_the_raw_round_reads_as_its_archive_would(tmp_path: Path, raw_dir: Path) -> None:
    round_ = read_cf_round(raw_dir)
    assert round_.path == raw_dir
    assert round_.calibration == ()
    assert (str(round_.manifest.collected_on), round_.manifest.languages) == (
        "2026-11-10",
        ("pt-BR",),
    )
    assert sorted(round_.checksums) == sorted(
        assemble_archive(raw_dir, with_calibration=False).sources
    )
    assert "extractions/bot-a.jsonl" in round_.checksums
    # The identity ignores the calibration the app writes into the raw round.
    (raw_dir / "calibration.jsonl").write_text("not json\n")
    again = read_raw_round(raw_dir, tolerate=calibration_pending)
    assert again.checksums == round_.checksums


def test_a_raw_round_freeze_would_refuse_is_refused_before_any_draw(
    tmp_path: Path, raw_dir: Path
) -> None:
    engine = fresh_database("sqlite", tmp_path)
    add_and_login(engine, "ana")
    (raw_dir / "extractions" / "bot-b.jsonl").unlink()
    result = _cli(engine, "sample", str(raw_dir), "--task", "calibration", "--seed", "1")
    assert result.exit_code == 1
    assert "extractions/bot-b.jsonl: missing file" in result.output
    assert "Traceback" not in result.output
    with engine.connect() as connection:
        assert connection.execute(select(batches)).first() is None
        assert connection.execute(select(rounds)).first() is None
    engine.dispose()


def test_the_raw_export_refuses_and_writes_nothing(tmp_path: Path, raw_dir: Path) -> None:
    engine = fresh_database("sqlite", tmp_path)
    token = add_and_login(engine, "ana")
    round_ = read_cf_round(raw_dir)
    create_scale_batch(engine, round_, seed=SEED)
    release_all(engine)
    score_queue(engine, token)
    # A calibration.csv already there: freeze would read only one of the two.
    (raw_dir / "calibration.csv").write_text("variable_id\n")
    with pytest.raises(ReviewInputError) as refused:
        export_calibration(engine, round_, raw_dir)
    assert refused.value.key == "cf_error_export_raw_csv"
    assert not (raw_dir / "calibration.jsonl").exists()
    (raw_dir / "calibration.csv").unlink()
    # The judge's inputs changed since the draw.
    path = raw_dir / "extractions" / "bot-a.jsonl"
    path.write_text(path.read_text().replace('"value": "4"', '"value": "3"', 1))
    with pytest.raises(ReviewInputError, match="changed since batch"):
        export_calibration(engine, read_cf_round(raw_dir), raw_dir)
    assert not (raw_dir / "calibration.jsonl").exists()
    # Too few hand scores.
    path.write_text(path.read_text().replace('"value": "3"', '"value": "4"', 1))
    with engine.begin() as connection:
        connection.execute(delete(judgments))
    with pytest.raises(ReviewInputError, match="fewer than the"):
        export_calibration(engine, read_cf_round(raw_dir), raw_dir)
    assert not (raw_dir / "calibration.jsonl").exists()
    engine.dispose()
