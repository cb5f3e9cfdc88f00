"""Art. 37 on screening.parquet against items.parquet: every item (test and calibration)
has exactly one screening row, dated on or before `collected_on` (the bank is screened
before the round); a row names a known item. The row's own rules (result, declaration,
who) are archive_screening's.
"""

from __future__ import annotations

from collections import Counter

from reportgen.archive import Problems
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.schemas import SCREENING_FILE


def check_screening(round_: Round, problems: Problems) -> None:
    found = problems.in_file(SCREENING_FILE)
    item_ids = {item.item_id for item in round_.items}
    counts = Counter(row.item_id for row in round_.screening)
    collected_on = round_.manifest.collected_on
    entries: list[tuple[str, str]] = []
    for number, row in enumerate(round_.screening, start=1):
        where = f"row {number} (item {row.item_id!r})"
        if row.item_id not in item_ids:
            entries.append((f"{where}, item_id", "not an item of items.parquet"))
        elif counts[row.item_id] > 1:
            entries.append((f"{where}, item_id", "expected one screening row per item"))
        if collected_on is not None and row.screened_on > collected_on:
            entries.append(
                (
                    f"{where}, screened_on",
                    f"{row.screened_on}: expected on or before collected_on {collected_on} "
                    "(items are screened before the round, Art. 37)",
                )
            )
    for item in round_.items:
        if item.item_id not in counts:
            entries.append(
                (
                    f"item {item.item_id!r}",
                    "no personal-data screening: expected a row with who screened it, when, "
                    "and the result (Art. 37)",
                )
            )
    found.rows(entries, "items screened wrongly")
