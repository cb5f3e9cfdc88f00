"""Every command has help text, and the README documents every command."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from reportgen.cli import COMMANDS, SUMMARIES, main

README = Path(__file__).resolve().parents[1] / "README.md"


def _all_commands() -> list[tuple[str, click.Command]]:
    """Every command reachable from `reportgen`, with its full name."""
    found: list[tuple[str, click.Command]] = []
    ctx = click.Context(main)
    for name in main.list_commands(ctx):
        command = main.get_command(ctx, name)
        assert command is not None, name
        found.append((name, command))
        if isinstance(command, click.Group):
            sub_ctx = click.Context(command)
            for sub_name in command.list_commands(sub_ctx):
                sub = command.get_command(sub_ctx, sub_name)
                assert sub is not None
                found.append((f"{name} {sub_name}", sub))
    return found


def test_group_help_lists_every_command() -> None:
    result = CliRunner().invoke(main, ["--help"])
    assert result.exit_code == 0
    for name in COMMANDS:
        assert name in result.output


@pytest.mark.parametrize(("name", "command"), _all_commands(), ids=lambda v: str(v))
def test_every_command_has_help(name: str, command: click.Command) -> None:
    assert command.help, f"`reportgen {name}` has no help text"
    assert len(command.help.split()) >= 5, f"`reportgen {name}` help is too short"
    result = CliRunner().invoke(main, [*name.split(), "--help"])
    assert result.exit_code == 0, result.output
    for param in command.params:
        if isinstance(param, click.Option) and not param.hidden and param.name != "help":
            assert param.help, f"option {param.opts} of `reportgen {name}` has no help"


@pytest.mark.parametrize("name", [name for name, _ in _all_commands()])
def test_readme_documents_every_command(name: str) -> None:
    assert f"reportgen {name}" in README.read_text(encoding="utf-8"), (
        f"README.md does not document `reportgen {name}`"
    )


def test_version() -> None:
    result = CliRunner().invoke(main, ["--version"])
    assert result.exit_code == 0
    assert "reportgen" in result.output


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listed_summary_is_the_commands_first_sentence(name: str) -> None:
    """`reportgen --help` lists SUMMARIES without importing the commands: they must agree."""
    command = main.get_command(click.Context(main), name)
    assert command is not None
    assert SUMMARIES[name] == command.get_short_help_str(limit=1000)


def test_group_help_shortens_summaries_to_the_width() -> None:
    result = CliRunner().invoke(main, ["--help"], terminal_width=60)
    assert result.exit_code == 0
    listed = result.output.split("Commands:")[1].splitlines()
    assert any(line.endswith("...") for line in listed)
    assert all(len(line) <= 60 for line in listed)
