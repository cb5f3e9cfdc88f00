"""`reportgen review export` of a multidomain round (issue 13): audit.parquet in the round
spec's schema and the human rows of calibration.parquet, the reviewer's judge id from
judges.csv (the account's name, or a reviewer map), atomic writes and clear refusals.
SQLite and, with REVIEW_TEST_POSTGRES_URL, PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from sqlalchemy import Engine

from reportgen.cli import main
from reportgen.errors import OutputExistsError
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.review.export import export_round, read_reviewer_map
from reportgen.kinds.multidomain.schemas import AUDIT_SCHEMA, CALIBRATION_SCHEMA
from review_app.core.errors import ReviewInputError
from review_app.tasks import reviewing
from review_app.tasks.rubric import submit_scores
from review_app.tasks.rubric_scores import rubric_scores
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login
from tests.review.rubric import rubric_batch, tiny_round


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Round:
    return tiny_round(tmp_path_factory.mktemp("tiny"))


def _score_all(engine: Engine, token: str, value: int) -> None:
    for entry in reviewing.my_queue(engine, token):
        submit_scores(engine, token, entry.code, {"correcao": value, "clareza": value - 1})


@pytest.fixture(params=KINDS)
def scored(
    request: pytest.FixtureRequest, tmp_path: Path, tiny: Round
) -> Iterator[tuple[Engine, dict[str, str]]]:
    engine = fresh_database(str(request.param), tmp_path)
    tokens = {name: add_and_login(engine, name) for name in ("h1", "h2")}
    rubric_batch(engine, tiny, "audit", ["h1", "h2"], seed=1)
    rubric_batch(engine, tiny, "calibration", ["h1", "h2"], overlap=2, seed=2)
    _score_all(engine, tokens["h1"], 4)
    _score_all(engine, tokens["h2"], 2)
    yield engine, tokens
    engine.dispose()


def test_audit_parquet_has_the_spec_schema_and_one_reviewer_per_response(
    scored: tuple[Engine, dict[str, str]], tiny: Round, tmp_path: Path
) -> None:
    engine, _ = scored
    message = export_round(engine, tiny, tmp_path / "out", None)
    assert "6 audited responses" in message
    table = pq.read_table(tmp_path / "out" / "audit.parquet")
    assert table.schema.equals(AUDIT_SCHEMA)
    rows = table.to_pylist()
    assert len(rows) == 6 * 2  # six audited responses, two criteria each
    by_response: dict[str, set[tuple[str, str, int, str]]] = {}
    for row in rows:
        by_response.setdefault(row["audit_id"], set()).add(
            (row["item_id"], row["model_id"], row["run"], row["reviewer_id"])
        )
        assert row["blind"] is True
        assert row["scored_at"].endswith("Z")
    assert len(by_response) == 6
    with engine.connect() as connection:
        cited = {j.audit_id for j in rubric_scores(connection, tiny.round_id, "audit")}
    assert set(by_response) == cited  # what the admin's ledger lines cite as `ref`
    assert all(audit_id.startswith("AUD-") for audit_id in cited)
    assert all(len(keys) == 1 for keys in by_response.values())
    assert {row["reviewer_id"] for row in rows} == {"h1", "h2"}
    assert {(r["criterion_id"], r["score"]) for r in rows if r["reviewer_id"] == "h1"} == {
        ("correcao", 4),
        ("clareza", 3),
    }


def test_calibration_parquet_keeps_the_jurors_and_takes_the_reviewers_from_the_database(
    scored: tuple[Engine, dict[str, str]], tiny: Round, tmp_path: Path
) -> None:
    engine, _ = scored
    export_round(engine, tiny, tmp_path / "out", None)
    table = pq.read_table(tmp_path / "out" / "calibration.parquet")
    assert table.schema.equals(CALIBRATION_SCHEMA)
    rows = table.to_pylist()
    jurors = [r for r in tiny.calibration if r.rater_id not in {"h1", "h2"}]
    assert len([r for r in rows if r["rater_id"] not in {"h1", "h2"}]) == len(jurors)
    humans = [r for r in rows if r["rater_id"] in {"h1", "h2"}]
    responses = {r.response_id for r in tiny.calibration}
    assert len(humans) == len(responses) * 2 * 2  # two reviewers, two criteria
    assert {(r["rater_id"], r["criterion_id"], r["score"]) for r in humans} == {
        ("h1", "correcao", 4),
        ("h1", "clareza", 3),
        ("h2", "correcao", 2),
        ("h2", "clareza", 1),
    }
    texts = {r.response_id: r.response_sha256 for r in tiny.calibration}
    assert all(r["response_sha256"] == texts[r["response_id"]] for r in humans)


def test_an_account_that_is_no_human_reviewer_is_refused_or_mapped(
    tmp_path: Path, tiny: Round
) -> None:
    engine = fresh_database("sqlite", tmp_path)
    token = add_and_login(engine, "ana")
    rubric_batch(engine, tiny, "audit", ["ana"])
    _score_all(engine, token, 5)
    out = tmp_path / "out"
    with pytest.raises(ReviewInputError, match="ana is judge ana, which is no human reviewer"):
        export_round(engine, tiny, out, None)
    assert not out.exists()
    mapping = tmp_path / "reviewers.csv"
    mapping.write_text("account,judge_id\nAna,h2\n", encoding="utf-8")
    export_round(engine, tiny, out, mapping)
    assert {r["reviewer_id"] for r in pq.read_table(out / "audit.parquet").to_pylist()} == {"h2"}
    mapping.write_text("account,judge_id\nana,j1\n", encoding="utf-8")  # a model juror
    with pytest.raises(ReviewInputError, match="j1, which is no human reviewer"):
        export_round(engine, tiny, tmp_path / "other", mapping)
    engine.dispose()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,judge\nana,h1\n", "first line must be account,judge_id"),
        ("account,judge_id\nana\n", "line 2: expected an account name and a judge_id"),
        ("account,judge_id\nana,h1\nANA,h2\n", "the account ANA appears twice"),
    ],
)
def test_a_bad_reviewer_map_is_refused(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "map.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(ReviewInputError, match=message):
        read_reviewer_map(path)


def test_two_reviewers_of_one_audited_response_are_refused(tmp_path: Path, tiny: Round) -> None:
    engine = fresh_database("sqlite", tmp_path)
    tokens = {name: add_and_login(engine, name) for name in ("h1", "h2")}
    rubric_batch(engine, tiny, "audit", ["h1", "h2"], overlap=2)
    _score_all(engine, tokens["h1"], 3)
    _score_all(engine, tokens["h2"], 3)
    with pytest.raises(ReviewInputError, match="2 reviewers scored one audited response"):
        export_round(engine, tiny, tmp_path / "out", None)
    assert not (tmp_path / "out").exists()
    engine.dispose()


def test_existing_files_are_replaced_only_with_force(
    scored: tuple[Engine, dict[str, str]], tiny: Round, tmp_path: Path
) -> None:
    engine, _ = scored
    out = tmp_path / "out"
    out.mkdir()
    (out / "audit.parquet").write_bytes(b"old")
    with pytest.raises(OutputExistsError, match="already exists"):
        export_round(engine, tiny, out, None)
    assert (out / "audit.parquet").read_bytes() == b"old"
    assert not (out / "calibration.parquet").exists()
    export_round(engine, tiny, out, None, force=True)
    assert pq.read_table(out / "audit.parquet").num_rows == 12
    assert sorted(p.name for p in out.iterdir()) == ["audit.parquet", "calibration.parquet"]


def test_the_cli_exports_a_multidomain_round(tmp_path: Path, tiny: Round) -> None:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = fresh_database("sqlite", tmp_path)
    token = add_and_login(engine, "h1")
    rubric_batch(engine, tiny, "audit", ["h1"])
    _score_all(engine, token, 4)
    engine.dispose()
    out = tmp_path / "frozen"
    result = CliRunner().invoke(
        main, ["review", "export", str(tiny.path), "--output", str(out), "--db", url]
    )
    assert result.exit_code == 0, result.output
    assert "6 audited responses, 0 human calibration ratings" in result.output
    assert [p.name for p in out.iterdir()] == ["audit.parquet"]
    again = CliRunner().invoke(
        main, ["review", "export", str(tiny.path), "--output", str(out), "--db", url]
    )
    assert again.exit_code != 0
    assert "already exists" in again.output
    assert "Traceback" not in again.output
