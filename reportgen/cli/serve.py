"""`reportgen serve`: preview the built site on localhost; `--watch` rebuilds and reloads."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.params import path_option
from reportgen.errors import InputError


@click.command(name="serve")
@path_option("--dir", "site_dir", default=Path("site"), help="The built site to serve.")
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8000,
    show_default=True,
    help="Port on 127.0.0.1.",
)
@click.option(
    "--watch",
    is_flag=True,
    help="Build the site into --dir, rebuild it when a template, site.yml or a round "
    "changes, and reload the browser (the reload script is added by the preview only).",
)
@path_option(
    "--rounds-dir",
    help="With --watch: the archives to build [default: rounds].",
)
@path_option(
    "--config",
    "config_path",
    help="With --watch: the article's metadata file [default: site.yml].",
)
@path_option(
    "--templates",
    "theme_dir",
    help="With --watch: the theme overrides folder [default: templates/overrides].",
)
@path_option(
    "--cache-dir",
    help="With --watch: cache of statistical results [default: $REPORTGEN_CACHE_DIR or "
    "~/.cache/reportgen].",
)
def serve(
    site_dir: Path,
    port: int,
    watch: bool,
    rounds_dir: Path | None,
    config_path: Path | None,
    theme_dir: Path | None,
    cache_dir: Path | None,
) -> None:
    """Preview the built site at http://127.0.0.1:PORT/ (after `reportgen build`).

    With --watch, the site is built first and rebuilt after every change to the theme,
    the page templates, site.yml or the rounds; open pages reload themselves.
    """  # fmt: skip
    from reportgen.preview import Generation, Watcher, preview_server

    watcher = None
    generation = None
    if watch:
        from reportgen.build import build_site, find_rounds
        from reportgen.cli.build import default_path

        rounds_root = rounds_dir or default_path("rounds")
        config_file = config_path or default_path("site.yml")
        theme = theme_dir or default_path("templates/overrides")

        def rebuild() -> object:
            return build_site(
                find_rounds(rounds_root),
                site_dir,
                config_path=config_file,
                theme_dir=theme,
                cache_dir=cache_dir,
            )

        click.echo(f"building {site_dir} from {rounds_root}")
        rebuild()
        generation = Generation()
        watcher = Watcher(rebuild, (theme, config_file, rounds_root), generation, click.echo)
    elif not (site_dir / "index.html").is_file():
        raise InputError(f"{site_dir}: no built site here (run `reportgen build` first)")
    with preview_server(site_dir, port, generation) as server:
        address = f"http://127.0.0.1:{server.server_address[1]}/"
        click.echo(f"serving {site_dir} at {address} (Ctrl+C stops)")
        if watcher is not None:
            watcher.start()
            click.echo("watching the theme, the page templates, site.yml and the rounds")
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            click.echo("stopped")
        finally:
            if watcher is not None:
                watcher.stop()
