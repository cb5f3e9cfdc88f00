"""`reportgen review release-batch` and `settings`: the leak review of new batches
(review_app.rounds.batch_release), and the line `review sample` prints about the batch it drew."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import click
from sqlalchemy import Engine

if TYPE_CHECKING:
    from reportgen.kinds._review import SampleRequest

R = TypeVar("R")


def sample_own_task(
    request: SampleRequest,
    read: Callable[[Path], R],
    csv_of: Callable[[R, int | None], str],
    store: Callable[[Engine, R, int, list[str] | None], int],
    *,
    seed_reason: str,
    dry_run_needs_seed: bool = True,
) -> str | None:
    """`review sample` of a kind's own task, the one way the kinds' review parts do it:
    the round (`read`), then with `--dry-run` the drawn units' CSV (`csv_of(round, seed)`)
    printed, else the batch stored (`store(engine, round, seed, reviewers or None)`) and
    the line to print about it (`sample_summary`). A missing seed is refused (exit 2,
    saying what it decides: `seed_reason`), before the round is read, or only when the
    batch is stored if the dry run does not need one."""
    seed = request.seed
    if seed is None and dry_run_needs_seed:
        raise click.BadParameter(f"a seed is required ({seed_reason})", param_hint="--seed")
    round_ = read(request.round_dir)
    if request.dry_run:
        click.echo(csv_of(round_, seed), nl=False)
        return None
    if seed is None:
        raise click.BadParameter(f"a seed is required ({seed_reason})", param_hint="--seed")
    engine = request.open_engine()
    return sample_summary(engine, store(engine, round_, seed, list(request.reviewers) or None))


def sample_summary(engine: Engine, batch_id: int) -> str:
    """One line: how many samples, which batch, each reviewer's share, and whether the
    batch is held (and how to release it) or was released automatically."""
    from review_app.rounds.batch_release import batch_summary

    summary = batch_summary(engine, batch_id)
    task = f" ({summary.task_type})" if summary.task_type else ""
    shares = ", ".join(f"{name} {count}" for name, count in summary.per_reviewer.items())
    drawn = (
        f"Batch {batch_id}{task} of round {summary.round_id} created: "
        f"{_samples(summary.samples)} drawn; per reviewer: {shares or 'none'}."
    )
    if summary.release.held:
        return (
            f"{drawn} Held: no reviewer sees it until an administrator reads its leak report "
            f"and releases it (reportgen review release-batch {batch_id}, or the batches page)."
        )
    return f"{drawn} Released automatically: its leak report is empty."


def _samples(count: int) -> str:
    return f"{count} sample" if count == 1 else f"{count} samples"


def _printable(fragment: str) -> str:
    """A fragment of a model's text as a terminal may show it: controls escaped."""
    return "".join(c if c.isprintable() else f"\\x{ord(c):02x}" for c in fragment)


def _print_report(engine: Engine, batch_id: int) -> None:
    from review_app.i18n import translate
    from review_app.rounds.batch_release import batch_summary, leak_report_as

    summary = batch_summary(engine, batch_id)
    report = leak_report_as(engine, batch_id)
    flagged = sum(1 for entry in report if entry.suspicions)
    held = sum(1 for entry in report if entry.held)
    click.echo(f"Batch {batch_id} of round {summary.round_id}: {_samples(summary.samples)}.")
    click.echo(f"Leak report: {_samples(flagged)} flagged, {held} held back.")
    for entry in report:
        mark = " (held back)" if entry.held else ""
        for suspicion in entry.suspicions:
            where = "prompt" if suspicion.text_index == 0 else "output"
            reason = translate("en", f"leak_reason_{suspicion.reason}")
            fragment = _printable(suspicion.fragment)
            click.echo(f"  {entry.code}{mark}: {where}: «{fragment}» ({reason})")
        if not entry.suspicions:
            click.echo(f"  {entry.code}{mark}")


DbOption = Callable[[Callable[..., Any]], Callable[..., Any]]


def batch_commands(
    db_option: DbOption, open_engine: Callable[[str | None], Engine]
) -> list[click.Command]:
    """The commands, with the review group's `--db` option and engine."""
    return [_release_command(db_option, open_engine), _settings_command(db_option, open_engine)]


def _release_command(
    db_option: DbOption, open_engine: Callable[[str | None], Engine]
) -> click.Command:
    @click.command("release-batch")
    @click.argument("batch_id", type=click.IntRange(min=1))
    @click.option("--yes", is_flag=True, help="Release without asking, after the report.")
    @db_option
    def release_batch(batch_id: int, yes: bool, db_url: str | None) -> None:
        """Show a held batch's leak report, then release the batch to its reviewers
        (logged with the number of samples the report flagged). Hold back the samples you
        do not trust first, on the app's batches page."""
        from review_app.rounds.batch_release import VIA_CLI, release_batch_as, release_state

        engine = open_engine(db_url)
        with engine.connect() as connection:
            state = release_state(connection, batch_id)
        if not state.held:
            click.echo(f"Batch {batch_id} was already released ({state.released_via}).")
            return
        _print_report(engine, batch_id)
        if not yes:
            click.confirm(f"Release batch {batch_id} to its reviewers?", abort=True)
        released = release_batch_as(engine, batch_id, None, VIA_CLI)
        click.echo(
            f"Batch {batch_id} released to its reviewers "
            f"({_samples(released.flagged_at_release or 0)} flagged by its leak report)."
        )

    return release_batch


def _settings_command(
    db_option: DbOption, open_engine: Callable[[str | None], Engine]
) -> click.Command:
    @click.command("settings")
    @click.argument("round_id")
    @click.option(
        "--auto-release-clean/--no-auto-release-clean",
        default=None,
        help="Release a new batch of the round at once when its leak report is empty "
        "(default off: every new batch is held until an administrator releases it).",
    )
    @db_option
    def settings(round_id: str, auto_release_clean: bool | None, db_url: str | None) -> None:
        """Show or change a round's review settings (changes are logged)."""
        from sqlalchemy import select

        from review_app.core.db import rounds
        from review_app.rounds.batch_release import auto_release_clean as current
        from review_app.rounds.batch_release import set_auto_release_as

        engine = open_engine(db_url)
        if auto_release_clean is not None:
            set_auto_release_as(engine, round_id, auto_release_clean, None)
        with engine.connect() as connection:
            on = current(connection, round_id)
            known = connection.execute(
                select(rounds.c.round_id).where(rounds.c.round_id == round_id)
            ).first()
        rule = (
            "clean batches are released automatically; a batch with any suspicion is held"
            if on
            else "every new batch is held until an administrator releases it"
        )
        note = "" if known is not None else " (no batch of this round yet)"
        click.echo(f"Round {round_id}{note}: {rule}.")

    return settings
