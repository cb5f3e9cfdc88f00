"""The counterfactual rules across the typed round's tables (counterfactual-round.md,
refusals 29 to 44): items against the battery, responses, extractions and calibration.
They run after the per-file checks found nothing (`CounterfactualKind.check_round`)."""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.model import Round


def check_rules(round_: Round, problems: Problems) -> None:
    """Every problem of refusals 29 to 44 (filled in by the cf-rules branch)."""
    return None
