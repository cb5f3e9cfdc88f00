"""`reportgen review freeze-export`: a round's review export frozen into its archive, by
its kind's review part (`reportgen.kinds.review_part`: the multidomain kind's)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from sqlalchemy import Engine

from reportgen.kinds import FreezeExport


def freeze_export_command(
    db_option: Callable[[Callable[..., Any]], Callable[..., Any]],
    open_engine: Callable[[str | None], Engine],
) -> click.Command:
    """The command, with the review group's `--db` option and engine."""

    @click.command("freeze-export")
    @click.argument("export_dir", type=click.Path(path_type=Path, file_okay=False))
    @click.argument("round_dir", type=click.Path(path_type=Path, file_okay=False))
    @db_option
    def freeze_export(export_dir: Path, round_dir: Path, db_url: str | None) -> None:
        """Freeze a multidomain review export (EXPORT_DIR, written by `reportgen review
        export`) into the round's archive (ROUND_DIR): its audit.parquet and
        calibration.parquet replace the archive's, SHA256SUMS is rewritten, the archive is
        verified, and the review database records its new identity (so that later ledger
        actions go on). Nothing changes if the archive would not verify."""
        engine = open_engine(db_url)  # a bad --db is refused first
        click.echo(freeze_of_kind(round_dir)(engine, export_dir, round_dir))

    return freeze_export


def freeze_of_kind(round_dir: Path) -> FreezeExport:
    """The freeze-export of the round's kind; a kind without one is refused (usage)."""
    from reportgen.kinds import review_part
    from reportgen.kinds.rounds import kind_of_round

    kind = kind_of_round(round_dir).name
    freeze = review_part(kind).freeze_export
    if freeze is None:
        raise click.UsageError(f"a {kind} round has no review export to freeze")
    return freeze
