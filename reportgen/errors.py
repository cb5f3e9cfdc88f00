"""The project's exception hierarchy.

Core code raises these; only the CLI turns them into messages and exit codes,
so that a user never sees a traceback for bad input.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Problem:
    """One violation found in an input: where it is and what was expected."""

    file: str
    where: str
    message: str

    def __str__(self) -> str:
        location = f"{self.file}: {self.where}" if self.where else self.file
        return f"{location}: {self.message}"


class ReportgenError(Exception):
    """Base class of every error the CLI reports as a clean message (exit 1)."""

    exit_code = 1


class ArchiveError(ReportgenError):
    """A round archive violates docs/archive-format.md."""

    def __init__(self, round_dir: str, problems: Iterable[Problem]) -> None:
        self.round_dir = round_dir
        self.problems: tuple[Problem, ...] = tuple(problems)
        lines = [f"{round_dir}: invalid round archive ({len(self.problems)} problem(s))"]
        lines += [f"  - {p}" for p in self.problems]
        super().__init__("\n".join(lines))


class InputError(ReportgenError):
    """A user-supplied input (a raw round, a stdin line, an option) is unusable."""


class OutputExistsError(ReportgenError):
    """The command would overwrite something that must never be overwritten."""
