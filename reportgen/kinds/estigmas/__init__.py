"""The `estigmas` kind: the Estigmas benchmark (variants `full` and `continuous`).

`KIND` (the registry's entry) is built on first use, so that importing one of the
kind's modules (the parser, say) does not load the archive machinery.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from reportgen.kinds.estigmas.kind import EstigmasKind

        kind = EstigmasKind()
        globals()["KIND"] = kind
        return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
