"""`reportgen summary`: the per-model scores of one round, as a table or as JSON.

The answer is cached by the archive's frozen bytes (`reportgen.results.cached_answer`):
a second run on an unchanged archive prints it without reading the round, so it loads
neither numpy nor pyarrow.
"""

from __future__ import annotations

import io
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
@click.option(
    "--no-cache",
    is_flag=True,
    help="Read and score the round even when the cache holds its answer (and store none).",
)
def summary(round_dir: Path, as_json: bool, no_cache: bool) -> None:
    """Score every model of the round archive ROUND_DIR.

    For an Estigmas round: the ranking (index, failure, bias, omission, correct decision
    and decision coverage, with their denominators N and n) and, below it, the
    diagnostic cases whose omission rate is above the round's eligibility limit. With
    --json, the same numbers unrounded, one object per model, rank null for diagnostic
    cases. Other kinds print their own scores. The answer is cached: a second run on
    the unchanged archive prints it without reading the round again.
    """
    from reportgen.kinds import added_kinds
    from reportgen.results import cached_answer

    console = _console()
    if as_json:
        parameters = ["summary", "json"]
    else:
        parameters = ["summary", "table", *_console_settings(console)]

    def produce() -> str:
        return _answer(round_dir, console if not as_json else None)

    # A kind added at run time is not the package's code, which the cache's key covers.
    cache = not no_cache and not added_kinds()
    text = cached_answer(round_dir, parameters, produce) if cache else produce()
    console.file.write(text)
    console.file.flush()


def _answer(round_dir: Path, console: Console | None) -> str:
    """The text of the summary (JSON without `console`), from the round itself."""
    from reportgen.cli.lean import pandas_left_out
    from reportgen.kinds import get_kind
    from reportgen.kinds.rounds import read_round

    # The JSON carries intervals from the full results object, which may read the
    # outputs' text; the table alone does not need it.
    with pandas_left_out():
        round_ = read_round(round_dir, with_text=console is None)
    kind = get_kind(round_.manifest.kind)
    if console is None:
        return json.dumps(kind.summary_json(round_), indent=2, ensure_ascii=False) + "\n"
    buffer = io.StringIO()
    kind.print_summary(round_, _like(console, buffer))
    return buffer.getvalue()


def _console() -> Console:
    # Piped output has no terminal width; rich would then squeeze the table into 80
    # columns and cut the headings, so give it room unless COLUMNS says otherwise (120:
    # what every kind's summary is made to fit, tests/test_cli_newcomer.py).
    wide = not sys.stdout.isatty() and "COLUMNS" not in os.environ
    return Console(width=SUMMARY_COLUMNS if wide else None)


def _console_settings(console: Console) -> list[str]:
    """What the table's text depends on besides the round (part of its cache key)."""
    return [
        f"width={console.width}",
        f"terminal={console.is_terminal}",
        f"colors={console.color_system}",
        f"legacy_windows={console.legacy_windows}",
        f"encoding={console.encoding}",
    ]


def _like(console: Console, buffer: io.StringIO) -> Console:
    """A console that writes to `buffer` what `console` would write to the terminal."""
    return Console(
        file=buffer,
        width=console.width,
        force_terminal=console.is_terminal,
        color_system=console.color_system,  # type: ignore[arg-type]  # a name rich gave
        legacy_windows=console.legacy_windows,
        no_color=console.no_color,
    )
