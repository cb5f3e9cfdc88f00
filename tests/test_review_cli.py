"""`reportgen review`: init, accounts, sampling, closing, publishing and exporting."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import func, select

from reportgen.cli import main
from review_app.core.auth import login
from review_app.core.db import make_engine, samples
from tests.factories import make_round
from tests.review import helpers  # noqa: F401  # cheap argon2 parameters for the tests


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'review.db'}"


def _invoke(*args: str, stdin: str | None = None) -> str:
    result = CliRunner().invoke(main, ["review", *args], input=stdin)
    assert result.exit_code == 0, result.output
    return result.output


def test_full_cli_workflow(db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert "ready" in _invoke("init", "--db", db)
    output = _invoke("add-reviewer", "ana", "--db", db)
    password = output.split("Password (shown only now): ")[1].strip()
    engine = make_engine(db)
    assert login(engine, "ana", password)
    _invoke("add-reviewer", "bruno", "--password-stdin", "--db", db, stdin="a long password\n")
    assert login(engine, "bruno", "a long password")
    round_dir = make_round(tmp_path)
    output = _invoke("sample", str(round_dir), "--fraction", "0.1", "--seed", "3", "--db", db)
    assert "Batch 1 of round tiny-round created: " in output
    assert "per reviewer: ana " in output
    assert ", bruno " in output
    assert "Held" in output
    released = _invoke("release-batch", "1", "--yes", "--db", db)
    assert "Batch 1 released to its reviewers" in released
    with engine.connect() as connection:
        assert connection.execute(select(func.count()).select_from(samples)).scalar()
    assert "closed" in _invoke("close-batch", "1", "--db", db)
    assert "window 7 days" in _invoke(
        "publish", "tiny-round", "--on", "2026-07-01", "--window-days", "7", "--db", db
    )
    target = tmp_path / "audit.json"
    _invoke("export", str(round_dir), "--output", str(target), "--db", db)
    results = json.loads(target.read_text(encoding="utf-8"))
    assert (results["round_id"], results["batches_closed"], results["judgments"]) == (
        "tiny-round",
        1,
        0,
    )
    # Without --output the export lands where `reportgen build` looks for it.
    monkeypatch.chdir(tmp_path)
    _invoke("export", str(round_dir), "--db", db)
    default = json.loads(Path("audits/tiny-round.json").read_text(encoding="utf-8"))
    # The two exports ran a moment apart: only their time stamps may differ.
    assert default.pop("generated_at") >= results.pop("generated_at")
    assert default == results
    engine.dispose()


def test_errors_are_clear_messages(db: str, tmp_path: Path) -> None:
    runner = CliRunner()
    assert runner.invoke(main, ["review", "init", "--db", db]).exit_code == 0
    result = runner.invoke(main, ["review", "add-reviewer", "ana", "--role", "owner", "--db", db])
    assert result.exit_code == 2
    result = runner.invoke(
        main, ["review", "add-reviewer", "ana", "--password-stdin", "--db", db], input="short\n"
    )
    assert result.exit_code == 1
    assert "Error: The password must be at least 12 characters long." in result.output
    round_dir = make_round(tmp_path)
    result = runner.invoke(main, ["review", "sample", str(round_dir), "--seed", "1", "--db", db])
    assert result.exit_code == 1
    assert "needs 2 distinct reviewers" in result.output
    result = runner.invoke(main, ["review", "export", str(round_dir), "--db", db])
    assert result.exit_code == 1
    assert "Round tiny-round is not in the review database." in result.output
    result = runner.invoke(main, ["review", "close-batch", "9", "--db", db])
    assert "Batch 9 does not exist." in result.output
