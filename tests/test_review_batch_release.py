"""The leak review (issue 23, point 5): a new batch is held until an administrator has
seen its leak report and released it, or the round releases clean batches automatically."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, select

from reportgen.cli import main
from reportgen.model import Round
from review_app.core.db import accounts, audit_log, batches, samples
from review_app.core.errors import AccessDenied, ReviewInputError
from review_app.rounds.batch_release import (
    VIA_ADMIN,
    VIA_AUTOMATIC,
    release_batch,
    release_batch_as,
    round_auto_release,
    set_auto_release,
    set_auto_release_as,
)
from review_app.rounds.batches import hold_sample, leak_report
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import memory_review_round
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login

# A name no list has, masked after "Sou o", and a version the report still flags.
LEAK = "Resposta gerada pela versão 5.4-mini."  # a version the scrubber keeps
LEFT = "5.4-mini"  # what the scrubbed answer keeps of it


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = fresh_database(str(request.param), tmp_path)
    yield engine
    engine.dispose()


def _team(engine: Engine) -> dict[str, str]:
    tokens = {name: add_and_login(engine, name) for name in ("ana", "bruno")}
    tokens["admin"] = add_and_login(engine, "admin", "admin")
    return tokens


def _leaky(round_: Round) -> Round:
    """The round with every answer of its first model giving itself away."""
    responses = dict(round_.responses)  # type: ignore[attr-defined]
    model_id, first = next(iter(responses.items()))
    responses[model_id] = dataclasses.replace(first, raw_text=tuple(LEAK for _ in first.raw_text))
    return dataclasses.replace(round_, responses=responses)  # type: ignore[call-arg]


def _batch(engine: Engine, round_: Round, seed: int = 5) -> int:
    return create_batch(engine, round_, fraction=0.2, min_per_stratum=1, overlap=2, seed=seed)


def _codes(engine: Engine, batch_id: int) -> list[str]:
    with engine.connect() as connection:
        query = select(samples.c.code).where(samples.c.batch_id == batch_id)
        return list(connection.execute(query).scalars())


def _releases(engine: Engine) -> list[dict[str, object]]:
    with engine.connect() as connection:
        details = connection.execute(
            select(audit_log.c.detail).where(audit_log.c.action == "release_batch")
        ).scalars()
        return [json.loads(detail) for detail in details]


def test_a_held_batch_is_out_of_reach_until_an_admin_releases_it(
    engine: Engine, tmp_path: Path
) -> None:
    tokens = _team(engine)
    batch_id = _batch(engine, memory_review_round(tmp_path / "r-demo"))
    code = _codes(engine, batch_id)[0]
    for name in ("ana", "bruno"):
        assert reviewing.my_queue(engine, tokens[name]) == []
        assert reviewing.awaiting_release(engine, tokens[name]) == len(_codes(engine, batch_id))
        with pytest.raises(ReviewInputError) as refused:
            reviewing.load_sample(engine, tokens[name], code)
        assert refused.value.key == "error_batch_held"
        with pytest.raises(ReviewInputError) as refused:
            reviewing.submit_judgment(engine, tokens[name], code, "yes")
        assert refused.value.key == "error_batch_held"
    with pytest.raises(AccessDenied):  # a reviewer cannot release, nor change the setting
        release_batch(engine, tokens["ana"], batch_id)
    with pytest.raises(AccessDenied):
        set_auto_release(engine, tokens["ana"], "r-demo", True)
    assert reviewing.my_queue(engine, tokens["ana"]) == []
    released = release_batch(engine, tokens["admin"], batch_id)
    assert (released.held, released.released_via, released.flagged_at_release) == (
        False,
        VIA_ADMIN,
        0,
    )
    assert code in {entry.code for entry in reviewing.my_queue(engine, tokens["ana"])}
    assert reviewing.awaiting_release(engine, tokens["ana"]) == 0
    assert reviewing.submit_judgment(engine, tokens["ana"], code, "yes")
    with engine.connect() as connection:
        row = connection.execute(select(batches).where(batches.c.batch_id == batch_id)).one()
        admin_id = connection.execute(
            select(accounts.c.account_id).where(accounts.c.name == "admin")
        ).scalar_one()
    assert (row.released_by, row.released_via, row.flagged_at_release) == (admin_id, "admin", 0)
    assert row.released_at is not None
    assert _releases(engine) == [
        {"batch_id": batch_id, "via": "admin", "flagged": 0, "held_back": 0, "suspicions": 0}
    ]
    release_batch(engine, tokens["admin"], batch_id)  # a second release changes nothing
    assert len(_releases(engine)) == 1


def test_releasing_with_suspicions_records_them_and_keeps_held_samples_back(
    engine: Engine, tmp_path: Path
) -> None:
    tokens = _team(engine)
    batch_id = _batch(engine, _leaky(memory_review_round(tmp_path / "r-demo")))
    report = leak_report(engine, tokens["admin"], batch_id)
    assert report
    assert all(LEFT in entry.output_text for entry in report)
    held = report[0]
    hold_sample(engine, tokens["admin"], held.sample_id)
    released = release_batch_as(engine, batch_id, None, "cli")
    assert released.flagged_at_release == len(report)
    (detail,) = _releases(engine)
    assert detail["via"] == "cli"
    assert (detail["flagged"], detail["held_back"]) == (len(report), 1)
    queue = {entry.code for entry in reviewing.my_queue(engine, tokens["ana"])}
    queue |= {entry.code for entry in reviewing.my_queue(engine, tokens["bruno"])}
    assert queue == set(_codes(engine, batch_id)) - {held.code}


def test_automatic_release_frees_a_clean_batch_and_holds_a_suspicious_one(
    engine: Engine, tmp_path: Path
) -> None:
    tokens = _team(engine)
    set_auto_release_as(engine, "r-demo", True, None)
    assert round_auto_release(engine, tokens["admin"], "r-demo")
    clean = _batch(engine, memory_review_round(tmp_path / "r-demo"), seed=5)
    suspicious = _batch(engine, _leaky(memory_review_round(tmp_path / "r-demo")), seed=6)
    queue = {entry.code for entry in reviewing.my_queue(engine, tokens["ana"])}
    assert queue <= set(_codes(engine, clean))
    assert queue
    assert reviewing.awaiting_release(engine, tokens["ana"]) > 0  # the suspicious one
    with engine.connect() as connection:
        rows = connection.execute(select(batches.c.batch_id, batches.c.released_via)).all()
    states = {int(batch_id): via for batch_id, via in rows}
    assert states == {clean: VIA_AUTOMATIC, suspicious: None}
    assert _releases(engine) == [
        {"batch_id": clean, "via": "automatic", "flagged": 0, "held_back": 0, "suspicions": 0}
    ]
    with engine.connect() as connection:
        actions = list(connection.execute(select(audit_log.c.action)).scalars())
    assert "round_settings" in actions


def test_without_the_setting_a_clean_batch_is_held_too(engine: Engine, tmp_path: Path) -> None:
    tokens = _team(engine)
    set_auto_release_as(engine, "r-demo", True, None)
    set_auto_release(engine, tokens["admin"], "r-demo", False)
    _batch(engine, memory_review_round(tmp_path / "r-demo"))
    assert reviewing.my_queue(engine, tokens["ana"]) == []
    assert _releases(engine) == []


def _cli(*args: str, stdin: str | None = None) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["review", *args], input=stdin)
    return result.exit_code, result.output


def test_the_cli_sample_line_release_and_settings(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'review.db'}"
    assert _cli("init", "--db", db)[0] == 0
    for name in ("ana", "bruno"):
        assert _cli("add-reviewer", name, "--db", db)[0] == 0
    from tests.factories import make_round

    round_dir = make_round(tmp_path)
    code, output = _cli("settings", "tiny-round", "--db", db)
    assert (code, output.strip()) == (
        0,
        "Round tiny-round (no batch of this round yet): every new batch is held until an "
        "administrator releases it.",
    )
    code, output = _cli("sample", str(round_dir), "--seed", "3", "--overlap", "1", "--db", db)
    assert code == 0, output
    (line,) = output.strip().splitlines()
    assert line.startswith("Batch 1 of round tiny-round created: ")
    drawn = int(line.split("created: ")[1].split(" ")[0])
    shares = line.split("per reviewer: ")[1].split(".")[0]
    counts = dict(part.rsplit(" ", 1) for part in shares.split(", "))
    assert set(counts) == {"ana", "bruno"}
    assert sum(int(n) for n in counts.values()) == drawn  # overlap 1: each sample once
    assert "Held: no reviewer sees it" in line
    assert "reportgen review release-batch 1" in line
    code, output = _cli("release-batch", "1", "--db", db, stdin="n\n")
    assert code == 1  # not confirmed: nothing released
    assert "Leak report: " in output
    assert "Release batch 1 to its reviewers?" in output
    assert "released to its reviewers" not in output
    code, output = _cli("release-batch", "1", "--db", db, stdin="y\n")
    assert code == 0, output
    assert "Batch 1 released to its reviewers" in output
    assert _cli("release-batch", "1", "--db", db)[1].strip() == (
        "Batch 1 was already released (cli)."
    )
    code, output = _cli("settings", "tiny-round", "--auto-release-clean", "--db", db)
    assert (code, output.strip()) == (
        0,
        "Round tiny-round: clean batches are released automatically; a batch with any "
        "suspicion is held.",
    )
    code, output = _cli("sample", str(round_dir), "--seed", "4", "--overlap", "1", "--db", db)
    assert code == 0, output
    assert output.strip().endswith("Released automatically: its leak report is empty.")


def test_release_batch_of_an_unknown_batch_is_one_line(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'r.db'}"
    assert _cli("init", "--db", db)[0] == 0
    code, output = _cli("release-batch", "9", "--yes", "--db", db)
    assert (code, output.strip()) == (1, "Error: Batch 9 does not exist.")
