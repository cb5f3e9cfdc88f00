"""`same_named`: the fields one record passes on to another under the same names.

A kind builds many records from another (a results row from a computed one, a page's row
from the round's table): the fields that keep their name are taken by name here, so that
the call spells out only the fields that change.
"""

from __future__ import annotations

from typing import Any


def same_named(source: object, names: str) -> dict[str, Any]:
    """`source`'s attributes `names` (separated by spaces) by name, as keyword arguments."""
    return {name: getattr(source, name) for name in names.split()}
