"""Which item ids the site of a multidomain round may name on the date it speaks for.

Until the embargo ends (`ended_on + embargo_days`, Art. 42) the site names no item that a
check singled out (report spec, "Never on the site": flagged item ids):

- the items the contamination checks flagged: 8-gram containment, a full or a suspicious
  canary reproduction;
- the items superseded by a variant, and their variants (a variant replaces a leaked item,
  and its id may carry the leaked item's: `i-bank-011-v2`);
- the items the human audit drew.

A ledger line names its item from the day it was decided, embargo or not (the discarded
items section lists the ledger). From the end of the embargo every id is public.

Pages, downloads and the leak guard decide through the same `IdEmbargo`, so that no page
can name an id that another one hides.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

from reportgen.kinds.multidomain.derive import audit_draw, embargo_end
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.results import Contamination


@dataclass(frozen=True)
class IdEmbargo:
    """The ids kept off the site until `ends`, and the day the ledger names some of them."""

    ends: date
    ids: frozenset[str]
    named_from: Mapping[str, date]  # item id -> decided_on of its ledger line

    def shown(self, item_id: str, as_of: date) -> bool:
        """`item_id` may appear on a site speaking for `as_of`."""
        if as_of >= self.ends or item_id not in self.ids:
            return True
        named = self.named_from.get(item_id)
        return named is not None and named <= as_of


def flagged_ids(round_: Round, contamination: Contamination) -> frozenset[str]:
    """The ids the embargo covers (module docstring), from the round and its findings."""
    found = contamination
    ids = {finding.item_id for finding in found.ngram_flagged}
    ids |= set(found.full_canary_items)
    ids |= {hit.canary_item_id for hit in (*found.full_canaries, *found.suspicious_canaries)}
    for item in round_.items:
        if item.variant_of is not None:
            ids |= {item.item_id, item.variant_of}
    for drawn in audit_draw(round_.items, round_.manifest).values():
        ids.update(drawn)
    return frozenset(ids)


def id_embargo(round_: Round, contamination: Contamination) -> IdEmbargo:
    """The embargo of `round_`'s ids, its ledger as the round holds it (a build passes the
    round as of its date, the leak guard the whole ledger with `as_of` to check)."""
    return IdEmbargo(
        ends=embargo_end(round_.manifest),
        ids=flagged_ids(round_, contamination),
        named_from={line.item_id: line.decided_on for line in round_.annulments},
    )
