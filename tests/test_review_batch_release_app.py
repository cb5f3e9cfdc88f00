"""The leak review in the app (both languages) and the upgrade of a database created
before batches were held."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from click.testing import CliRunner
from sqlalchemy import (
    JSON,
    Column,
    DateTime,
    Engine,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    UniqueConstraint,
    inspect,
    select,
)
from streamlit.testing.v1 import AppTest

from reportgen.cli import main
from review_app.core.auth import login
from review_app.core.db import (
    accounts,
    assignments,
    audit_log,
    batches,
    inserted_id,
    make_engine,
    metadata,
    now_utc,
    rounds,
    samples,
)
from review_app.core.release_schema import RELEASE_COLUMNS, round_settings, upgrade_schema
from review_app.i18n import translate
from review_app.rounds.sampling import create_batch
from review_app.tasks import reviewing
from tests.factories import memory_review_round
from tests.review.app_login import logged_in
from tests.review.databases import KINDS, postgres_url
from tests.review.helpers import PASSWORD, add_and_login, new_database

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")


def _old_schema(engine: Engine) -> None:
    """The tables as a database from before the leak review had them: `batches` without
    its release columns, no `round_settings`."""
    old = MetaData()
    for table in metadata.sorted_tables:
        if table.name not in (batches.name, round_settings.name):
            table.to_metadata(old)
    Table(
        "batches",
        old,
        Column("batch_id", Integer, primary_key=True),
        Column("round_id", ForeignKey("rounds.round_id"), nullable=False),
        Column("seed", Integer, nullable=False),
        Column("settings", JSON, nullable=False),
        Column("created_at", DateTime(timezone=True), nullable=False),
        Column("closed_at", DateTime(timezone=True), nullable=True),
        Column("task_type", String(40), nullable=True),
        UniqueConstraint("round_id", "seed"),
    )
    old.create_all(engine)


def _old_database(kind: str, tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'old.db'}" if kind == "sqlite" else postgres_url()
    engine = make_engine(url)
    if kind != "sqlite":
        metadata.drop_all(engine)
    _old_schema(engine)
    engine.dispose()
    return url


def _seed_an_old_batch(engine: Engine, reviewer_id: int) -> int:
    """A batch in progress, written with the old columns only."""
    old_batches = Table("batches", MetaData(), autoload_with=engine)
    with engine.begin() as connection:
        connection.execute(
            rounds.insert().values(round_id="r-old", round_dir="/rounds/r-old", kind="estigmas")
        )
        batch_id = inserted_id(
            connection.execute(
                old_batches.insert().values(
                    round_id="r-old", seed=1, settings={}, created_at=now_utc()
                )
            )
        )
        sample_id = inserted_id(
            connection.execute(
                samples.insert().values(
                    batch_id=batch_id, code="OLD-CODE-1", prompt_text="P", output_text="Sim."
                )
            )
        )
        connection.execute(
            assignments.insert().values(sample_id=sample_id, reviewer_id=reviewer_id, position=0)
        )
    return batch_id


@pytest.mark.parametrize("kind", KINDS)
def test_review_init_upgrades_a_database_from_before_the_hold(kind: str, tmp_path: Path) -> None:
    url = _old_database(kind, tmp_path)
    engine = make_engine(url)
    assert "released_at" not in {c["name"] for c in inspect(engine).get_columns("batches")}
    token = add_and_login(engine, "ana")
    with engine.connect() as connection:
        ana = connection.execute(
            select(accounts.c.account_id).where(accounts.c.name == "ana")
        ).scalar_one()
    old_batch = _seed_an_old_batch(engine, int(ana))
    for _ in range(2):  # the second run finds nothing to do
        result = CliRunner().invoke(main, ["review", "init", "--db", url])
        assert result.exit_code == 0, result.output
    columns = {c["name"] for c in inspect(engine).get_columns("batches")}
    assert set(RELEASE_COLUMNS) <= columns
    assert inspect(engine).has_table("round_settings")
    assert upgrade_schema(engine) == []
    # The batch in progress stays in its reviewer's queue: it was there before the hold.
    assert [entry.code for entry in reviewing.my_queue(engine, token)] == ["OLD-CODE-1"]
    with engine.connect() as connection:
        via = connection.execute(select(batches.c.released_via)).scalar_one()
        entries = connection.execute(
            select(audit_log.c.detail).where(audit_log.c.action == "release_batch")
        ).scalars()
        details = [json.loads(entry) for entry in entries]
    assert via == "upgrade"
    assert details == [{"batches": [old_batch], "via": "upgrade"}]
    # A batch drawn after the upgrade is held.
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=5,
    )
    assert [entry.code for entry in reviewing.my_queue(engine, token)] == ["OLD-CODE-1"]
    assert reviewing.awaiting_release(engine, token) > 0
    engine.dispose()


@pytest.fixture
def held_batch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Engine]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_and_login(engine, "ana")
    add_and_login(engine, "admin", "admin")
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=1,
        seed=4,
    )
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield engine
    engine.dispose()
    st.cache_resource.clear()


def _logged_in(name: str, language: str) -> AppTest:
    return logged_in(name, language)


def _shown(at: AppTest) -> str:
    return "\n".join(
        [e.value for e in at.text]
        + [e.value for e in at.caption]
        + [e.value for e in at.info]
        + [e.value for e in at.warning]
    )


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_batches_page_releases_a_held_batch_and_the_reviewer_waits_until_then(
    held_batch: Engine, language: str
) -> None:
    with held_batch.connect() as connection:
        drawn = connection.execute(select(samples.c.code)).scalars().all()
    reviewer = _logged_in("ana", language)
    waiting = translate(language, "queue_awaiting_release", count=len(drawn))
    assert waiting in [info.value for info in reviewer.info]
    admin = _logged_in("admin", language)
    admin.sidebar.radio(key="page").set_value("page_batches").run()
    shown = _shown(admin)
    assert translate(language, "batch_held") in shown
    assert translate(language, "release_held_info", batch=1) in shown
    summary = translate(language, "release_summary", flagged=0, samples=len(drawn), held=0)
    assert summary in shown
    assert translate(language, "leak_none") in shown  # the report is on the page too
    toggle = admin.toggle(key="auto_release_r-demo")
    assert toggle.label == translate(language, "auto_release_label", round="r-demo")
    assert toggle.value is False
    toggle.set_value(True).run()
    assert admin.toggle(key="auto_release_r-demo").value is True
    admin.button(key="release_batch_1").click().run()
    assert not admin.exception, admin.exception
    assert translate(language, "batch_released") in _shown(admin)
    assert "release_batch_1" not in {button.key for button in admin.button}
    reviewer.run()
    assert waiting not in [info.value for info in reviewer.info]
    assert len(reviewing.my_queue(held_batch, login(held_batch, "ana", PASSWORD))) == len(drawn)
    with held_batch.connect() as connection:
        actions = list(connection.execute(select(audit_log.c.action)).scalars())
        on = connection.execute(select(round_settings.c.auto_release_clean)).scalar_one()
    assert {"release_batch", "round_settings"} <= set(actions)
    assert on is True
