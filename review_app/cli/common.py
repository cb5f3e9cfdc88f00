"""What the `reportgen review` commands share: the `--db` option and the engine it opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click
from sqlalchemy import Engine

F = TypeVar("F", bound=Callable[..., Any])


def db_option(function: F) -> F:
    return click.option(
        "--db",
        "db_url",
        default=None,
        metavar="URL",
        help=(
            "SQLAlchemy database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB "
            "(default: $REPORTGEN_REVIEW_DB, else the SQLite file review.db here). Leave the "
            "PostgreSQL password out of it: libpq reads it from ~/.pgpass or $PGPASSFILE."
        ),
    )(function)


# Batch ids are INTEGER columns (32 bits on PostgreSQL): a larger number is refused as
# usage, not sent to the database.
BATCH_ID = click.IntRange(1, 2**31 - 1)


def open_engine(db_url: str | None, *, create: bool = False) -> Engine:
    """The review database's engine; a SQLite file that does not exist is created only
    with `create` (`review init`), else refused (a mistyped path)."""
    from review_app.core.storage import database_url, open_database

    engine = open_database(database_url(db_url), create=create)
    # Close the pool when the command ends (a PostgreSQL server counts open connections).
    click.get_current_context().call_on_close(engine.dispose)
    return engine
