"""The round's dates (multidomain-metrics.md §9, MD-I16), from derive.py's rules."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from reportgen.kinds.multidomain.derive import add_months, embargo_end, provisional_until
from reportgen.kinds.multidomain.model import Manifest


@dataclass(frozen=True)
class RoundDates:
    ended_on: date
    embargo_end: date  # E: test items may be published from this date
    contest_opens: date  # E 00:00:00Z
    contest_closes: date  # E + contest_window_days (00:00:00Z of that day, inclusive)
    provisional_until: date
    retain_until: date


def round_dates(manifest: Manifest) -> RoundDates:
    assert manifest.ended_on is not None  # required for this kind (verify refuses otherwise)
    end = embargo_end(manifest)
    return RoundDates(
        ended_on=manifest.ended_on,
        embargo_end=end,
        contest_opens=end,
        contest_closes=end + timedelta(days=manifest.contest_window_days),
        provisional_until=provisional_until(manifest),
        retain_until=add_months(manifest.ended_on, manifest.retention_months),
    )


def is_provisional(manifest: Manifest, as_of: date) -> bool:
    return as_of < provisional_until(manifest)


def embargo_over(manifest: Manifest, as_of: date) -> bool:
    return as_of >= embargo_end(manifest)
