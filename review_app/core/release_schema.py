"""The leak review's storage: per-round settings, and the upgrade of a database created
before batches were held.

`round_settings` is registered on `db.metadata` when this module is imported
(`review_app.core.storage` imports it before creating the schema, like the kinds' tables).
`upgrade_schema` adds the release columns of `batches` to a database that lacks them;
`reportgen review init` (and every opening of the database) runs it, and it does nothing
on a database that has them.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Engine, String, Table, inspect, select, text, update
from sqlalchemy.schema import CreateColumn

from review_app.core.db import audit, batches, metadata, now_utc

# Per-round settings an administrator sets (`reportgen review settings`, the batches
# page); a round without a row has the defaults. Not tied to `rounds`: a round may be
# set up before its first batch enters the database.
round_settings = Table(
    "round_settings",
    metadata,
    Column("round_id", String(100), primary_key=True),
    # A batch whose leak report is empty when it is drawn is released at once.
    Column("auto_release_clean", Boolean, nullable=False, default=False),
)

RELEASE_COLUMNS = ("released_at", "released_by", "released_via", "flagged_at_release")


def missing_release_columns(engine: Engine) -> list[str]:
    present = {column["name"] for column in inspect(engine).get_columns(batches.name)}
    return [name for name in RELEASE_COLUMNS if name not in present]


def upgrade_schema(engine: Engine) -> list[str]:
    """Add the release columns a database from before the leak review lacks; returns
    the columns added ([] when there was nothing to do).

    The batches such a database already holds were in the reviewers' queues before the
    hold existed: they are marked released (`released_via` "upgrade", in the audit log
    too), so that an upgrade never takes work away mid-review. On PostgreSQL only the
    tables' owner may alter them: run `review init` as the owner once.
    """
    if not missing_release_columns(engine):
        return []  # the app's role, which may not ALTER, never gets further
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Two processes upgrading at once: the second waits, then finds the columns.
            connection.execute(text(f"LOCK TABLE {batches.name} IN ACCESS EXCLUSIVE MODE"))
        present = {c["name"] for c in inspect(connection).get_columns(batches.name)}
        missing = [name for name in RELEASE_COLUMNS if name not in present]
        for name in missing:
            column = CreateColumn(batches.c[name]).compile(dialect=connection.dialect)
            connection.execute(text(f"ALTER TABLE {batches.name} ADD COLUMN {column}"))
        if "released_at" in missing:
            existing = [int(b) for b in connection.execute(select(batches.c.batch_id)).scalars()]
            if existing:
                connection.execute(
                    update(batches).values(released_at=now_utc(), released_via="upgrade")
                )
                audit(connection, None, "release_batch", {"batches": existing, "via": "upgrade"})
    return missing
