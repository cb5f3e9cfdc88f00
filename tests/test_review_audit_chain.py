"""The tamper-evident audit log (issue 9, point 15): each entry carries the hash of the
one before, `reportgen review verify-audit` names the first broken entry, and on
PostgreSQL the app's role (which owns nothing) cannot delete, truncate or disable the
triggers, with the grants docs/review-database.md gives."""

from __future__ import annotations

import itertools
import re
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import Engine, make_url, select, text
from sqlalchemy.exc import DBAPIError

from reportgen.cli import main
from review_app.core.audit_chain import AuditChainBroken, verify_audit_chain
from review_app.core.auth import login
from review_app.core.db import audit, audit_entry_sha256, audit_log, create_schema, make_engine
from tests.review.databases import KINDS, fresh_database, postgres_url
from tests.review.helpers import PASSWORD, add_and_login

DOC = Path(__file__).resolve().parents[1] / "docs" / "review-database.md"
THREADS = 8
PER_THREAD = 10
OWNED_BY_ME = (
    "SELECT count(*) FROM pg_class "
    "WHERE relowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
)


@pytest.fixture(params=KINDS)
def engine(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Engine]:
    engine = fresh_database(str(request.param), tmp_path)
    yield engine
    engine.dispose()


def _some_history(engine: Engine) -> None:
    for name in ("ana", "bruno", "carla"):
        add_and_login(engine, name)  # two entries each: add_account, login


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
            connection.execute(text("DROP TRIGGER IF EXISTS audit_log_no_update"))
            connection.execute(text("DROP TRIGGER IF EXISTS audit_log_no_delete"))
            connection.execute(text(statement))
        else:
            connection.execute(text("ALTER TABLE audit_log DISABLE TRIGGER USER"))
            connection.execute(text(statement))
            connection.execute(text("ALTER TABLE audit_log ENABLE TRIGGER USER"))


def test_each_entry_carries_the_hash_of_the_one_before(engine: Engine) -> None:
    _some_history(engine)
    entries = _entries(engine)
    assert len(entries) == 6
    assert entries[0]["prev_sha256"] == ""
    for before, entry in itertools.pairwise(entries):
        assert entry["prev_sha256"] == audit_entry_sha256(before)
    chain = verify_audit_chain(engine)
    assert (chain.entries, chain.head_sha256) == (6, audit_entry_sha256(entries[-1]))


def test_verify_audit_names_the_entry_after_an_altered_one(engine: Engine) -> None:
    _some_history(engine)
    third = int(str(_entries(engine)[2]["entry_id"]))
    fourth = int(str(_entries(engine)[3]["entry_id"]))
    intact = CliRunner().invoke(main, ["review", "verify-audit", "--db", _url(engine)])
    assert intact.exit_code == 0, intact.output
    assert re.fullmatch(
        r"Audit log intact: 6 entries; hash of the newest: [0-9a-f]{64}\.\n", intact.output
    )

    _tamper(engine, f"UPDATE audit_log SET detail = '{{}}' WHERE entry_id = {third}")

    with pytest.raises(AuditChainBroken) as broken:
        verify_audit_chain(engine)
    assert broken.value.entry == fourth
    result = CliRunner().invoke(main, ["review", "verify-audit", "--db", _url(engine)])
    assert result.exit_code == 1
    assert result.output == (
        f"Error: Audit log broken at entry {fourth}: it does not carry the hash of entry "
        f"{third}, which was altered, or entries between the two were removed.\n"
    )


def test_verify_audit_finds_removed_entries(engine: Engine) -> None:
    _some_history(engine)
    ids = [int(str(entry["entry_id"])) for entry in _entries(engine)]
    _tamper(engine, f"DELETE FROM audit_log WHERE entry_id = {ids[2]}")
    with pytest.raises(AuditChainBroken, match=f"entry {ids[3]}: .* entry {ids[1]},"):
        verify_audit_chain(engine)
    _tamper(engine, f"DELETE FROM audit_log WHERE entry_id = {ids[0]}")
    with pytest.raises(AuditChainBroken, match=f"entry {ids[1]}: the first remaining entry"):
        verify_audit_chain(engine)


def test_concurrent_appends_keep_one_chain(engine: Engine) -> None:
    start = threading.Barrier(THREADS)
    failures: list[BaseException] = []

    def work(number: int) -> None:
        try:
            start.wait()
            for step in range(PER_THREAD):
                with engine.begin() as connection:
                    audit(connection, None, "test", {"thread": number, "step": step})
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert verify_audit_chain(engine).entries == THREADS * PER_THREAD


def _grants(app_role: str) -> list[str]:
    """The SQL block of docs/review-database.md that grants the app's role its rights."""
    document = DOC.read_text(encoding="utf-8")
    block = document.split("<!-- grants:", 1)[1].split("```sql\n", 1)[1].split("```", 1)[0]
    statements = [line.strip() for line in block.splitlines() if line.strip()]
    assert statements
    assert all(s.endswith(";") for s in statements)
    return [s.replace(':"app_role"', f'"{app_role}"') for s in statements]


@pytest.fixture
def app_engine(tmp_path: Path) -> Iterator[tuple[Engine, Engine]]:
    """The owner's engine (schema created, grants given) and the app role's engine."""
    owner = fresh_database("postgresql", tmp_path)
    app_url = make_url(postgres_url())
    app_url = app_url.set(username=f"{app_url.username}_app")
    assert app_url.username is not None
    with owner.begin() as connection:
        known = connection.execute(
            text("SELECT 1 FROM pg_roles WHERE rolname = :name"), {"name": app_url.username}
        ).first()
        if known is None:
            pytest.fail(f"role {app_url.username} is missing: run review_app/ci_postgres.sh")
        for statement in _grants(app_url.username):
            connection.execute(text(statement))
    app = make_engine(app_url.render_as_string(hide_password=False))
    yield owner, app
    app.dispose()
    owner.dispose()


@pytest.mark.postgres
def test_the_app_role_works_but_cannot_rewrite_the_audit_log(
    app_engine: tuple[Engine, Engine],
) -> None:
    owner, app = app_engine
    create_schema(app)  # every command runs it: under the app's role it changes nothing
    add_and_login(app, "ana")
    assert login(app, "ana", PASSWORD)
    with app.connect() as connection:
        owned = connection.execute(text(OWNED_BY_ME)).scalar()
        assert owned == 0
    forbidden = {
        "UPDATE audit_log SET action = 'x'": "permission denied",
        "DELETE FROM audit_log": "permission denied",
        "TRUNCATE audit_log": "permission denied",
        "ALTER TABLE audit_log DISABLE TRIGGER ALL": "must be owner",
        "DROP TABLE audit_log": "must be owner",
        "SET session_replication_role = replica": "permission denied",
    }
    for statement, why in forbidden.items():
        with pytest.raises(DBAPIError, match=why), app.begin() as connection:
            connection.execute(text(statement))
    chain = verify_audit_chain(app)
    assert chain.entries == 3  # add_account, login, login
    with owner.connect() as connection:
        assert connection.execute(select(audit_log.c.action)).scalars().all() == [
            "add_account", "login", "login",
        ]  # fmt: skip


@pytest.mark.postgres
def test_even_the_owner_cannot_truncate_the_audit_log_while_its_triggers_stand(
    tmp_path: Path,
) -> None:
    owner = fresh_database("postgresql", tmp_path)
    try:
        _some_history(owner)
        with pytest.raises(DBAPIError, match="append-only"), owner.begin() as connection:
            connection.execute(text("TRUNCATE audit_log"))
        assert verify_audit_chain(owner).entries == 6
    finally:
        owner.dispose()
