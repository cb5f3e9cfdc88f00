"""`reportgen review serve`: the review app behind its own HTTP layer (review_app.server):
the session cookie set by the server, forwarded headers believed only from configured
proxies, security headers on every response."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import Any

import click
from sqlalchemy import Engine

_PROXY_HELP = (
    "Address or network (such as 10.0.0.0/24) of a reverse proxy whose X-Forwarded-For and "
    "X-Forwarded-Proto are believed (repeatable; default: $REVIEW_TRUSTED_PROXIES, else "
    "none: the headers are ignored and the connection's address is the client's)."
)
_SECURE_HELP = (
    "Mark the session cookie Secure even when the app itself is reached over http "
    "(behind a TLS proxy not named by --trusted-proxy)."
)


def _checked_proxies(trusted_proxies: tuple[str, ...]) -> str:
    """The trusted proxies, comma-separated: the options', else $REVIEW_TRUSTED_PROXIES;
    a usage error (exit 2) names one that is not an address or network."""
    from review_app.core.errors import ReviewInputError
    from review_app.core.web import TRUSTED_PROXIES_VARIABLE, parse_proxies

    proxies = ",".join(trusted_proxies) or os.environ.get(TRUSTED_PROXIES_VARIABLE, "")
    try:
        parse_proxies(proxies)
    except ReviewInputError as error:
        raise click.BadParameter(error.message("en"), param_hint="--trusted-proxy") from None
    return proxies


def serve_command(
    db_option: Callable[[Callable[..., Any]], Callable[..., Any]],
    open_engine: Callable[[str | None], Engine],
) -> click.Command:
    """The command, with the review group's `--db` option and engine."""

    @click.command("serve")
    @click.option(
        "--port",
        type=click.IntRange(1, 65535),
        default=8501,
        show_default=True,
        help="Port to listen on.",
    )
    @click.option("--address", default="127.0.0.1", show_default=True, help="Address to listen on.")
    @click.option(
        "--trusted-proxy",
        "trusted_proxies",
        multiple=True,
        metavar="ADDR",
        help=_PROXY_HELP,
    )
    @click.option(
        "--secure-cookie",
        is_flag=True,
        help=_SECURE_HELP,
    )
    @db_option
    def serve(
        port: int,
        address: str,
        trusted_proxies: tuple[str, ...],
        secure_cookie: bool,
        db_url: str | None,
    ) -> None:
        """Start the review app on this machine until interrupted: Streamlit behind the
        server's session routes (HttpOnly cookie) and security headers."""
        from review_app.core.storage import database_url

        proxies = _checked_proxies(trusted_proxies)
        open_engine(db_url)
        environment = dict(
            os.environ,
            REVIEW_DB_URL=database_url(db_url),
            REVIEW_TRUSTED_PROXIES=proxies,
            REVIEW_SECURE_COOKIE="1" if secure_cookie else "",
            FORWARDED_ALLOW_IPS="",  # uvicorn believes no proxy itself: review_app.core.web does
        )
        command = [
            sys.executable, "-m", "review_app.server", "--port", str(port), "--address", address,
        ]  # fmt: skip
        # Replace this process: signals (Ctrl-C, a service manager's stop) reach the server.
        os.execve(sys.executable, command, environment)

    return serve
