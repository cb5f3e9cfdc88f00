"""The round's dates (multidomain-metrics.md §9, MD-I16), from derive.py's rules, and the
Art. 6 re-verification deadline (reg_dates.py: business days with Brazil's national
holidays)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, timedelta

from reportgen.kinds.multidomain.derive import add_months, embargo_end, provisional_until
from reportgen.kinds.multidomain.model import Manifest
from reportgen.kinds.multidomain.reg_dates import latest_reverification, reverify_deadline


@dataclass(frozen=True)
class RoundDates:
    ended_on: date
    embargo_end: date  # E: test items may be published from this date
    contest_opens: date  # E 00:00:00Z
    contest_closes: date  # E + contest_window_days (00:00:00Z of that day, inclusive)
    provisional_until: date
    retain_until: date  # Art. 36: ended_on + retention_months (24)
    reverified_on: date | None  # Art. 6: the round's last re-verification (models.csv)
    reverify_until: date | None  # Art. 6: reverified_on + 5 business days


def round_dates(manifest: Manifest, verified: Iterable[date] = ()) -> RoundDates:
    """The round's dates; `verified` holds the participants' `verified_on` (Art. 6)."""
    assert manifest.ended_on is not None  # required for this kind (verify refuses otherwise)
    end = embargo_end(manifest)
    reverified = latest_reverification(verified)
    return RoundDates(
        ended_on=manifest.ended_on,
        embargo_end=end,
        contest_opens=end,
        contest_closes=end + timedelta(days=manifest.contest_window_days),
        provisional_until=provisional_until(manifest),
        retain_until=add_months(manifest.ended_on, manifest.retention_months),
        reverified_on=reverified,
        reverify_until=None if reverified is None else reverify_deadline(reverified),
    )


def is_provisional(manifest: Manifest, as_of: date) -> bool:
    return as_of < provisional_until(manifest)


def embargo_over(manifest: Manifest, as_of: date) -> bool:
    return as_of >= embargo_end(manifest)
