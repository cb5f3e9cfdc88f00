"""Ready databases and logged-in accounts for the review app's tests (the round they review
comes from `tests.factories.memory_review_round`)."""

from __future__ import annotations

from argon2 import PasswordHasher, profiles
from sqlalchemy import Engine, select

import review_app.core.auth
import review_app.core.release_schema  # round_settings joins db.metadata too
import review_app.core.unblinding  # sample_keys joins db.metadata too
from reportgen.kinds import register_review_tables
from review_app.core.auth import add_account, login
from review_app.core.db import accounts, batches, create_schema, make_engine
from review_app.rounds.batch_release import release_batch

PASSWORD = "correct horse battery"

# The kinds' own tables (their review packages) join db.metadata: created and dropped too.
register_review_tables()

# Argon2's cheapest parameters for the tests: the production cost (about half a second per
# hash on a busy machine) would make each database fixture take seconds. The scheme and the
# code paths stay the same.
review_app.core.auth._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)


def new_database(url: str) -> Engine:
    engine = make_engine(url)
    create_schema(engine)
    return engine


def add_and_login(engine: Engine, name: str, role: str = "reviewer") -> str:
    add_account(engine, name, role, PASSWORD)
    return login(engine, name, PASSWORD)


RELEASING_ADMIN = "release-admin"


def admin_token(engine: Engine) -> str:
    """A session of an administrator: the first admin account (the tests' accounts share
    PASSWORD), else a new one named RELEASING_ADMIN."""
    with engine.connect() as connection:
        name = connection.execute(
            select(accounts.c.name)
            .where(accounts.c.role == "admin", accounts.c.disabled.is_(False))
            .order_by(accounts.c.account_id)
            .limit(1)
        ).scalar()
    if name is None:
        return add_and_login(engine, RELEASING_ADMIN, "admin")
    return login(engine, str(name), PASSWORD)


def released(engine: Engine, batch_id: int, token: str | None = None) -> int:
    """Release a freshly drawn batch as an administrator would after its leak report (the
    real path: review_app.rounds.batch_release.release_batch); returns the batch's id."""
    release_batch(engine, token or admin_token(engine), batch_id)
    return batch_id


def release_all(engine: Engine, token: str | None = None) -> list[int]:
    """Release every held batch (see `released`); returns their ids."""
    with engine.connect() as connection:
        held = [
            int(b)
            for b in connection.execute(
                select(batches.c.batch_id).where(batches.c.released_at.is_(None))
            ).scalars()
        ]
    if held:
        token = token or admin_token(engine)
    return [released(engine, batch_id, token) for batch_id in held]
