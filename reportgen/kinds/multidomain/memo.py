"""A memo of values computed from a few large objects, recognised by identity.

A site build asks for the same per-round computation from several places (each page of
both languages, the feeds, the leak guard, the check across rounds), each time with the
very same objects of the round (`terms.round_as_of` keeps the items, responses and
manifest of the round it cuts). Rounds are large and not hashable, so the memo
recognises its inputs by identity and keeps only the few most recent (it holds them, so
an identity is never reused while its entry lives).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

V = TypeVar("V")


class RecentByIdentity(Generic[V]):
    """The values of the last `size` distinct inputs, each input a tuple of objects."""

    def __init__(self, size: int = 4) -> None:
        self._size = size
        self._entries: list[tuple[tuple[object, ...], V]] = []

    def get(self, inputs: tuple[object, ...], compute: Callable[[], V]) -> V:
        """The value for `inputs` (the same objects, by identity), computed when new."""
        for position, (known, value) in enumerate(self._entries):
            if len(known) == len(inputs) and all(
                a is b for a, b in zip(known, inputs, strict=True)
            ):
                self._entries.insert(0, self._entries.pop(position))
                return value
        value = compute()
        self._entries = [(inputs, value), *self._entries][: self._size]
        return value
