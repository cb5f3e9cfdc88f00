"""A collector of problems: every check adds to it, nothing stops at the first one.

`reportgen verify` must list every problem in one run, so checks report and go on;
`mark()` / `ok_since(mark)` tell whether a step added anything.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from reportgen.errors import ArchiveError, Problem

# At most this many rows are listed for one kind of problem in one file; the rest are
# counted, so that a wholly wrong file gives a readable report.
MAX_LISTED = 10


class Problems:
    """Every problem found so far, in the order found."""

    def __init__(self) -> None:
        self._found: list[Problem] = []

    def add(self, file: str, where: str, message: str) -> None:
        self._found.append(Problem(file, where, message))

    def in_file(self, file: str, *, rename: dict[str, str] | None = None) -> FileProblems:
        """A scope that adds problems of `file`; `rename` maps a `where` to another name."""
        return FileProblems(self, file, rename or {})

    @property
    def count(self) -> int:
        return len(self._found)

    def mark(self) -> int:
        return len(self._found)

    def ok_since(self, mark: int) -> bool:
        """True when nothing was added since `mark()` returned `mark`."""
        return len(self._found) == mark

    def __iter__(self) -> Iterator[Problem]:
        return iter(self._found)

    def as_list(self) -> list[Problem]:
        return list(self._found)

    def raise_if_any(self, subject: str) -> None:
        if self._found:
            raise ArchiveError(subject, self._found)


class FileProblems:
    """The problems of one file."""

    def __init__(self, problems: Problems, file: str, rename: dict[str, str]) -> None:
        self.problems = problems
        self.file = file
        self._rename = rename

    def add(self, where: str, message: str) -> None:
        head, dot, tail = where.partition(" ")
        renamed = self._rename.get(head, head)
        self.problems.add(self.file, f"{renamed}{dot}{tail}", message)

    def rows(self, entries: Sequence[tuple[str, str]], what: str) -> None:
        """Add (where, message) entries, listing at most MAX_LISTED of them."""
        for where, message in entries[:MAX_LISTED]:
            self.add(where, message)
        if len(entries) > MAX_LISTED:
            self.add("", f"... and {len(entries) - MAX_LISTED} more {what} not listed")
