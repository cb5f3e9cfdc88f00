"""An audit log cut at its end, or emptied, is not "intact" (issue 23, point 11): the
log's length and newest hash are kept beside it (`audit_head` in review_app.core.db), a log with no
entry in a database with accounts is refused, and `verify-audit --expect-head` checks a
hash noted elsewhere."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from sqlalchemy import Engine, text

from reportgen.cli import main
from review_app.core.audit_chain import AuditLogIncomplete, verify_audit_chain
from review_app.core.db import audit_entry_sha256, audit_log
from tests.review.databases import KINDS, fresh_database
from tests.review.helpers import add_and_login


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = fresh_database(str(request.param), tmp_path)
    for name in ("ana", "bruno", "carla"):
        add_and_login(engine, name)  # six entries
    yield engine
    engine.dispose()


def _entries(engine: Engine) -> list[dict[str, object]]:
    with engine.connect() as connection:
        rows = connection.execute(audit_log.select().order_by(audit_log.c.entry_id))
        return [dict(row._mapping) for row in rows]


def _url(engine: Engine) -> str:
    return engine.url.render_as_string(hide_password=False)


def _tamper(engine: Engine, statement: str) -> None:
    """Run `statement` on audit_log the way its owner could: triggers off around it."""
    with engine.begin() as connection:
        if engine.dialect.name == "sqlite":
            connection.execute(text("DROP TRIGGER IF EXISTS audit_log_no_delete"))
            connection.execute(text(statement))
        else:
            connection.execute(text("ALTER TABLE audit_log DISABLE TRIGGER USER"))
            connection.execute(text(statement))
            connection.execute(text("ALTER TABLE audit_log ENABLE TRIGGER USER"))


def _verify(engine: Engine, *extra: str) -> Result:
    return CliRunner().invoke(main, ["review", "verify-audit", *extra, "--db", _url(engine)])


def _newest_ids(engine: Engine, count: int) -> list[int]:
    return [int(str(entry["entry_id"])) for entry in _entries(engine)][-count:]


def test_an_intact_log_matches_its_recorded_length(engine: Engine) -> None:
    chain = verify_audit_chain(engine)
    assert chain.entries == 6
    result = _verify(engine, "--expect-head", chain.head_sha256)
    assert result.exit_code == 0, result.output
    assert "intact: 6 entries" in result.output


def test_entries_cut_at_the_end_are_reported(engine: Engine) -> None:
    ids = _newest_ids(engine, 2)
    _tamper(engine, f"DELETE FROM audit_log WHERE entry_id IN ({ids[0]}, {ids[1]})")
    with pytest.raises(AuditLogIncomplete, match="holds 4 entries, but 6 were recorded"):
        verify_audit_chain(engine)
    result = _verify(engine)
    assert result.exit_code == 1
    assert "intact" not in result.output
    assert "Traceback" not in result.output


def test_an_emptied_log_is_reported(engine: Engine) -> None:
    _tamper(engine, "DELETE FROM audit_log")
    with pytest.raises(AuditLogIncomplete, match="holds 0 entries, but 6"):
        verify_audit_chain(engine)
    with engine.begin() as connection:  # and the record of its length with it
        connection.execute(text("DELETE FROM audit_head"))
    with pytest.raises(AuditLogIncomplete, match="empty, but the database holds accounts"):
        verify_audit_chain(engine)
    assert _verify(engine).exit_code == 1


def test_a_removed_length_record_is_reported(engine: Engine) -> None:
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM audit_head"))
    with pytest.raises(AuditLogIncomplete, match="length is missing"):
        verify_audit_chain(engine)


def test_a_head_noted_elsewhere_must_still_be_in_the_log(engine: Engine) -> None:
    noted = verify_audit_chain(engine).head_sha256
    _tamper(engine, f"DELETE FROM audit_log WHERE entry_id = {_newest_ids(engine, 1)[0]}")
    newest = audit_entry_sha256(_entries(engine)[-1])
    with engine.begin() as connection:  # whoever cut the log also rewrote the record
        connection.execute(
            text("UPDATE audit_head SET entries = 5, head_sha256 = :head"), {"head": newest}
        )
    assert verify_audit_chain(engine).entries == 5  # consistent again, but:
    result = _verify(engine, "--expect-head", noted)
    assert result.exit_code == 1
    assert noted in result.output


def test_a_fresh_database_is_intact(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    assert CliRunner().invoke(main, ["review", "init", "--db", url]).exit_code == 0
    result = CliRunner().invoke(main, ["review", "verify-audit", "--db", url])
    assert result.exit_code == 0, result.output
    assert "intact: 0 entries" in result.output
