"""The `counterfactual` kind: a counterfactual audit battery of customer-service chatbots.

Business message templates are filled with variants of a protected attribute (a name,
an age, a CEP, a writing style, an explicit mention), each cell is run R >= 2 times
against every system under test, and decision, quality and tone variables are
extracted from each answer (docs/counterfactual.md).

`KIND` (the registry's entry) is built on first use, so that importing one of the
kind's modules (model, terms) does not load the archive machinery.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "KIND":
        from reportgen.kinds.counterfactual.kind import CounterfactualKind

        kind = CounterfactualKind()
        globals()["KIND"] = kind
        return kind
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
