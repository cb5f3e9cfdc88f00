"""The review exports are the same bytes for the same review database (issue 20, point 8).

Each kind's export is written twice from one database, and once more from the same
database read the other way round (SQLite's `reverse_unordered_selects`: a query without
an ORDER BY hands its rows back last first): every file is byte-identical, whatever the
database hands back first. Covered: the multidomain rubric export (audit.parquet,
calibration.parquet), the counterfactual scale and count export (calibration.parquet,
mask_audit.parquet, extraction_checks.parquet; and a raw round's JSON lines); the
plug-in kind's test checks its own export the same way.
"""

from __future__ import annotations

from fractions import Fraction
from functools import partial
from pathlib import Path

from sqlalchemy import select

from reportgen.kinds.counterfactual.model import ExtractionCheckPlan
from reportgen.kinds.counterfactual.review.export import export_calibration
from reportgen.kinds.counterfactual.review.extraction import create_extraction_batch
from reportgen.kinds.counterfactual.review.mask_audit import HELD, LEAKED, decide_mask
from reportgen.kinds.counterfactual.review.round import read_cf_round
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.multidomain.review.export import export_round
from review_app.core.unblinding import sample_keys
from review_app.tasks import reviewing
from review_app.tasks.rubric import submit_scores
from tests.factories.counterfactual import model_counted, small_round, with_plan, write
from tests.factories.counterfactual_raw import fill, render, write_battery
from tests.review.cf import demo_copy, score_queue
from tests.review.export_bytes import reversed_engine, same_bytes
from tests.review.helpers import add_and_login, new_database, release_all
from tests.review.rubric import rubric_batch, tiny_round


def test_the_other_way_round_is_another_order(tmp_path: Path) -> None:
    """The check has teeth: read the other way round, a query without an order hands
    back the same rows last first."""
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    add_and_login(engine, "h1")
    create_scale_batch(engine, demo_copy(tmp_path / "rounds"), seed=3)
    other = reversed_engine(engine.url.render_as_string(hide_password=False))
    query = select(sample_keys.c.sample_id)
    with engine.connect() as one:  # one at a time: each transaction takes the lock
        ids = list(one.execute(query).scalars())
    with other.connect() as two:
        assert list(two.execute(query).scalars()) == ids[::-1]
    assert len(ids) > 1
    other.dispose()
    engine.dispose()


def test_the_multidomain_rubric_export(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    tiny = tiny_round(tmp_path / "tiny")
    tokens = {name: add_and_login(engine, name) for name in ("h1", "h2")}
    rubric_batch(engine, tiny, "audit", ["h1", "h2"], seed=1)
    rubric_batch(engine, tiny, "calibration", ["h1", "h2"], overlap=2, seed=2)
    for value, token in zip((4, 2), tokens.values(), strict=True):
        for entry in reviewing.my_queue(engine, token):
            submit_scores(engine, token, entry.code, {"correcao": value, "clareza": value - 1})
    written = same_bytes(engine, lambda db, folder: export_round(db, tiny, folder, None), tmp_path)
    assert set(written) == {"audit.parquet", "calibration.parquet"}
    engine.dispose()


def test_the_counterfactual_scale_export_with_its_mask_audit(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    round_ = demo_copy(tmp_path / "rounds")
    tokens = [add_and_login(engine, name) for name in ("Beatriz Souza", "Abel Lima")]
    admin = add_and_login(engine, "chefe", "admin")
    create_scale_batch(engine, round_, seed=5)
    release_all(engine)
    flagged = [entry.code for entry in reviewing.my_queue(engine, tokens[0])][:2]
    for score, token in zip((2, 5), tokens, strict=True):
        score_queue(engine, token, partial(lambda s, _code: s, score), flagged=flagged)
    decide_mask(engine, admin, round_.round_id, flagged[0], HELD)
    decide_mask(engine, admin, round_.round_id, flagged[1], LEAKED)
    written = same_bytes(
        engine, lambda db, folder: export_calibration(db, round_, folder), tmp_path
    )
    assert set(written) == {"calibration.parquet", "mask_audit.parquet"}
    engine.dispose()


def test_the_counterfactual_count_export(tmp_path: Path) -> None:
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    plan = ExtractionCheckPlan(4, Fraction(3, 4))
    (tmp_path / "rounds").mkdir()
    round_dir = write(
        with_plan(model_counted(small_round()), extraction_check=plan), tmp_path / "rounds"
    )
    round_ = read_cf_round(round_dir, with_text=True)
    token = add_and_login(engine, "h1")
    create_extraction_batch(engine, round_, seed=4)
    release_all(engine)
    for n, entry in enumerate(reviewing.my_queue(engine, token)):
        count = reviewing.load_sample(engine, token, entry.code).criteria
        reviewing.submit_judgment(engine, token, entry.code, str(n % 3) if count else "yes")
    written = same_bytes(
        engine, lambda db, folder: export_calibration(db, round_, folder), tmp_path
    )
    assert set(written) == {"extraction_checks.parquet"}
    engine.dispose()


def test_a_raw_counterfactual_rounds_json_lines(tmp_path: Path) -> None:
    write_battery(tmp_path / "battery")
    render(tmp_path / "battery", tmp_path / "raw")
    fill(tmp_path / "raw", calibration=False)
    round_ = read_cf_round(tmp_path / "raw", with_text=True)
    engine = new_database(f"sqlite:///{tmp_path / 'review.db'}")
    tokens = [add_and_login(engine, name) for name in ("Beatriz Souza", "Abel Lima")]
    create_scale_batch(engine, round_, seed=7)
    release_all(engine)
    for score, token in zip((2, 5), tokens, strict=True):
        score_queue(engine, token, partial(lambda s, _code: s, score))
    written = same_bytes(
        engine, lambda db, folder: export_calibration(db, round_, folder), tmp_path
    )
    assert set(written) == {"calibration.jsonl"}
    assert b"\r" not in written["calibration.jsonl"]
    engine.dispose()
