"""The options of every command that renders a draft into a raw round (`reportgen render`,
a kind's own `render`): `--out`, the raw round to create, and `--seed`, the runs' order."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

F = TypeVar("F", bound=Callable[..., Any])

SEED_MAX = 2**63 - 1

raw_dir_option = click.option(
    "--out",
    "raw_dir",
    required=True,
    type=click.Path(path_type=Path),
    help="Raw round folder to create (it must not exist).",
)


def seed_option(help_text: str) -> Callable[[F], F]:
    """`--seed`, an int from 0 to SEED_MAX (None when absent), described by `help_text`."""
    return click.option(
        "--seed", type=click.IntRange(min=0, max=SEED_MAX), default=None, help=help_text
    )
