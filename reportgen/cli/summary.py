"""`reportgen summary`: the per-model scores of one round, as a table or as JSON."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click
from rich.console import Console

SUMMARY_COLUMNS = 120


@click.command()
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the scores as JSON (unrounded), with crossed-bootstrap 95% intervals (ci).",
)
def summary(round_dir: Path, as_json: bool) -> None:
    """Score every model of the round archive ROUND_DIR.

    For an Estigmas round: the ranking (index, failure, bias, omission, correct decision
    and decision coverage, with their denominators N and n) and, below it, the
    diagnostic cases whose omission rate is above the round's eligibility limit. With
    --json, the same numbers unrounded, one object per model, rank null for diagnostic
    cases. Other kinds print their own scores.
    """
    from reportgen.archive import read_round
    from reportgen.kinds import get_kind

    # The JSON carries intervals from the full results object, which may read the
    # outputs' text; the table alone does not need it.
    round_ = read_round(round_dir, with_text=as_json)
    kind = get_kind(round_.manifest.kind)
    if as_json:
        click.echo(json.dumps(kind.summary_json(round_), indent=2, ensure_ascii=False))
    else:
        kind.print_summary(round_, _console())


def _console() -> Console:
    # Piped output has no terminal width; rich would then squeeze the table into 80
    # columns and cut the headings, so give it room unless COLUMNS says otherwise (120:
    # what every kind's summary is made to fit, tests/test_cli_newcomer.py).
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(width=SUMMARY_COLUMNS if wide else None)
