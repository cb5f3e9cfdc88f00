"""`reportgen review`: set up and run the blind review app, sample rounds, export audits.

The review CLI lives with the review app: `reportgen`'s command group mounts this group
by name (`reportgen.cli.COMMANDS["review"]`, imported on first use), and nothing else in
`reportgen` imports `review_app` (tests/test_review_boundaries.py). The commands live in
modules by theme: accounts (`accounts`), batches and publication (`rounds`, `batches`,
`sampling`, `kinds`), exports (`exports`, `freeze`), the server (`server`, `unlock`) and
the audit log (`audit`); their `--db` option and engine come from `common`. What a kind
does of its own (its tasks' samples, exports, freeze-export and commands, such as the
counterfactual `mask-audit`) comes from its review part, through the registry (`kinds`).
"""

from __future__ import annotations

from typing import Any

import click

from review_app.cli.accounts import add_reviewer
from review_app.cli.audit import verify_audit
from review_app.cli.batches import batch_commands
from review_app.cli.common import db_option as _db_option
from review_app.cli.common import open_engine as _engine
from review_app.cli.exports import export, export_judgments
from review_app.cli.freeze import freeze_export_command
from review_app.cli.kinds import kind_commands
from review_app.cli.rounds import close_batch, publish, reopen_batch, sample
from review_app.cli.server import serve_command
from review_app.cli.unlock import unlock_command


class _ReviewGroup(click.Group):
    """The review commands: a database error is one line (exit 1), never a traceback,
    and its text (which may quote the SQL) is not shown; so is a file the system refuses."""

    def invoke(self, ctx: click.Context) -> Any:
        from sqlalchemy.exc import SQLAlchemyError

        from review_app.core.errors import ReviewError

        try:
            return super().invoke(ctx)
        except SQLAlchemyError as error:
            raise ReviewError("error_database", kind=type(error).__name__) from error
        except OSError as error:  # an unwritable output: /proc/x, a folder, no permission
            path = error.filename if error.filename is not None else "a file"
            reason = error.strerror or type(error).__name__
            raise ReviewError("error_file_system", path=path, reason=reason) from error


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
    _engine(db_url, create=True)
    click.echo("Review database ready.")


for _command in (
    add_reviewer,
    sample,
    close_batch,
    publish,
    export,
    verify_audit,
    reopen_batch,
    export_judgments,
    freeze_export_command(_db_option, _engine),
    unlock_command(_db_option, _engine),
    serve_command(_db_option, _engine),
    *batch_commands(_db_option, _engine),
    *kind_commands(_db_option, _engine),
):
    review.add_command(_command)
