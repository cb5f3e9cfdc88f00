"""`reportgen review verify-audit`: the audit log's hash chain."""

from __future__ import annotations

import click

from review_app.cli.common import db_option, open_engine


@click.command("verify-audit")
@click.option(
    "--expect-head",
    metavar="SHA256",
    default=None,
    help="A hash of the newest entry printed by an earlier run (and kept elsewhere): the "
    "log must still hold that entry.",
)
@db_option
def verify_audit(expect_head: str | None, db_url: str | None) -> None:
    """Check the audit log's hash chain; name the first entry that breaks it, or say that
    entries are missing at its end or the log was emptied (exit 1)."""
    from review_app.core.audit_chain import verify_audit_chain

    engine = open_engine(db_url)
    try:
        chain = verify_audit_chain(engine, expect_head)
    finally:
        engine.dispose()
    head = chain.head_sha256 or "none"
    click.echo(f"Audit log intact: {chain.entries} entries; hash of the newest: {head}.")
