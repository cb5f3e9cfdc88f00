"""`reportgen serve`: preview the built site on localhost."""

from __future__ import annotations

import functools
import http.server
from pathlib import Path

import click

from reportgen.errors import InputError


@click.command(name="serve")
@click.option(
    "--dir",
    "site_dir",
    type=click.Path(path_type=Path),
    default=Path("site"),
    show_default=True,
    help="The built site to serve.",
)
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1.",
)
def serve(site_dir: Path, port: int) -> None:
    """Preview the built site at http://127.0.0.1:PORT/ (after `reportgen build`)."""
    if not (site_dir / "index.html").is_file():
        raise InputError(f"{site_dir}: no built site here (run `reportgen build` first)")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site_dir))
    with http.server.ThreadingHTTPServer(("127.0.0.1", port), handler) as server:
        click.echo(
            f"serving {site_dir} at http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C stops)"
        )
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo("stopped")
