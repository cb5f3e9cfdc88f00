"""Art. 43 contestation dates of a multidomain round (metrics §9), from its round.json.

A test item may be contested from E = `ended_on` + `embargo_days` (00:00:00Z, when its
text may be published) to E + `contest_window_days` × 24 h, inclusive; a calibration
item (published with the report) from the report's publication instant, recorded by
`reportgen review publish`, for as many days. The administrator's reply is due
`reply_days` after the submission.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path

import pyarrow.parquet as pq

from reportgen.archive import ITEMS_FILE, MANIFEST_FILE
from reportgen.kinds.multidomain.derive import embargo_end_of
from review_app.core.errors import ReviewInputError
from review_app.core.publication import days_after


@dataclass(frozen=True)
class ContestTerms:
    ended_on: date
    embargo_days: int
    window_days: int
    reply_days: int

    @property
    def embargo_end(self) -> datetime:
        """E at 00:00:00Z: the kind's date (`derive.embargo_end`, which the site's
        embargo and the results' contestation dates use too)."""
        return datetime.combine(embargo_end_of(self.ended_on, self.embargo_days), time.min, UTC)


def contest_terms(round_dir: Path) -> ContestTerms:
    """The round's dates and days, from round.json (verified when the round entered)."""
    try:
        data = json.loads((round_dir / MANIFEST_FILE).read_text(encoding="utf-8"))
        block = data["multidomain"]
        return ContestTerms(
            ended_on=date.fromisoformat(data["ended_on"]),
            embargo_days=int(block["embargo_days"]),
            window_days=int(block["contest_window_days"]),
            reply_days=int(block["reply_days"]),
        )
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ReviewInputError("error_round_unreadable", path=str(round_dir), why=error) from None


def calibration_ids(round_dir: Path) -> frozenset[str]:
    try:
        table = pq.read_table(round_dir / ITEMS_FILE, columns=["item_id", "calibration"])
    except (OSError, KeyError, ValueError) as error:
        raise ReviewInputError("error_round_unreadable", path=str(round_dir), why=error) from None
    return frozenset(str(row["item_id"]) for row in table.to_pylist() if row["calibration"] is True)


def contest_window(
    round_dir: Path, round_id: str, item_id: str, published_on: datetime | None
) -> tuple[datetime, datetime]:
    """(opens, closes) of `item_id`'s contestation window."""
    terms = contest_terms(round_dir)
    if item_id in calibration_ids(round_dir):
        if published_on is None:
            raise ReviewInputError("error_not_published", round_id=round_id)
        opens = published_on
    else:
        opens = terms.embargo_end
    return opens, days_after(opens, terms.window_days)  # a stored date may be far off
