"""`reportgen review freeze-export`: the review export of a multidomain round frozen into
its archive (review_app.md_freeze)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from sqlalchemy import Engine


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
        from review_app.md_freeze import freeze_export as freeze

        frozen = freeze(open_engine(db_url), export_dir, round_dir)
        click.echo(
            f"Round {frozen.round_id}: {', '.join(frozen.tables)} frozen into {round_dir}; "
            f"SHA256SUMS {frozen.sums_sha256[:12]}… recorded."
        )

    return freeze_export
