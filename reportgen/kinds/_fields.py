"""`same_named`: the fields one record passes on to another under the same names;
`by_field` and `first_by`: records by one of their fields, or by a key.

A kind builds many records from another (a results row from a computed one, a page's row
from the round's table): the fields that keep their name are taken by name here, so that
the call spells out only the fields that change.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


def same_named(source: object, names: str) -> dict[str, Any]:
    """`source`'s attributes `names` (separated by spaces) by name, as keyword arguments."""
    return {name: getattr(source, name) for name in names.split()}


def by_field(records: Iterable[T], name: str) -> dict[str, T]:
    """`records` by their field `name` (an id); of two with the same value, the later."""
    return {getattr(record, name): record for record in records}


def first_by(records: Iterable[T], key: Callable[[T], K]) -> dict[K, T]:
    """`records` by `key`; of two with the same key, the first."""
    found: dict[K, T] = {}
    for record in records:
        found.setdefault(key(record), record)
    return found
