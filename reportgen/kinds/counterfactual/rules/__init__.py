"""The cross-table rules of `reportgen verify` for a counterfactual round (refusals 29-44).

Run after every file passed its own checks (refusals 1-28 and the core's), over the
typed round: the items against the battery (29-31), each system's responses (32-35)
and extractions (36-40), the judge's blindness (41) and its calibration (42-44); then
the mask audit's decisions and people's extraction checks (issue 21).
Every rule reports through `problems` and goes on; nothing raises. The round is indexed
once (`RoundIndex`), so all rules together stay linear in the round's rows.
"""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.counterfactual.extraction_check import check_extraction_checks
from reportgen.kinds.counterfactual.mask_audit import check_mask_audit
from reportgen.kinds.counterfactual.model import Round
from reportgen.kinds.counterfactual.rules._index import RoundIndex
from reportgen.kinds.counterfactual.rules.blindness import check_blindness
from reportgen.kinds.counterfactual.rules.calibration import check_calibration
from reportgen.kinds.counterfactual.rules.extractions import check_extractions
from reportgen.kinds.counterfactual.rules.items import check_items
from reportgen.kinds.counterfactual.rules.responses import check_responses

__all__ = ["check_rules"]


def check_rules(round_: Round, problems: Problems) -> None:
    """Add a problem for every rule 29-44 the round breaks."""
    index = RoundIndex(round_)
    check_items(round_, index, problems)
    check_responses(round_, index, problems)
    check_extractions(round_, index, problems)
    check_blindness(round_, index, problems)
    check_calibration(round_, index, problems)
    check_mask_audit(round_, problems)
    check_extraction_checks(round_, problems)
