"""`reportgen verify`: check round archives against the format specification."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import click

from reportgen.errors import ArchiveError, ReportgenError

if TYPE_CHECKING:
    from reportgen.model import Round


@click.command()
@click.argument("round_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
def verify(round_dirs: tuple[Path, ...]) -> None:
    """Check the round archives ROUND_DIRS and report every problem found.

    Checks round.json, the CSV tables, items.parquet, every response file, the
    SHA256SUMS checksums and the annulment ledger's hash chain of each archive, then
    the rules across archives (an item edited under the same id, a previous round).
    Prints one OK line per archive and exits 0 when every archive is valid; otherwise
    lists each problem (file, row or key, what was expected) and exits 1. The
    archives are never modified.
    """
    from reportgen.cli.lean import pandas_left_out
    from reportgen.kinds.rounds import check_across

    with pandas_left_out():  # pyarrow would load pandas, which no check uses
        rounds, failed = _read_rounds(round_dirs)
        across = check_across(rounds)
    if across:
        raise ArchiveError("across archives", across)
    for archive in rounds:
        click.echo(
            f"OK {archive.round_id}: {len(archive.models)} model(s), "
            f"{len(archive.items)} item(s), {len(archive.annulments)} annulled"
        )
    if failed:
        raise ReportgenError(f"{failed} of {len(round_dirs)} archives are invalid")


def _read_rounds(round_dirs: tuple[Path, ...]) -> tuple[list[Round], int]:
    """The valid rounds and how many were not (each reported; one alone raises)."""
    from reportgen.kinds.rounds import read_round

    rounds: list[Round] = []
    failed = 0
    for round_dir in round_dirs:
        try:
            rounds.append(read_round(round_dir, with_text=True))
        except ArchiveError as error:
            if len(round_dirs) == 1:
                raise
            click.echo(f"Error: {error}", err=True)
            failed += 1
    return rounds, failed
