"""`reportgen review unlock`: let an account's owner log in again at once after failed
logins (perhaps a stranger's guesses) made the name wait (review_app.core.auth.unlock)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click
from sqlalchemy import Engine


def unlock_command(
    db_option: Callable[[Callable[..., Any]], Callable[..., Any]],
    open_engine: Callable[[str | None], Engine],
) -> click.Command:
    """The command, with the review group's `--db` option and engine."""

    @click.command("unlock")
    @click.argument("name")
    @db_option
    def unlock(name: str, db_url: str | None) -> None:
        """Forget the failed logins of account NAME, so that its owner may log in at once
        (recorded in the audit log)."""
        from review_app.core.auth import unlock as unlock_name

        was_locked = unlock_name(open_engine(db_url), name)
        state = "was waiting after failed logins" if was_locked else "was not waiting"
        click.echo(f"Account {name} unlocked ({state}); its owner may log in now.")

    return unlock
