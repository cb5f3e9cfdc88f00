"""The register of changes to a multidomain round's published results (Art. 43).

The report is published when the round ends (`ended_on`, Art. 41); every ledger line is
decided on or after that day (refusal 45), so each one is a change to published results:
an item annulled after a human audit (Art. 26), an upheld contestation (Art. 43) or a
contamination finding (Art. 33-34). The register lists the lines the round holds on the
date the site speaks for (`terms.round_as_of` has cut the later ones), in the order they
were decided, and for each one its erratum: every participant's primary score just
before and just after the decision. Scores are exact (`Fraction`) and computed from the
run-averaged points of the active items; after the last line they are the published
primary scores.

The archive keeps the lines that annulled an item; a contestation that was not upheld
leaves no line, so the register cannot list it (its pages say so).
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from reportgen.kinds.multidomain.memo import RecentByIdentity
from reportgen.kinds.multidomain.model import Annulment, Round
from reportgen.kinds.multidomain.score import fraction_sum, round_points
from reportgen.kinds.multidomain.terms import active_items
from reportgen.stats import mean

REGISTER_PAGE = "register"


@dataclass(frozen=True)
class ScoreChange:
    model_id: str
    display_name: str
    before: Fraction | None  # primary score just before the decision (None: undefined)
    after: Fraction | None


@dataclass(frozen=True)
class RegisterEntry:
    """One ledger line of the register and its erratum."""

    number: int  # 1-based position among the lines the round holds, in ledger order
    line: Annulment
    changes: tuple[ScoreChange, ...]  # in models.csv order

    @property
    def anchor(self) -> str:
        """The entry's heading id (an item is annulled at most once: refusal 44/45)."""
        return f"ledger-{self.line.item_id}"


def entry_uuid(round_id: str, line: Annulment) -> str:
    """A stable `urn:uuid:` for one ledger line (its item and its place in the chain)."""
    name = f"reportgen:multidomain:{round_id}:ledger:{line.prev_sha256}:{line.item_id}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def feed_uuid(round_id: str, language: str) -> str:
    name = f"reportgen:multidomain:{round_id}:register:{language}"
    return f"urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}"


def _kept(
    domains: Sequence[str],
    item_domains: Sequence[str],
    weights: Sequence[int],
    annulled: Sequence[bool],
) -> list[tuple[list[int], int]]:
    """Per domain, the items not annulled (with a weight) and their possible points."""
    found = []
    for domain in domains:
        kept = [
            i
            for i, d in enumerate(item_domains)
            if d == domain and not annulled[i] and weights[i] > 0
        ]
        found.append((kept, sum(weights[i] for i in kept)))
    return found


def _primary_score(
    kept: Sequence[tuple[list[int], int]], row: Sequence[Fraction]
) -> Fraction | None:
    """Mean of the defined domain scores over the items not annulled (metrics §2)."""
    defined = [
        100 * fraction_sum(row[i] for i in items) / possible for items, possible in kept if possible
    ]
    return mean(defined)


# The entries of the last rounds asked: the page and the feed of each language ask for
# the same rounds, and the errata read every active item's points.
_RECENT: RecentByIdentity[tuple[RegisterEntry, ...]] = RecentByIdentity()


def register_entries(round_: Round) -> tuple[RegisterEntry, ...]:
    """The ledger lines of `round_` (already cut at the site's date), each with its
    erratum, ordered by the day decided and then by their place in the ledger."""
    return _RECENT.get((round_,), lambda: _entries(round_))


def _entries(round_: Round) -> tuple[RegisterEntry, ...]:
    lines = sorted(enumerate(round_.annulments, start=1), key=lambda p: p[1].decided_on)
    if not lines:
        return ()
    items = sorted(active_items(round_.items), key=lambda i: (i.order or 0, i.item_id))
    points = round_points(round_, items=items)
    domains = [d.id for d in round_.manifest.domains]
    item_domains = [item.domain_id for item in items]
    weights = [item.weight for item in items]
    index = {item.item_id: n for n, item in enumerate(items)}
    names = {m.model_id: m.display_name for m in round_.models}
    annulled = [False] * len(items)

    def scores() -> list[Fraction | None]:
        kept = _kept(domains, item_domains, weights, annulled)
        return [_primary_score(kept, row) for row in points.item_points]

    entries = []
    before = scores()
    for number, line in lines:
        annulled[index[line.item_id]] = True
        after = scores()
        changes = tuple(
            ScoreChange(model_id, names[model_id], b, a)
            for model_id, b, a in zip(points.model_ids, before, after, strict=True)
        )
        entries.append(RegisterEntry(number, line, changes))
        before = after
    return tuple(entries)
