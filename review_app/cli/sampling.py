"""`reportgen review sample`'s helpers: its `--quota` values (a kind's own tasks are
sampled by its review part, `review_app.cli.kinds`)."""

from __future__ import annotations

from collections.abc import Callable

import click
from sqlalchemy import Engine


def parse_quotas(
    values: tuple[str, ...], reviewers: tuple[str, ...]
) -> Callable[[Engine], dict[str, int]]:
    """`--quota` values as name -> quota; a bare N applies to every reviewer of the batch,
    known once the database is open (hence a function of the engine)."""
    named: dict[str, int] = {}
    every: int | None = None
    for value in values:
        name, _, number = value.rpartition("=")
        if not number.isdigit():
            raise click.BadParameter(f"{value!r} is not N or NAME=N", param_hint="--quota")
        if name:
            named[name] = int(number)
        else:
            every = int(number)

    def resolve(engine: Engine) -> dict[str, int]:
        if every is None:
            return named
        from sqlalchemy import select

        from review_app.core.db import accounts

        with engine.connect() as connection:
            names = reviewers or tuple(
                connection.execute(
                    select(accounts.c.name).where(accounts.c.role == "reviewer")
                ).scalars()
            )
        return dict.fromkeys(names, every) | named

    return resolve
