"""`reportgen review`: set up and run the blind review app, sample rounds, export audits."""

from __future__ import annotations

import sys
from collections.abc import Callable
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, TypeVar

import click
from sqlalchemy import Engine

from reportgen.cli.params import NumberRange
from reportgen.cli.review_accounts import unlock_command
from reportgen.cli.review_batches import batch_commands, sample_summary
from reportgen.cli.review_freeze import freeze_export_command
from reportgen.cli.review_sampling import parse_quotas
from reportgen.cli.review_server import serve_command
from reportgen.model import TEXT_LANGUAGES as LANGUAGES
from review_app.db import ROLES

F = TypeVar("F", bound=Callable[..., Any])


SEED_MAX = 2**31 - 1  # the batches table stores the seed in a 32-bit integer


def _db_option(function: F) -> F:
    return click.option(
        "--db",
        "db_url",
        default=None,
        metavar="URL",
        help=(
            "SQLAlchemy database URL: sqlite:///FILE or postgresql+psycopg://USER@HOST/DB "
            "(default: $REPORTGEN_REVIEW_DB, else the SQLite file review.db here). Leave the "
            "PostgreSQL password out of it: libpq reads it from ~/.pgpass or $PGPASSFILE."
        ),
    )(function)


def _engine(db_url: str | None) -> Engine:
    from review_app.storage import database_url, open_database

    engine = open_database(database_url(db_url))
    # Close the pool when the command ends (a PostgreSQL server counts open connections).
    click.get_current_context().call_on_close(engine.dispose)
    return engine


class _ReviewGroup(click.Group):
    """The review commands: a database error is one line (exit 1), never a traceback,
    and its text (which may quote the SQL) is not shown."""

    def invoke(self, ctx: click.Context) -> Any:
        from sqlalchemy.exc import SQLAlchemyError

        from review_app.errors import ReviewError

        try:
            return super().invoke(ctx)
        except SQLAlchemyError as error:
            raise ReviewError("error_database", kind=type(error).__name__) from error


@click.group(cls=_ReviewGroup)
def review() -> None:
    """Run the blind human review of a round: accounts, samples, the app and exports.

    Reviewers judge anonymised outputs in a Streamlit app; administrators calibrate
    against the parser and decide contestations.
    """


@review.command()
@_db_option
def init(db_url: str | None) -> None:
    """Create the review database tables (safe to run again on an existing database)."""
    _engine(db_url)
    click.echo("Review database ready.")


@review.command("add-reviewer")
@click.argument("name")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default="reviewer",
    show_default=True,
    help="What the account may do in the app.",
)
@click.option(
    "--language",
    type=click.Choice(LANGUAGES),
    default="pt-BR",
    show_default=True,
    help="The account's preferred language.",
)
@click.option(
    "--password-stdin",
    is_flag=True,
    help="Read the password from the first line of stdin instead of generating one.",
)
@_db_option
def add_reviewer(
    name: str, role: str, language: str, password_stdin: bool, db_url: str | None
) -> None:
    """Create an account; a generated password is printed once and never stored in clear."""
    from review_app.auth import add_account, generate_password

    password = sys.stdin.readline().rstrip("\r\n") if password_stdin else generate_password()
    add_account(_engine(db_url), name, role, password, language=language)
    click.echo(f"Account {name} ({role}) created.")
    if not password_stdin:
        click.echo(f"Password (shown only now): {password}")


@review.command()
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
    type=click.Choice(("audit", "calibration")),
    default=None,
    help=(
        "Multidomain rounds: the Art. 26 audit (the spec's draw, one reviewer per "
        "response) or the Art. 22 calibration (every calibration response, two reviewers). "
        "Counterfactual rounds: calibration (a blind sample of judged answers by group)."
    ),
)
@click.option(
    "--dry-run",
    is_flag=True,
    help="Print the drawn units as CSV and write nothing.",
)
@_db_option
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
    from reportgen.cli.review_kinds import sample_of_kind

    if sample_of_kind(round_dir, task_type, seed, reviewers, dry_run, lambda: _engine(db_url)):
        return
    if seed is None:
        raise click.BadParameter("a seed is required", param_hint="--seed")
    from reportgen.archive import read_round
    from review_app.sampling import create_batch, draw_sample

    round_ = read_round(round_dir, with_text=True)
    if dry_run:
        drawn = draw_sample(round_, fraction=fraction, min_per_stratum=min_per_stratum, seed=seed)
        click.echo("item_id,model_id")
        for unit in drawn:
            click.echo(f"{unit.item_id},{unit.model_id}")
        return
    quota_by_name = parse_quotas(quotas, reviewers)
    engine = _engine(db_url)
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
    click.echo(sample_summary(engine, batch_id))


@review.command("close-batch")
@click.argument("batch_id", type=click.IntRange(min=1))
@_db_option
def close_batch(batch_id: int, db_url: str | None) -> None:
    """Close a batch: its judgments are final and reviewers can no longer revise them."""
    from review_app.admin import close_batch_as

    close_batch_as(_engine(db_url), batch_id, None)
    click.echo(f"Batch {batch_id} closed.")


@review.command()
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
@_db_option
def publish(
    round_id: str, published_on: datetime | None, window_days: int, db_url: str | None
) -> None:
    """Record a sampled round's publication date, opening its contestation window."""
    from review_app.contest import publish_round

    moment = (published_on or datetime.combine(date.today(), datetime.min.time())).replace(
        tzinfo=UTC
    )
    publish_round(_engine(db_url), round_id, moment, window_days)
    click.echo(f"Round {round_id} published on {moment.date()}; window {window_days} days.")


@review.command()
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help=(
        "Where to write: the JSON file (default: audits/<round_id>.json, read by `reportgen "
        "build`); for a multidomain (counterfactual) round the folder of audit.parquet and "
        "calibration.parquet (calibration.parquet; calibration.jsonl for a raw round, "
        "e.g. --output RAW_DIR) (default: review-export/<round_id>/), to freeze with the round."
    ),
)
@click.option(
    "--reviewer-map",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help=(
        "Multidomain: CSV `account,judge_id` naming each review account's human reviewer "
        "in judges.csv (default: an account is the judge whose judge_id is its name)."
    ),
)
@click.option("--force", is_flag=True, help="Replace existing output files.")
@_db_option
def export(
    round_dir: Path, output: Path | None, reviewer_map: Path | None, force: bool, db_url: str | None
) -> None:
    """Write the audit results (agreement, confusion, contestations) the site's page shows;
    for a multidomain round, the human scores (audit.parquet, calibration.parquet); for a
    counterfactual round, the hand scores of the judge's masked inputs (calibration.parquet;
    calibration.jsonl, the raw form freeze reads, for a raw round)."""
    from reportgen.archive import read_round
    from reportgen.cli.review_kinds import export_of_kind
    from review_app.export import audit_results, write_export

    done = export_of_kind(round_dir, output, reviewer_map, force, lambda: _engine(db_url))
    if done is not None:
        click.echo(done)
        return
    round_id = read_round(round_dir, with_text=False).round_id
    results = audit_results(_engine(db_url), round_id)
    target = output or Path("audits") / f"{round_id}.json"
    write_export(results, target, force=force)
    click.echo(f"Audit results of round {round_id} written to {target}.")


@review.command("verify-audit")
@_db_option
def verify_audit(db_url: str | None) -> None:
    """Check the audit log's hash chain; name the first entry that breaks it (exit 1)."""
    from review_app.audit_chain import verify_audit_chain

    engine = _engine(db_url)
    try:
        chain = verify_audit_chain(engine)
    finally:
        engine.dispose()
    head = chain.head_sha256 or "none"
    click.echo(f"Audit log intact: {chain.entries} entries; hash of the newest: {head}.")


@review.command("reopen-batch")
@click.argument("batch_id", type=click.IntRange(min=1))
@_db_option
def reopen_batch(batch_id: int, db_url: str | None) -> None:
    """Reopen a closed batch: its reviewers may revise their judgments again (logged)."""
    from review_app.batches import reopen_batch_as

    reopen_batch_as(_engine(db_url), batch_id, None)
    click.echo(f"Batch {batch_id} reopened.")


@review.command("export-judgments")
@click.argument("round_dir", type=click.Path(path_type=Path))
@click.option(
    "--output",
    type=click.Path(path_type=Path, dir_okay=False),
    required=True,
    help="The file to write: .csv, or .jsonl (JSON Lines). It unblinds the samples.",
)
@click.option("--force", is_flag=True, help="Replace an existing output file.")
@_db_option
def export_judgments(round_dir: Path, output: Path, force: bool, db_url: str | None) -> None:
    """Write every judgment of a round: pseudonymised reviewer, time, sample, answer,
    note and adjudication, one row each."""
    from reportgen.archive import read_round
    from review_app.judgment_export import export_format, judgment_rows, write_judgments

    export_format(output)  # a wrong suffix fails before any work
    round_id = read_round(round_dir, with_text=False).round_id
    rows = judgment_rows(_engine(db_url), round_id)
    write_judgments(rows, output, force=force)
    noun = "judgment" if len(rows) == 1 else "judgments"
    click.echo(f"{len(rows)} {noun} of round {round_id} written to {output}.")


review.add_command(freeze_export_command(_db_option, _engine))
review.add_command(unlock_command(_db_option, _engine))
review.add_command(serve_command(_db_option, _engine))
for _command in batch_commands(_db_option, _engine):
    review.add_command(_command)
