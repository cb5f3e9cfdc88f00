"""The cross-table rules of `reportgen verify` for a multidomain round.

Run after every file passed its own checks, over the typed round: the cast, the bank's
composition and order, the response tables, the jury, adjudications, judge views,
calibration, the audit and the ledger (numbered refusals of multidomain-round.md).
Every rule reports through `problems` and goes on; nothing raises.
"""

from __future__ import annotations

from collections.abc import Mapping

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.rules._index import RoundIndex
from reportgen.kinds.multidomain.rules.adjudications import check_adjudications
from reportgen.kinds.multidomain.rules.audit import check_audit
from reportgen.kinds.multidomain.rules.calibration import check_calibration
from reportgen.kinds.multidomain.rules.cast import check_cast
from reportgen.kinds.multidomain.rules.hit_rate import check_hit_rates
from reportgen.kinds.multidomain.rules.items import check_items
from reportgen.kinds.multidomain.rules.jury import check_jury
from reportgen.kinds.multidomain.rules.ledger import check_ledger
from reportgen.kinds.multidomain.rules.responses import check_responses
from reportgen.kinds.multidomain.rules.screening import check_screening
from reportgen.kinds.multidomain.rules.views import check_views

__all__ = ["check_rules"]


def check_rules(
    round_: Round, problems: Problems, previous_ranks: Mapping[int, int] | None = None
) -> None:
    """Add a problem for every cross-table rule the round breaks.

    `previous_ranks` maps annex_id -> primary rank in `previous_round` (Art. 5 reserve
    order); None when there is no previous round (reserves then rank by annex_id).
    """
    index = RoundIndex(round_)
    # With a previous round the order needs its ranks: check_across passes them.
    check_order = previous_ranks is not None or round_.manifest.previous_round is None
    check_cast(round_, problems, previous_ranks, check_order=check_order)
    check_items(round_, problems)
    check_responses(round_, index, problems)
    jury = check_jury(round_, index, problems)
    finals = check_adjudications(round_, index, jury, problems)
    check_views(round_, index, problems)
    check_calibration(round_, index, problems)
    check_hit_rates(round_, problems)
    check_audit(round_, index, finals, problems)
    check_ledger(round_, index, problems)
    check_screening(round_, problems)
