"""`reportgen freeze`: label a raw round's outputs and write it as a frozen archive."""

from __future__ import annotations

from pathlib import Path

import click

from reportgen.cli.params import path_option


@click.command()
@click.argument("raw_dir", type=click.Path(path_type=Path))
@path_option(
    "--out",
    "out_dir",
    required=True,
    help="Archive folder to create; its name must be the round id, and it must not exist.",
)
def freeze(raw_dir: Path, out_dir: Path) -> None:
    """Freeze the raw round RAW_DIR into a round archive at --out.

    RAW_DIR is laid out like an archive, but it has no SHA256SUMS and its responses
    are not scored yet. Its kind scores them: for Estigmas, every output is labelled
    with the deterministic parser, whose version is recorded in round.json; for a
    multidomain round, the mcq and calc answers are read by the deterministic
    extractor (Art. 23) whose version round.json declares. Checksums are written
    last; the archive is verified before it is moved into place. On any problem
    nothing is written.
    """
    from reportgen.kinds.rounds import kind_of_round

    note = kind_of_round(raw_dir).freeze(raw_dir, out_dir)
    click.echo(f"froze {raw_dir} into {out_dir} ({note})")
