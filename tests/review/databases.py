"""A fresh review database on SQLite, or on the PostgreSQL server the CI starts
(review_app/ci_postgres.sh exports its URL as REVIEW_TEST_POSTGRES_URL).

The URL is read when a test asks for it, not when a module is imported: under
pytest-xdist, tests/conftest.py gives each worker a database of its own by rewriting the
variable, and a copy taken at import could miss that."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, event

import review_app.core.storage  # noqa: F401  # registers every table (cf_, md_) before drop_all
from review_app.core.db import make_engine, metadata
from tests.review.helpers import new_database

KINDS = ["sqlite", "postgresql"]


def postgres_url() -> str:
    """The test server's URL; skips the test when none is set."""
    url = os.environ.get("REVIEW_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("REVIEW_TEST_POSTGRES_URL is not set (CI sets it via ci_postgres.sh)")
    return url


def empty_database_url(kind: str, tmp_path: Path) -> str:
    """The URL of an empty review database of `kind` ("sqlite" or "postgresql"): a file
    under `tmp_path` not yet created, or the test server with every table dropped."""
    if kind == "sqlite":
        return f"sqlite:///{tmp_path / 'review.db'}"
    url = postgres_url()
    engine = new_database(url)
    metadata.drop_all(engine)  # a clean slate: earlier runs share this database
    engine.dispose()
    return url


def fresh_database(kind: str, tmp_path: Path) -> Engine:
    """An empty review database of `kind` ("sqlite" or "postgresql") with its schema."""
    return new_database(empty_database_url(kind, tmp_path))


def unsynced_engine(url: str) -> Engine:
    """The app's engine for `url`, without waiting on the disk at each commit.

    For tests that prepare thousands of rows through the app's own functions (one
    transaction each) before the part they test: durability across a power cut is not
    what they check, and an fsync per commit made such a preparation the slowest step
    of the suite. Everything else (WAL, immediate transactions, triggers) is the app's."""
    engine = make_engine(url)
    statement = (
        "PRAGMA synchronous=OFF"
        if engine.dialect.name == "sqlite"
        else "SET synchronous_commit TO OFF"
    )

    def unsynced(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute(statement)
        cursor.close()
        if engine.dialect.name != "sqlite":
            dbapi_connection.commit()

    # Registered after the app's own listener, so it runs after it and has the last word.
    event.listen(engine, "connect", unsynced)
    return engine
