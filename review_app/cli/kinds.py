"""`reportgen review sample` and `export` of the kinds whose review has tasks of its own,
dispatched through the registry (`reportgen.kinds.review_part`): each kind's review
part does its own (multidomain: audit and calibration; counterfactual: the judge's
calibration and the extraction check); the app knows no kind by name."""

from __future__ import annotations

from collections.abc import Callable, Sequence
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
    a kind whose sample is the plain stratified draw (which has no --task). The task is
    checked here, once for every kind: one of the part's `tasks` (a missing --task is the
    only one, when there is one), else a usage error naming the kind's tasks."""
    from reportgen.kinds import SampleRequest, review_part
    from reportgen.kinds.rounds import kind_of_round

    kind = kind_of_round(round_dir).name
    part = review_part(kind)
    if part.sample is None:
        if task_type is not None:
            raise click.BadParameter(_no_tasks(kind), param_hint="--task")
        return False
    if task_type is None and len(part.tasks) == 1:
        task_type = part.tasks[0]
    if task_type is None or task_type not in part.tasks:
        raise click.BadParameter(_needs(kind, part.tasks), param_hint="--task")
    batch = part.sample(SampleRequest(round_dir, task_type, seed, reviewers, dry_run, open_engine))
    if batch is not None:
        click.echo(batch)
    return True


def _or(words: Sequence[str]) -> str:
    return " or ".join(filter(None, (", ".join(words[:-1]), words[-1])))


def _needs(kind: str, tasks: Sequence[str]) -> str:
    article = "an" if kind[:1].lower() in "aeiou" else "a"
    return f"{article} {kind} round needs {_or(tasks)}"


def _no_tasks(kind: str) -> str:
    """The refusal of a --task for a kind without tasks: the kinds that have some."""
    from reportgen.kinds import review_kind_names, review_part

    having = [
        f"{name} ({', '.join(review_part(name).tasks)})"
        for name in review_kind_names()
        if review_part(name).sample is not None
    ]
    return f"{kind} rounds have no task; the kinds with tasks: {', '.join(having)}"


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
    from reportgen.kinds import ExportRequest, review_part
    from reportgen.kinds.rounds import kind_of_round

    part = review_part(kind_of_round(round_dir).name)
    if part.export is None:
        return None
    return part.export(ExportRequest(round_dir, output, reviewer_map, force, open_engine))


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
