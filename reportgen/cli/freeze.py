"""`reportgen freeze`: label a raw round's outputs and write it as a frozen archive."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("raw_dir", type=click.Path(path_type=Path))
@click.option(
    "--out",
    "out_dir",
    required=True,
    type=click.Path(path_type=Path),
    help="Archive folder to create; its name must be the round id, and it must not exist.",
)
def freeze(raw_dir: Path, out_dir: Path) -> None:
    """Freeze the raw round RAW_DIR into a round archive at --out.

    RAW_DIR is laid out like an archive, but its response files have no label
    column and it has no SHA256SUMS. Every output is labelled with the
    deterministic parser, whose version is recorded in round.json; checksums are
    written last. On any problem nothing is written.
    """
    from reportgen.kinds.estigmas.freeze import freeze_round
    from reportgen.kinds.estigmas.parse import PARSER_VERSION

    freeze_round(raw_dir, out_dir)
    click.echo(f"froze {raw_dir} into {out_dir} (parser {PARSER_VERSION})")
