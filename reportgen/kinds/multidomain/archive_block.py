"""Typed reads of round.json's `multidomain` block: each bad value is one problem
naming its dotted path (`multidomain.jury.adjudicate_above`) and what was expected."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import date, datetime
from fractions import Fraction
from typing import cast

from reportgen.archive import FileProblems, language_texts
from reportgen.kinds.multidomain.model import NAME
from reportgen.kinds.multidomain.terms import read_threshold

SHA256 = re.compile(r"[0-9a-f]{64}")
BCP47 = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
CURRENCY = re.compile(r"[A-Z]{3}")
_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def parse_day(text: object) -> date | None:
    """A strict `YYYY-MM-DD` date, or None."""
    if not isinstance(text, str) or not _DAY.fullmatch(text):
        return None
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def parse_timestamp(text: object) -> datetime | None:
    """A strict UTC `YYYY-MM-DDTHH:MM:SSZ` timestamp, or None."""
    if not isinstance(text, str) or not _TIMESTAMP.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text)  # the "Z" reads as UTC (datetime.UTC itself)
    except ValueError:
        return None


class BlockReader:
    """Typed reads of the block's values; each bad value is one problem naming its path."""

    def __init__(self, found: FileProblems) -> None:
        self.found = found
        self.valid = True

    def bad(self, path: str, message: str) -> None:
        self.valid = False
        self.found.add(f"{NAME}.{path}", message)

    def integer(self, path: str, value: object, *, low: int | None = 0) -> int:
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (low is not None and value < low)
        ):
            floor = "" if low is None else f" >= {low}"
            self.bad(path, f"expected an integer{floor}, got {value!r}")
            return 0
        return value

    def text(self, path: str, value: object, pattern: re.Pattern[str] | None = None) -> str:
        if not isinstance(value, str) or not value.strip():
            self.bad(path, f"expected a non-empty string, got {value!r}")
            return ""
        if pattern is not None and not pattern.fullmatch(value):
            self.bad(path, f"expected a value matching {pattern.pattern}, got {value!r}")
        return value

    def threshold(self, path: str, value: object) -> Fraction:
        if isinstance(value, float):
            self.bad(
                path,
                f'a threshold is read exactly: write it as a JSON string such as "3/2" or '
                f'"0.6", or an integer, not the JSON float {value!r}',
            )
            return Fraction(0)
        parsed = read_threshold(value)
        if parsed is None:
            self.bad(
                path,
                f'expected a rational threshold ("n", "n/d", "0.6" or an integer), got {value!r}',
            )
            return Fraction(0)
        return parsed

    def obj(self, path: str, value: object, keys: tuple[str, ...]) -> Mapping[str, object]:
        """An object with exactly `keys` ({} after reporting it otherwise)."""
        if not isinstance(value, dict) or set(value) != set(keys):
            got = sorted(value) if isinstance(value, dict) else repr(value)
            self.bad(path, f"expected an object with keys {', '.join(keys)}, got {got}")
            return {}
        return cast(Mapping[str, object], value)

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

    def listed(self, path: str, value: object) -> list[object]:
        if not isinstance(value, list):
            self.bad(path, f"expected a list, got {value!r}")
            return []
        return value
