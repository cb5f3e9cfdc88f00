"""The `reportgen` command-line interface: a thin click group.

Each command lives in its own module and is imported only when it is invoked,
so `reportgen --help` stays fast and one broken command cannot hide the others:
the group's help lists the commands from `SUMMARIES`, without importing any
(tests/test_cli_help.py checks that each summary is its command's first sentence).
"""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

# NumPy asks the kernel for transparent huge pages for every array of 4 MB or more. Where
# the kernel then compacts memory to find them on each first touch (THP defrag "madvise",
# a common default), a new 400 MB count cube of a 1,000-model round took 2.3 s to fill
# instead of 0.14 s, and the statistics of a rebuild 5.5 s instead of 2.0 s. NumPy reads
# this once, at its import (numpy.org/doc/stable/reference/global_state.html); a value
# the user set wins (an empty one, which NumPy's import refuses, counts as unset). The
# build's worker processes inherit it.
if not os.environ.get("NUMPY_MADVISE_HUGEPAGE"):
    os.environ["NUMPY_MADVISE_HUGEPAGE"] = "0"

import click

from reportgen.errors import ReportgenError
from reportgen.kinds import kind_command_summaries, kind_commands

# command name -> "module:attribute"; every entry must have help text (tests check it).
# The kinds add their own commands (the Estigmas parser's `label`). `review` is the review
# app's own group (review_app/cli/): this name is the only way reportgen reaches review_app.
COMMANDS: dict[str, str] = {
    "verify": "reportgen.cli.verify:verify",
    "render": "reportgen.cli.render_round:render",
    "import": "reportgen.cli.import_answers:import_answers",
    "freeze": "reportgen.cli.freeze:freeze",
    "add-model": "reportgen.cli.add_model:add_model",
    "summary": "reportgen.cli.summary:summary",
    "demo": "reportgen.cli.demo:demo",
    "review": "review_app.cli:review",
    "stats": "reportgen.cli.stats:stats",
    "build": "reportgen.cli.build:build",
    "serve": "reportgen.cli.serve:serve",
    **kind_commands(),
}
# command name -> the first sentence of its help, which `reportgen --help` lists.
SUMMARIES: dict[str, str] = {
    "verify": "Check the round archives ROUND_DIRS and report every problem found.",
    "render": "Write the calls to send of the round drafted in DRAFT_DIR into the raw round --out.",
    "import": "Import the answers of the round's calls into its raw round.",
    "freeze": "Freeze the raw round RAW_DIR into a round archive at --out.",
    "add-model": "Add a model to the continuous round ROUND_DIR.",
    "summary": "Score every model of the round archive ROUND_DIR.",
    "demo": "Generated demonstration rounds that reproduce the article's figures.",
    "review": "Run the blind human review of a round: accounts, samples, the app and exports.",
    "stats": "Compute every interval and test of a round archive and write them as JSON.",
    "build": "Build the companion site (pt-BR at the root, English under /en/).",
    "serve": "Preview the built site at http://127.0.0.1:PORT/ (after `reportgen build`).",
    **kind_command_summaries(),
}


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        target = COMMANDS.get(cmd_name)
        if target is None:
            return None
        module_name, attribute = target.split(":")
        command = getattr(importlib.import_module(module_name), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{target} is not a click command")
        return command

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """As click's, but an unknown name is compared with the lazy commands too
        (click suggests from `self.commands`, empty here): `biuld` -> "Did you mean 'build'?"."""
        name = click.utils.make_str(args[0])
        unknown = self.get_command(ctx, name) is None and not name.startswith("-")
        if unknown and not ctx.resilient_parsing:
            raise click.exceptions.NoSuchCommand(name, possibilities=COMMANDS, ctx=ctx)
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """As click's, but from `SUMMARIES`: listing the commands imports none of them
        (click would import every command module to read its help)."""
        names = self.list_commands(ctx)
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = [
            (name, click.Command(name, help=SUMMARIES[name]).get_short_help_str(limit))
            for name in names
        ]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ReportgenError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)


def _print_version(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    """click's --version, but the version is looked up only when asked for."""
    if not value or ctx.resilient_parsing:
        return
    from reportgen import __version__

    click.echo(f"reportgen, version {__version__}")
    ctx.exit()


@click.group(cls=LazyGroup)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_print_version,
    help="Show the version and exit.",
)
def main() -> None:
    """Publish the Estigmas benchmark from frozen round archives.

    Verify and freeze round archives, label model outputs with the deterministic
    parser, score models and build the bilingual companion website.
    """
