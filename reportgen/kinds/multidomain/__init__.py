"""The `multidomain` kind: the blind multidomain benchmark of REG-BC-2026-001.

`KIND` (the registry's entry) is built on first use, so that importing one of the
kind's modules (terms, derive) does not load the archive machinery.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from reportgen.kinds.multidomain.kind import MultidomainKind

        kind = MultidomainKind()
        globals()["KIND"] = kind
        return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
