"""Reading the demonstration's word lists and texts from the JSON files in reportgen/demo/data/.

The files ship inside the package and are read with importlib.resources. Every value is
checked as it is taken out, so a malformed file fails at once with one line naming the file,
the key and what was expected (`DemoDataError`), never with a KeyError deep in the generator.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import NoReturn, TypeVar

from reportgen.errors import ReportgenError

DATA_PACKAGE = "reportgen.demo"
DATA_FOLDER = "data"

T = TypeVar("T", bound=str)


class DemoDataError(ReportgenError):
    """A data file of the demonstration is missing, not JSON, or not of the expected shape."""


def _describe(value: object) -> str:
    if isinstance(value, bool):
        return f"the boolean {json.dumps(value)}"
    if isinstance(value, str):
        return f"the string {json.dumps(value, ensure_ascii=False)[:40]}"
    if isinstance(value, int | float):
        return f"the number {value!r}"
    if value is None:
        return "null"
    return "an object" if isinstance(value, dict) else "a list"


@dataclass(frozen=True)
class Node:
    """One value of a data file and where it sits in it, for error messages."""

    file: str
    path: str  # "q01.setup", "stigmas[3].pt"; empty at the top level
    value: object

    def fail(self, expected: str) -> NoReturn:
        where = self.path or "top level"
        raise DemoDataError(
            f"{self.file}: {where}: expected {expected}, got {_describe(self.value)}"
        )

    def _child(self, step: str, value: object) -> Node:
        separator = "" if not self.path or step.startswith("[") else "."
        return Node(self.file, f"{self.path}{separator}{step}", value)

    def _object(self) -> dict[str, object]:
        if not isinstance(self.value, dict):
            self.fail("an object")
        return self.value

    def has(self, key: str) -> bool:
        return key in self._object()

    def key(self, key: str) -> Node:
        found = self._object()
        if key not in found:
            where = self.path or "top level"
            raise DemoDataError(f"{self.file}: {where}: missing key {key!r}")
        return self._child(key, found[key])

    def items(self) -> Iterator[tuple[str, Node]]:
        """The entries of an object, in file order."""
        for key, value in self._object().items():
            yield key, self._child(key, value)

    def only_keys(self, *allowed: str) -> Node:
        """Itself, after checking that it has no key outside `allowed` (a typo is an error)."""
        for key in self._object():
            if key not in allowed:
                where = self.path or "top level"
                raise DemoDataError(
                    f"{self.file}: {where}: unknown key {key!r}; expected {', '.join(allowed)}"
                )
        return self

    def elements(self) -> Iterator[Node]:
        if not isinstance(self.value, list):
            self.fail("a list")
        for index, value in enumerate(self.value):
            yield self._child(f"[{index}]", value)

    def text(self, *, empty_ok: bool = False) -> str:
        if not isinstance(self.value, str) or not (self.value or empty_ok):
            self.fail("a string" if empty_ok else "a non-empty string")
        return self.value

    def texts(self, *, empty_ok: bool = False) -> tuple[str, ...]:
        """A non-empty list of strings (non-empty ones unless `empty_ok`)."""
        found = tuple(element.text(empty_ok=empty_ok) for element in self.elements())
        if not found:
            self.fail("a non-empty list of strings")
        return found

    def number(self) -> float:
        if isinstance(self.value, bool) or not isinstance(self.value, int | float):
            self.fail("a number")
        return float(self.value)

    def flag(self) -> bool:
        if not isinstance(self.value, bool):
            self.fail("true or false")
        return self.value

    def choice(self, options: tuple[T, ...]) -> T:
        for option in options:
            if self.value == option:
                return option
        self.fail(f"one of {', '.join(options)}")

    def text_map(self, keys: tuple[T, ...]) -> dict[T, str]:
        """An object with exactly `keys`, each a non-empty string, in `keys` order."""
        self.only_keys(*keys)
        return {key: self.key(key).text() for key in keys}


@cache
def load(name: str) -> Node:
    """The parsed data file `name` of reportgen/demo/data/ (read once per process)."""
    resource = resources.files(DATA_PACKAGE).joinpath(DATA_FOLDER).joinpath(name)
    shown = f"reportgen/demo/{DATA_FOLDER}/{name}"
    try:
        raw = resource.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise DemoDataError(f"{shown}: cannot read the demonstration data: {error}") from error
    return parse(shown, raw)


def parse(shown: str, raw: str) -> Node:
    """The JSON text `raw` of the data file called `shown` in messages."""
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as error:
        raise DemoDataError(
            f"{shown}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})"
        ) from error
    return Node(shown, "", value)


# The four texts of one question structure, in the order a prompt uses them.
PROMPT_PARTS: tuple[str, ...] = ("setup", "doubt", "positive", "question")


def structure_texts(name: str) -> dict[str, tuple[str, str, str, str]]:
    """structure id -> (setup, doubt, positive, question), from the prompt file `name`."""
    texts: dict[str, tuple[str, str, str, str]] = {}
    for structure_id, entry in load(name).items():
        setup, doubt, positive, question = entry.text_map(PROMPT_PARTS).values()
        texts[structure_id] = (setup, doubt, positive, question)
    return texts
