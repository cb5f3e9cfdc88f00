"""`reportgen review sample`, `close-batch`, `reopen-batch` and `publish`: a round's
batches from the draw to the contestation window."""

from __future__ import annotations

from datetime import UTC, date, datetime
from pathlib import Path

import click

from reportgen.cli.params import NumberRange
from review_app.cli.common import BATCH_ID, db_option, open_engine
from review_app.cli.sampling import parse_quotas

SEED_MAX = 2**31 - 1  # the batches table stores the seed in a 32-bit integer


@click.command()
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--fraction",
    type=NumberRange(0.0, 1.0, min_open=True),
    default=0.10,
    show_default=True,
    help="Share of each model × style × language stratum to draw.",
)
@click.option(
    "--min-per-stratum",
    type=click.IntRange(min=0),
    default=3,
    show_default=True,
    help="Smallest number of samples drawn from any stratum.",
)
@click.option(
    "--overlap",
    type=click.IntRange(min=1),
    default=2,
    show_default=True,
    help="How many distinct reviewers judge each sample.",
)
@click.option(
    "--seed",
    type=click.IntRange(0, SEED_MAX),
    default=None,
    help="Seed of the draw and of the order (required unless --dry-run of a fixed draw).",
)
@click.option(
    "--reviewer",
    "reviewers",
    multiple=True,
    metavar="NAME",
    help="A reviewer of this batch (repeat it; default: every reviewer account).",
)
@click.option(
    "--quota",
    "quotas",
    multiple=True,
    metavar="[NAME=]N",
    help="Most samples a reviewer gets in this batch: NAME=N for one, N for every one.",
)
@click.option(
    "--task",
    "task_type",
    metavar="TASK",
    default=None,
    help=(
        "The review task of a kind whose review part has its own (the kinds' registry); "
        "one the part does not offer is refused. Multidomain rounds: the Art. 26 audit (the spec's "
        "draw, one reviewer per response) or the Art. 22 calibration (every calibration "
        "response, two reviewers). "
        "Counterfactual rounds: calibration (a blind sample of judged answers by group) or "
        "extraction (people check a sample of the binary extractions and of the counts a "
        "model extracted: yes/no, or the number)."
    ),
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print the drawn units as CSV and write nothing.",
)
@db_option
def sample(
    round_dir: Path,
    fraction: float,
    min_per_stratum: int,
    overlap: int,
    seed: int | None,
    reviewers: tuple[str, ...],
    quotas: tuple[str, ...],
    task_type: str | None,
    dry_run: bool,
    db_url: str | None,
) -> None:
    """Draw a stratified, anonymised sample of a round and assign it to the reviewers.

    The same round and seed draw the same outputs, so a second batch with them is refused.
    A multidomain round needs --task (its samples are the ones its spec fixes); a
    counterfactual round --task calibration (the blind sample of its judge's scores), of
    its archive or, before the first freeze, of its filled raw folder."""
    from review_app.cli.kinds import sample_of_kind

    if sample_of_kind(round_dir, task_type, seed, reviewers, dry_run, lambda: open_engine(db_url)):
        return
    if seed is None:
        raise click.BadParameter("a seed is required", param_hint="--seed")
    from reportgen.kinds.rounds import read_round
    from review_app.rounds.sampling import create_batch, draw_sample

    round_ = read_round(round_dir, with_text=True)
    if dry_run:
        drawn = draw_sample(round_, fraction=fraction, min_per_stratum=min_per_stratum, seed=seed)
        from review_app.core.spreadsheet import csv_text

        rows = [(unit.item_id, unit.model_id) for unit in drawn]
        click.echo(csv_text(("item_id", "model_id"), rows), nl=False)
        return
    quota_by_name = parse_quotas(quotas, reviewers)
    engine = open_engine(db_url)
    batch_id = create_batch(
        engine,
        round_,
        fraction=fraction,
        min_per_stratum=min_per_stratum,
        overlap=overlap,
        seed=seed,
        reviewers=list(reviewers) or None,
        quotas=quota_by_name(engine),
    )
    from review_app.cli.batches import sample_summary

    click.echo(sample_summary(engine, batch_id))


@click.command("close-batch")
@click.argument("batch_id", type=BATCH_ID)
@db_option
def close_batch(batch_id: int, db_url: str | None) -> None:
    """Close a batch: its judgments are final and reviewers can no longer revise them."""
    from review_app.rounds.admin import close_batch_as

    close_batch_as(open_engine(db_url), batch_id, None)
    click.echo(f"Batch {batch_id} closed.")


@click.command("reopen-batch")
@click.argument("batch_id", type=BATCH_ID)
@db_option
def reopen_batch(batch_id: int, db_url: str | None) -> None:
    """Reopen a closed batch: its reviewers may revise their judgments again (logged)."""
    from review_app.rounds.batches import reopen_batch_as

    reopen_batch_as(open_engine(db_url), batch_id, None)
    click.echo(f"Batch {batch_id} reopened.")


@click.command()
@click.argument("round_id")
@click.option(
    "--on",
    "published_on",
    type=click.DateTime(formats=["%Y-%m-%d"]),
    default=None,
    help="Publication date (default: today), which opens the contestation window.",
)
@click.option(
    "--window-days",
    type=click.IntRange(min=1),
    default=10,
    show_default=True,
    help="Days after publication during which items may be contested.",
)
@db_option
def publish(
    round_id: str, published_on: datetime | None, window_days: int, db_url: str | None
) -> None:
    """Record a sampled round's publication date, opening its contestation window."""
    from review_app.rounds.contest import publish_round

    moment = (published_on or datetime.combine(date.today(), datetime.min.time())).replace(
        tzinfo=UTC
    )
    publish_round(open_engine(db_url), round_id, moment, window_days)
    click.echo(f"Round {round_id} published on {moment.date()}; window {window_days} days.")
