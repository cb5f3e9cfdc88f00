"""Typed reads of a kind's block of round.json: each bad value is one problem naming its
dotted path (`<block>.<path>`, e.g. `multidomain.jury.adjudicate_above`) and what was
expected. A kind's reader extends `BlockReader` with the values only its block has."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date
from typing import ClassVar

from reportgen.archive._layout import parse_iso_date
from reportgen.archive._manifest import language_texts
from reportgen.archive._problems import FileProblems


def parse_day(text: object) -> date | None:
    """A strict `YYYY-MM-DD` date, or None (also for a value that is not text)."""
    return parse_iso_date(text) if isinstance(text, str) else None


class BlockReader:
    """Typed reads of the block's values; each bad value is one problem naming its path
    (`valid` turns False at the first)."""

    block: ClassVar[str]  # the block's key in round.json: the kind's name

    def __init__(self, found: FileProblems) -> None:
        self.found = found
        self.valid = True

    def bad(self, path: str, message: str) -> None:
        self.valid = False
        self.found.add(f"{self.block}.{path}", message)

    def text(self, path: str, value: object, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            self.bad(path, f"expected a non-empty string, got {value!r}")
            return ""
        if pattern is not None and not pattern.fullmatch(value):
            self.bad(path, f"expected a value matching {pattern.pattern}, got {value!r}")
        return value

    def texts(self, path: str, value: object) -> Mapping[str, str]:
        parsed = language_texts(value)
        if parsed is None:
            self.bad(path, 'expected {"pt-BR": "...", "en": "..."} with non-empty strings')
            return {}
        return parsed

    def day(self, path: str, value: object) -> date:
        parsed = parse_day(value)
        if parsed is None:
            self.bad(path, f"expected an ISO date YYYY-MM-DD, got {value!r}")
        return parsed or date.min
