"""A fresh review database on SQLite, or on the PostgreSQL server the CI starts
(review_app/ci_postgres.sh exports its URL as REVIEW_TEST_POSTGRES_URL)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from sqlalchemy import Engine

import review_app.storage  # noqa: F401  # registers every table (cf_, md_) before drop_all
from review_app.db import metadata
from tests.review.helpers import new_database

POSTGRES_URL = os.environ.get("REVIEW_TEST_POSTGRES_URL")
KINDS = ["sqlite", "postgresql"]


def postgres_url() -> str:
    """The test server's URL; skips the test when none is set."""
    if not POSTGRES_URL:
        pytest.skip("REVIEW_TEST_POSTGRES_URL is not set (CI sets it via ci_postgres.sh)")
    return POSTGRES_URL


def fresh_database(kind: str, tmp_path: Path) -> Engine:
    """An empty review database of `kind` ("sqlite" or "postgresql") with its schema."""
    if kind == "sqlite":
        return new_database(f"sqlite:///{tmp_path / 'review.db'}")
    url = postgres_url()
    engine = new_database(url)
    metadata.drop_all(engine)  # a clean slate: earlier runs share this database
    engine.dispose()
    return new_database(url)
