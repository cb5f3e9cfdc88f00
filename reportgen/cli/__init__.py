"""The `reportgen` command-line interface: a thin click group.

Each command lives in its own module and is imported only when it is invoked,
so `reportgen --help` stays fast and one broken command cannot hide the others.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from reportgen import __version__
from reportgen.errors import ReportgenError
from reportgen.kinds import kind_commands

# command name -> "module:attribute"; every entry must have help text (tests check it).
# The kinds add their own commands (the Estigmas parser's `label`).
COMMANDS: dict[str, str] = {
    "verify": "reportgen.cli.verify:verify",
    "render": "reportgen.cli.render_round:render",
    "import": "reportgen.cli.import_answers:import_answers",
    "freeze": "reportgen.cli.freeze:freeze",
    "add-model": "reportgen.cli.add_model:add_model",
    "summary": "reportgen.cli.summary:summary",
    "demo": "reportgen.cli.demo:demo",
    "review": "reportgen.cli.review:review",
    "stats": "reportgen.cli.stats:stats",
    "build": "reportgen.cli.build:build",
    "serve": "reportgen.cli.serve:serve",
    **kind_commands(),
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

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except ReportgenError as error:
            click.echo(f"Error: {error}", err=True)
            sys.exit(error.exit_code)


@click.group(cls=LazyGroup)
@click.version_option(__version__, prog_name="reportgen")
def main() -> None:
    """Publish the Estigmas benchmark from frozen round archives.

    Verify and freeze round archives, label model outputs with the deterministic
    parser, score models and build the bilingual companion website.
    """
