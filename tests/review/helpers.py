"""Ready databases and logged-in accounts for the review app's tests (the round they review
comes from `tests.factories.memory_review_round`)."""

from __future__ import annotations

from argon2 import PasswordHasher, profiles
from sqlalchemy import Engine

import review_app.auth
import review_app.md_tables  # its tables join db.metadata: created and dropped too
from review_app.auth import add_account, login
from review_app.db import create_schema, make_engine

PASSWORD = "correct horse battery"

# Argon2's cheapest parameters for the tests: the production cost (about half a second per
# hash on a busy machine) would make each database fixture take seconds. The scheme and the
# code paths stay the same.
review_app.auth._hasher = PasswordHasher.from_parameters(profiles.CHEAPEST)


def new_database(url: str) -> Engine:
    engine = make_engine(url)
    create_schema(engine)
    return engine


def add_and_login(engine: Engine, name: str, role: str = "reviewer") -> str:
    add_account(engine, name, role, PASSWORD)
    return login(engine, name, PASSWORD)
