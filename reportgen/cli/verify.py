"""`reportgen verify`: check a round archive against the format specification."""

from __future__ import annotations

from pathlib import Path

import click


@click.command()
@click.argument("round_dir", type=click.Path(path_type=Path))
def verify(round_dir: Path) -> None:
    """Check the round archive ROUND_DIR and report every problem found.

    Checks round.json, the CSV tables, items.parquet, every response file, the
    SHA256SUMS checksums and the annulment ledger's hash chain. Prints one OK line
    and exits 0 when the archive is valid; otherwise lists each problem (file, row
    or key, what was expected) and exits 1. The archive is never modified.
    """
    from reportgen.archive import read_round

    archive = read_round(round_dir, with_text=True)
    click.echo(
        f"OK {archive.round_id}: {len(archive.models)} model(s), {len(archive.items)} item(s), "
        f"{len(archive.annulments)} annulled"
    )
