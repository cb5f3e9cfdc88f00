"""`reportgen review add-reviewer`: the accounts of the review app."""

from __future__ import annotations

import sys

import click

from reportgen.model import TEXT_LANGUAGES as LANGUAGES
from review_app.cli.common import db_option, open_engine
from review_app.core.db import ROLES


@click.command("add-reviewer")
@click.argument("name")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default="reviewer",
    show_default=True,
    help="What the account may do in the app.",
)
@click.option(
    "--language",
    type=click.Choice(LANGUAGES),
    default="pt-BR",
    show_default=True,
    help="The account's preferred language.",
)
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password from the first line of stdin instead of generating one.",
)
@db_option
def add_reviewer(
    name: str, role: str, language: str, password_stdin: bool, db_url: str | None
) -> None:
    """Create an account; a generated password is printed once and never stored in clear."""
    from review_app.core.auth import add_account, generate_password

    password = _password_from_stdin() if password_stdin else generate_password()
    add_account(open_engine(db_url), name, role, password, language=language)
    click.echo(f"Account {name} ({role}) created.")
    if not password_stdin:
        click.echo(f"Password (shown only now): {password}")


def _password_from_stdin() -> str:
    from review_app.core.errors import ReviewInputError

    try:
        return sys.stdin.readline().rstrip("\r\n")
    except UnicodeDecodeError:
        raise ReviewInputError("error_password_encoding") from None
