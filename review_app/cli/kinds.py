"""`reportgen review sample` and `export` of the kinds whose review has tasks of its own,
dispatched through the registry (`reportgen.kinds.review_part`): each kind's review
part does its own (multidomain: audit and calibration; counterfactual: the judge's
calibration and the extraction check); the app knows no kind by name."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
from sqlalchemy import Engine


def sample_of_kind(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: Callable[[], Engine],
) -> bool:
    """`sample` of a round whose kind samples its own tasks, done here (True); False for
    a kind whose sample is the plain stratified draw (which has no --task)."""
    from reportgen.kinds import review_kind_names, review_part
    from reportgen.kinds.rounds import kind_of_round

    part = review_part(kind_of_round(round_dir).name)
    if part.sample is None:
        if task_type is not None:
            phrases = [review_part(name).tasks_phrase for name in review_kind_names()]
            raise click.BadParameter(
                "only " + ", and ".join(p for p in phrases if p), param_hint="--task"
            )
        return False
    batch = part.sample(round_dir, task_type, seed, reviewers, dry_run, open_engine)
    if batch is not None:
        click.echo(batch)
    return True


def export_of_kind(
    round_dir: Path,
    output: Path | None,
    reviewer_map: Path | None,
    force: bool,
    open_engine: Callable[[], Engine],
) -> str | None:
    """`export` of a round whose kind exports its own files (multidomain: audit.parquet,
    calibration.parquet; counterfactual: calibration.parquet and the mask audit): what
    to tell the user; None for a kind without (the audit results' JSON)."""
    from reportgen.kinds import review_part
    from reportgen.kinds.rounds import kind_of_round

    part = review_part(kind_of_round(round_dir).name)
    if part.export is None:
        return None
    return part.export(round_dir, output, reviewer_map, force, open_engine)


def kind_commands(
    db_option: Callable[[Callable[..., Any]], Callable[..., Any]],
    open_engine: Callable[[str | None], Engine],
) -> list[click.Command]:
    """The `reportgen review` subcommands the kinds' review parts add, made with the
    group's `--db` option and engine."""
    from reportgen.kinds import review_kind_names, review_part

    commands: list[click.Command] = []
    for name in review_kind_names():
        made = review_part(name).commands
        commands.extend(() if made is None else made(db_option, open_engine))
    return commands
