"""The opening lines of every kind's `reportgen summary`, printed as plain text."""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console

from reportgen.model import Round


def print_plain(console: Console, lines: Iterable[str]) -> None:
    """Each line as it is: no rich markup, no highlighting."""
    for line in lines:
        console.print(line, markup=False, highlight=False)


def print_heading(
    console: Console,
    round_: Round,
    label: str,
    facts: str,
    *,
    notes: Iterable[str] = (),
    outputs: str = "model",
) -> None:
    """`Round <id> (<label>)`, the round's facts, the kind's `notes`, then, for a round of
    demonstration data, the notice saying so (`outputs`: whose outputs they are not)."""
    synthetic = round_.manifest.synthetic
    notice = [f"These are generated demonstration data, not real {outputs} outputs."]
    print_plain(console, [f"Round {round_.round_id} ({label})", facts, *notes])
    print_plain(console, notice if synthetic else [])
