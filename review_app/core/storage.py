"""Opening the review database: which URL, which drivers, and what may reach it.

The URL comes from the command line, else from `REPORTGEN_REVIEW_DB`, else it is the SQLite
file review.db in the current folder; a PostgreSQL password may stay out of both and come
from libpq's `.pgpass` (or `PGPASSFILE`). The SQLite file is created readable by its owner
only: it holds the keys that unblind every sample. Every problem (a missing folder, an
unreachable server, an unsupported driver) is one clear error, never a traceback, and no
message shows a password.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.engine.interfaces import DBAPICursor, ExecutionContext
from sqlalchemy.exc import ArgumentError, DBAPIError, NoSuchModuleError

import review_app.core.ledger_provenance  # registers round_ledgers before create_schema
import review_app.core.session_tables  # noqa: F401  # registers its tables before create_schema
from reportgen.kinds._review import register_review_tables
from review_app.core.db import create_schema, default_url, make_engine, samples
from review_app.core.errors import ReviewInputError
from review_app.core.release_schema import upgrade_schema  # registers round_settings too
from review_app.core.unblinding import sample_keys  # registers it before create_schema

# The kinds' own tables (`KindReview.tables`, their review packages), through the registry:
# the core names no kind.
register_review_tables()

URL_VARIABLE = "REPORTGEN_REVIEW_DB"
# The drivers the app is tested with; plain "postgresql" means psycopg (version 3).
DRIVERS = {
    "sqlite": "sqlite",
    "sqlite+pysqlite": "sqlite",
    "postgresql": "postgresql+psycopg",
    "postgresql+psycopg": "postgresql+psycopg",
}
CONNECT_TIMEOUT_SECONDS = "10"  # an unreachable server is reported, not waited for
# NUL and the other C0/C1 controls except tab and line breaks, in any bound parameter.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
# The anonymised texts of a round are data from its archive, not typed input: only NUL
# (which PostgreSQL cannot store) is refused there.
_ARCHIVE_TABLES = frozenset({samples.name, sample_keys.name})


def database_url(option: str | None = None) -> str:
    """The URL to use: the option, else $REPORTGEN_REVIEW_DB, else ./review.db."""
    return option or os.environ.get(URL_VARIABLE) or default_url()


def shown_url(url: str) -> str:
    """`url` as a message may show it: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<unreadable URL>"


def open_database(url: str, *, create: bool = True) -> Engine:
    """An engine on `url` with the schema created; one clear error for each way it fails.

    An in-memory SQLite database is refused (it would vanish with the process). Without
    `create`, a SQLite file that does not exist is refused rather than created: a
    mistyped path must not become a new, empty database (only `review init` creates)."""
    parsed = _supported(url)
    if parsed.drivername == "sqlite":
        _prepare_sqlite_file(parsed, create=create)
    engine = make_engine(parsed.render_as_string(hide_password=False))
    event.listen(engine, "before_cursor_execute", _refuse_control_characters)
    register_review_tables()  # a part registered since this module was imported
    try:
        create_schema(engine)
        upgrade_schema(engine)  # a database from before the leak review's hold
    except DBAPIError as error:
        engine.dispose()
        reason = str(error.orig).strip().splitlines()[0] if error.orig else type(error).__name__
        raise ReviewInputError(
            "error_database_unreachable", url=shown_url(url), reason=reason
        ) from error
    return engine


def _supported(url: str) -> URL:
    try:
        parsed = make_url(url)
    except ArgumentError as error:
        raise ReviewInputError("error_database_url", url=shown_url(url)) from error
    driver = DRIVERS.get(parsed.drivername)
    if driver is None:
        raise ReviewInputError(
            "error_database_driver", driver=parsed.drivername, drivers="sqlite, postgresql+psycopg"
        )
    try:
        parsed.set(drivername=driver).get_dialect()
    except NoSuchModuleError as error:  # a driver named but not installed
        raise ReviewInputError(
            "error_database_driver", driver=parsed.drivername, drivers="sqlite, postgresql+psycopg"
        ) from error
    parsed = parsed.set(drivername=driver)
    if driver.startswith("postgresql") and "connect_timeout" not in parsed.query:
        parsed = parsed.update_query_dict({"connect_timeout": CONNECT_TIMEOUT_SECONDS})
    return parsed


def _prepare_sqlite_file(url: URL, *, create: bool) -> None:
    """Check the folder and create the file with mode 0600 before SQLite opens it; an
    existing file others may read is made private (0600) first.

    SQLite gives its -wal and -shm files the database file's mode, so they stay private too.
    """
    memory = url.query.get("mode") == "memory"
    if not url.database or url.database == ":memory:" or memory:
        raise ReviewInputError("error_database_memory", url=shown_url(str(url)))
    if url.database.startswith("file:"):
        return
    path = Path(url.database)
    folder = path.resolve().parent
    if not folder.is_dir():
        raise ReviewInputError("error_database_folder_missing", folder=str(folder))
    if not path.exists() and not create:
        raise ReviewInputError("error_database_missing", path=str(path))
    if not os.access(folder, os.W_OK | os.X_OK):
        raise ReviewInputError("error_database_folder_unwritable", folder=str(folder))
    if not path.exists():
        os.close(os.open(path, os.O_CREAT | os.O_WRONLY, 0o600))
    elif not os.access(path, os.R_OK | os.W_OK):
        raise ReviewInputError("error_database_folder_unwritable", folder=str(path))
    _make_private(path)


def _make_private(path: Path) -> None:
    """Mode 0600 for the database file and SQLite's companions: they hold the keys that
    unblind every sample. A file this user does not own and others can read is refused."""
    for member in (path, path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if not member.exists() or member.stat().st_mode & 0o077 == 0:
            continue
        try:
            os.chmod(member, 0o600)
        except PermissionError:
            raise ReviewInputError("error_database_readable", path=str(member)) from None


def _refuse_control_characters(
    _connection: Any,
    _cursor: DBAPICursor,
    _statement: str,
    parameters: Any,
    context: ExecutionContext | None,
    executemany: bool,
) -> None:
    """Refuse, before the driver sees it, text holding NUL or another control character.

    The pages and the CLI check what people type; this is the net under them: whatever
    path a value took, a control character becomes a clear error, never a database
    exception that would show the SQL and the table's columns.
    """
    rows = parameters if executemany else [parameters]
    archive_text = _writes_archive_table(context)
    for row in rows:
        values = row.values() if isinstance(row, dict) else row
        for value in values:
            if not isinstance(value, str):
                continue
            if ("\x00" in value) if archive_text else bool(_CONTROL.search(value)):
                raise ReviewInputError("error_control_character")


def _writes_archive_table(context: ExecutionContext | None) -> bool:
    compiled = getattr(context, "compiled", None)
    table = getattr(getattr(compiled, "statement", None), "table", None)
    return getattr(table, "name", None) in _ARCHIVE_TABLES
