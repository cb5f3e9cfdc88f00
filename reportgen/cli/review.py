"""`reportgen review`: set up and run the blind review app, sample rounds, export audits.

The commands live in modules by theme: accounts (review_accounts), batches and
publication (review_rounds), exports (review_exports, review_freeze) and the audit log
(review_audit); their `--db` option and engine come from review_common.
"""

from __future__ import annotations

from typing import Any

import click

from reportgen.cli.review_accounts import add_reviewer
from reportgen.cli.review_audit import verify_audit
from reportgen.cli.review_batches import batch_commands
from reportgen.cli.review_common import db_option as _db_option
from reportgen.cli.review_common import open_engine as _engine
from reportgen.cli.review_exports import export, export_judgments, mask_audit
from reportgen.cli.review_freeze import freeze_export_command
from reportgen.cli.review_rounds import close_batch, publish, reopen_batch, sample
from reportgen.cli.review_server import serve_command
from reportgen.cli.review_unlock import unlock_command


class _ReviewGroup(click.Group):
    """The review commands: a database error is one line (exit 1), never a traceback,
    and its text (which may quote the SQL) is not shown; so is a file the system refuses."""

    def invoke(self, ctx: click.Context) -> Any:
        from sqlalchemy.exc import SQLAlchemyError

        from review_app.errors import ReviewError

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
    mask_audit,
    freeze_export_command(_db_option, _engine),
    unlock_command(_db_option, _engine),
    serve_command(_db_option, _engine),
    *batch_commands(_db_option, _engine),
):
    review.add_command(_command)
