"""The Art. 26 audit's preparation on SQLite, done once per test run and copied.

`prepare_audit` (tests/review/md_walk.py) draws the demonstration round's audit through
the CLI and scores 2,779 of its 2,780 responses through the app's own `submit_scores`:
the larger part of a walk's work, and the same for every SQLite walk (the draw's seed is
fixed). So it is done once per run, under a file lock (as tests/support/shared_builds.py
builds the shared sites: one pytest-xdist worker prepares, the others wait), and each
walk gets a copy of its own: the round's folder (the walk appends to its ledger and
freezes it) and the database (SQLite's backup API, which reads a consistent state),
with the copy's folder recorded as the round's. What a walk then does by hand (score
the one response left, invalidate, export, freeze) acts on its copy alone.

The walk on PostgreSQL starts from the same state: the copy's rows, ids included, written
into the emptied test database (`postgres_audit`). Replaying the preparation there (the
CLI's draw and 2,779 submissions, one transaction each) cost about 30 CPU s a run and
tested nothing the walk needs: the draw and the submissions on PostgreSQL are
tests/test_review_md_sample.py's, tests/test_review_rubric.py's and
tests/test_review_concurrency.py's.
"""

from __future__ import annotations

import pickle
import shutil
import sqlite3
from collections.abc import Mapping
from pathlib import Path

import pytest
from filelock import FileLock
from sqlalchemy import Connection, Engine, func, select, text, update

from review_app.core.accounts import set_language
from review_app.core.auth import login
from review_app.core.db import accounts, make_engine, metadata, rounds
from tests.review.databases import fresh_database, postgres_url
from tests.review.helpers import PASSWORD
from tests.review.md_walk import ROUND_ID, Walked, demo_round_before_audit, prepare_audit
from tests.support.shared_builds import run_folder

_WALKED = "walked.pickle"


def sqlite_audit(
    tmp_path_factory: pytest.TempPathFactory,
    folder: Path,
    languages: Mapping[str, str] | None = None,
) -> tuple[Path, str, Walked]:
    """A copy under `folder` of the run's prepared audit on SQLite, each account in its
    `languages` entry, else pt-BR (as `prepare_audit`'s): the round's folder, the
    database's URL and the response left to score by hand."""
    shared = run_folder(tmp_path_factory) / "md-audit"
    with FileLock(shared.with_suffix(".lock")):
        if not (shared / _WALKED).is_file():
            _prepare(shared)
    walked: Walked = pickle.loads((shared / _WALKED).read_bytes())
    round_dir = folder / "rounds" / ROUND_ID
    shutil.copytree(shared / "rounds" / ROUND_ID, round_dir)
    database = folder / "review.db"
    source = sqlite3.connect(shared / "review.db")
    target = sqlite3.connect(database)
    try:
        source.backup(target)
    finally:
        source.close()
        target.close()
    url = f"sqlite:///{database}"
    engine = make_engine(url)
    try:
        with engine.begin() as connection:  # the copy's round, as `ensure_round` records it
            connection.execute(
                update(rounds)
                .where(rounds.c.round_id == ROUND_ID)
                .values(round_dir=str(round_dir.resolve()))
            )
        _set_languages(engine, languages or {})
    finally:
        engine.dispose()
    return round_dir, url, walked


def _set_languages(engine: Engine, languages: Mapping[str, str]) -> None:
    """Each account's language as the admin sets it (`prepare_audit` made them pt-BR)."""
    token = login(engine, "admin", PASSWORD)
    with engine.connect() as connection:
        ids = dict(connection.execute(select(accounts.c.name, accounts.c.account_id)).all())
    for name, language in languages.items():
        if language != "pt-BR":
            set_language(engine, token, ids[name], language)


def _prepare(shared: Path) -> None:
    if shared.exists():
        shutil.rmtree(shared)  # a preparation cut short
    shared.mkdir(parents=True)
    engine = fresh_database("sqlite", shared)
    try:
        url = f"sqlite:///{shared / 'review.db'}"
        walked = prepare_audit(engine, url, demo_round_before_audit(shared / "rounds"))
    finally:
        engine.dispose()
    (shared / _WALKED).write_bytes(pickle.dumps(walked))  # last: the mark of a whole one


def postgres_audit(
    tmp_path_factory: pytest.TempPathFactory, folder: Path
) -> tuple[Path, str, Walked, Engine]:
    """`sqlite_audit`'s copy under `folder`, its rows then written into the emptied
    PostgreSQL test database: the round's folder, that database's URL, the response left
    to score by hand, and an engine on it (the caller disposes of it)."""
    round_dir, sqlite_url, walked = sqlite_audit(tmp_path_factory, folder)
    engine = fresh_database("postgresql", folder)
    copy_rows(sqlite_url, engine)
    return round_dir, postgres_url(), walked, engine


def copy_rows(source_url: str, target: Engine) -> None:
    """Every row of the review database at `source_url` into `target`, whose tables are
    empty, ids included; on PostgreSQL each id's sequence then starts after the last id."""
    source = make_engine(source_url)
    try:
        with source.connect() as reading, target.begin() as writing:
            for table in metadata.sorted_tables:  # parents before the rows that cite them
                rows = [dict(row._mapping) for row in reading.execute(select(table))]
                if rows:
                    writing.execute(table.insert(), rows)
            if target.dialect.name == "postgresql":
                _sequences_after_last_ids(writing)
    finally:
        source.dispose()


# A column without a sequence gives NULL, and setval of NULL is NULL: nothing changes.
_SET_SEQUENCE = text("SELECT setval(pg_get_serial_sequence(:table, :column), :last)")


def _sequences_after_last_ids(writing: Connection) -> None:
    for table in metadata.sorted_tables:
        for column in table.primary_key.columns:
            last = writing.execute(select(func.max(column))).scalar()
            if isinstance(last, int):
                names = {"table": table.name, "column": column.name, "last": last}
                writing.execute(_SET_SEQUENCE, names)
