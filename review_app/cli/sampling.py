"""`reportgen review sample`'s helpers: the multidomain tasks and `--quota` values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click
from sqlalchemy import Engine


def sample_multidomain(
    round_dir: Path,
    task_type: str | None,
    seed: int | None,
    reviewers: tuple[str, ...],
    dry_run: bool,
    open_engine: Callable[[], Engine],
) -> str | None:
    """`sample --task` of a multidomain round: the CSV (dry run) is printed here; a
    stored batch returns the line to print."""
    from review_app.md_round import read_md_round
    from review_app.md_sampling import create_rubric_batch, dry_run_csv

    if task_type is None:
        raise click.BadParameter(
            "a multidomain round needs audit or calibration", param_hint="--task"
        )
    round_ = read_md_round(round_dir, with_text=True)
    if dry_run:
        click.echo(dry_run_csv(round_, task_type), nl=False)
        return None
    if seed is None:
        raise click.BadParameter(
            "a seed is required (the order reviewers see)", param_hint="--seed"
        )
    from review_app.cli.batches import sample_summary

    engine = open_engine()
    batch_id = create_rubric_batch(
        engine, round_, task_type=task_type, seed=seed, reviewers=list(reviewers) or None
    )
    return sample_summary(engine, batch_id)


def parse_quotas(
    values: tuple[str, ...], reviewers: tuple[str, ...]
) -> Callable[[Engine], dict[str, int]]:
    """`--quota` values as name -> quota; a bare N applies to every reviewer of the batch,
    known once the database is open (hence a function of the engine)."""
    named: dict[str, int] = {}
    every: int | None = None
    for value in values:
        name, _, number = value.rpartition("=")
        if not number.isdigit():
            raise click.BadParameter(f"{value!r} is not N or NAME=N", param_hint="--quota")
        if name:
            named[name] = int(number)
        else:
            every = int(number)

    def resolve(engine: Engine) -> dict[str, int]:
        if every is None:
            return named
        from sqlalchemy import select

        from review_app.core.db import accounts

        with engine.connect() as connection:
            names = reviewers or tuple(
                connection.execute(
                    select(accounts.c.name).where(accounts.c.role == "reviewer")
                ).scalars()
            )
        return dict.fromkeys(names, every) | named

    return resolve
