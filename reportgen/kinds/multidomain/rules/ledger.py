"""Refusals 44 and 45 on annulments.jsonl, as far as the typed round shows them.

Every line names an active test item (an `audit` line an open one), is decided on or
after `ended_on`, and names its item once. The hash chain is the core ledger reader's.
"""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.rules._index import LEDGER, RoundIndex


def check_ledger(round_: Round, index: RoundIndex, problems: Problems) -> None:
    found = problems.in_file(LEDGER)
    ended_on = round_.manifest.ended_on
    first_line: dict[str, int] = {}
    for number, annulment in enumerate(round_.annulments, start=1):
        where = f"line {number}"
        item = index.items.get(annulment.item_id)
        if item is None or annulment.item_id not in index.active_ids:
            what = "unknown" if item is None else _why_inactive(item.calibration)
            found.add(
                where,
                f"item {annulment.item_id!r} is {what}: expected an active test item",
            )
        elif annulment.source == "audit" and item.type != "open":
            found.add(
                where,
                f"an audit line for item {annulment.item_id!r} of type {item.type}: "
                "expected an open item",
            )
        if ended_on is not None and annulment.decided_on < ended_on:
            found.add(
                where,
                f"decided_on {annulment.decided_on}: expected on or after ended_on {ended_on}",
            )
        if annulment.item_id in first_line:
            found.add(
                where,
                f"item {annulment.item_id!r} is annulled twice (first on line "
                f"{first_line[annulment.item_id]})",
            )
        first_line.setdefault(annulment.item_id, number)


def _why_inactive(calibration: bool) -> str:
    return "a calibration item" if calibration else "superseded by a variant"
