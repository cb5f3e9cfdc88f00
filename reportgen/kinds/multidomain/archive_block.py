"""Typed reads of round.json's `multidomain` block: each bad value is one problem
naming its dotted path (`multidomain.jury.adjudicate_above`) and what was expected."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from fractions import Fraction
from typing import cast

from reportgen.archive._block import BlockReader as CoreBlockReader
from reportgen.archive._block import parse_day as parse_day
from reportgen.kinds.multidomain.model import NAME
from reportgen.kinds.multidomain.terms import read_threshold

SHA256 = re.compile(r"[0-9a-f]{64}")
BCP47 = re.compile(r"[a-z]{2,3}(-[A-Za-z0-9]{2,8})*")
CURRENCY = re.compile(r"[A-Z]{3}")
_TIMESTAMP = re.compile(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z")


def parse_timestamp(text: object) -> datetime | None:
    """A strict UTC `YYYY-MM-DDTHH:MM:SSZ` timestamp, or None."""
    if not isinstance(text, str) or not _TIMESTAMP.fullmatch(text):
        return None
    try:
        return datetime.fromisoformat(text)  # the "Z" reads as UTC (datetime.UTC itself)
    except ValueError:
        return None


class BlockReader(CoreBlockReader):
    """Typed reads of the `multidomain` block's values (`CoreBlockReader`'s and these)."""

    block = NAME

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

    def listed(self, path: str, value: object) -> list[object]:
        if not isinstance(value, list):
            self.bad(path, f"expected a list, got {value!r}")
            return []
        return value
