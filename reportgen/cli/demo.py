"""`reportgen demo`: regenerate the bundled demonstration rounds."""

from __future__ import annotations

from pathlib import Path

import click


@click.group()
def demo() -> None:
    """Generated demonstration rounds that reproduce the article's figures."""


@demo.command()
@click.option(
    "--out",
    "out_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("rounds"),
    show_default=True,
    help="Folder that receives the two round archives (each must not exist yet).",
)
def generate(out_dir: Path) -> None:
    """Regenerate the demonstration rounds from their fixed seeds.

    Writes estigmas-2026-06 (full round, seven models) and idje-avalia-2026-07
    (continuous round, 28 models, two annulled items). The output is
    byte-identical to the archives committed under rounds/.
    """
    from reportgen.demo.generate import generate_demo_rounds

    out_dir.mkdir(parents=True, exist_ok=True)
    written = generate_demo_rounds(out_dir)
    click.echo(f"wrote {written.full}")
    click.echo(f"wrote {written.continuous}")
