"""The mask audit's decisions flow into the archive (issue 21, point 2): review app
decision -> `reportgen review export` (mask_audit.parquet beside calibration.parquet) ->
re-frozen round -> `reportgen verify` -> results without the voided judge score. A
flagged sample still undecided refuses the export, with nothing written.
"""

from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from reportgen.cli import main
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.results import build_results
from reportgen.kinds.counterfactual.review.mask_audit import (
    HELD,
    LEAKED,
    decide_mask,
    voided_scores,
)
from reportgen.kinds.counterfactual.review.sampling import create_scale_batch
from reportgen.kinds.counterfactual.schemas import MASK_AUDIT_SCHEMA
from reportgen.kinds.rounds import read_round, verify_round
from review_app.tasks.reviewing import my_queue
from tests.factories.counterfactual import refresh_checksums
from tests.review.cf import demo_copy, score_queue
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login, release_all


def _export(engine: Engine, round_dir: Path, folder: Path) -> tuple[int, str]:
    result = CliRunner().invoke(
        main,
        [
            *("review", "export", str(round_dir), "--output", str(folder), "--force"),
            *("--db", engine.url.render_as_string(hide_password=False)),
        ],
    )
    assert "Traceback" not in result.output
    return result.exit_code, result.output


@pytest.fixture(params=KINDS)
def flagged(tmp_path: Path, request: pytest.FixtureRequest) -> tuple[Engine, Round, str, list[str]]:
    """The demonstration's calibration scored, its first two samples flagged (SQLite,
    and PostgreSQL when REVIEW_TEST_POSTGRES_URL is set)."""
    engine = fresh_database(request.param, tmp_path)
    round_ = demo_copy(tmp_path / "rounds")
    reviewer = add_and_login(engine, "h1")
    admin = add_and_login(engine, "chefe", "admin")
    create_scale_batch(engine, round_, seed=3)
    release_all(engine)
    first = [entry.code for entry in my_queue(engine, reviewer)][:2]
    score_queue(engine, reviewer, flagged=first)
    return engine, round_, admin, first


def test_a_leaked_decision_reaches_the_archive_and_leaves_the_results(
    tmp_path: Path, flagged: tuple[Engine, Round, str, list[str]]
) -> None:
    engine, round_, admin, (held, leaked) = flagged
    folder = tmp_path / "export"
    decide_mask(engine, admin, round_.round_id, held, HELD)
    code, output = _export(engine, round_.path, folder)
    assert code == 1
    assert leaked in output
    assert "without a decision" in output
    assert not folder.exists()  # nothing written
    decide_mask(engine, admin, round_.round_id, leaked, LEAKED)
    [voided] = voided_scores(engine, admin, round_.round_id)
    listed = CliRunner().invoke(
        main,
        [
            *("review", "mask-audit", round_.round_id),
            *("--db", engine.url.render_as_string(hide_password=False)),
        ],
    )
    assert listed.exit_code == 0, listed.output
    assert f"{leaked}  " in listed.output
    assert "2 flagged, 0 undecided, 1 judge score(s) voided" in listed.output
    code, output = _export(engine, round_.path, folder)
    assert code == 0, output
    assert "2 mask-audit decision(s) (1 judge score(s) voided)" in " ".join(output.split())
    table = pq.read_table(folder / "mask_audit.parquet")
    assert table.schema.remove_metadata() == MASK_AUDIT_SCHEMA
    rows = table.to_pylist()
    assert sorted((row["ref"], row["decision"]) for row in rows) == sorted(
        [(held, HELD), (leaked, LEAKED)]
    )
    before = build_results(round_, replicates=20)
    for name in ("calibration.parquet", "mask_audit.parquet"):
        (round_.path / name).write_bytes((folder / name).read_bytes())
    refresh_checksums(round_.path)
    assert verify_round(round_.path) == []
    assert CliRunner().invoke(main, ["verify", str(round_.path)]).exit_code == 0
    frozen = read_round(round_.path)
    assert isinstance(frozen, Round)
    assert frozen.voided_scores == {voided}
    after = build_results(frozen, replicates=20)
    assert (before.counts.voided_scores, after.counts.voided_scores) == (0, 1)
    assert [(v.variable_id, v.model_id, v.item_id, v.run) for v in after.voided_scores] == [voided]
    engine.dispose()


def test_a_raw_round_gets_the_jsonl_form_freeze_reads(
    tmp_path: Path, flagged: tuple[Engine, Round, str, list[str]]
) -> None:
    from reportgen.kinds.counterfactual.review.mask_audit import mask_audit_rows
    from reportgen.kinds.counterfactual.schemas import MASK_AUDIT_SCHEMA
    from reportgen.kinds.counterfactual.write import raw_table_bytes

    engine, round_, admin, (held, leaked) = flagged
    decide_mask(engine, admin, round_.round_id, held, HELD)
    decide_mask(engine, admin, round_.round_id, leaked, LEAKED)
    inputs = {
        (e.variable_id, e.model_id, e.item_id, e.run): e.input_sha256 or ""
        for rows in round_.extractions.values()
        for e in rows
    }
    with engine.connect() as connection:
        rows = mask_audit_rows(connection, round_.round_id, inputs)
    lines = raw_table_bytes(rows, MASK_AUDIT_SCHEMA).decode("utf-8").splitlines()
    assert len(lines) == 2
    assert all('"decision": "' in line and '"decided_on": "' in line for line in lines)
    engine.dispose()
