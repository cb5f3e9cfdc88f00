"""The dates REG-BC-2026-001 sets (docs/multidomain.md, "The regulation's dates").

- Art. 46: the regulation is in force from 2026-11-11; `verify` refuses a round collected
  before that date.
- Art. 6: a divergence found on re-verification (`verified_on`, before each round) and not
  reverted within 5 business days falls back to the field marked `verificar`. Business
  days are Monday to Friday less Brazil's national holidays, as the maintained `holidays`
  library knows them (its BR calendar, no state or municipal holidays).
- Art. 36: evidence is kept for 24 months from the round's end (`retain_until`,
  derive.add_months).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date, timedelta
from functools import cache

import holidays

ISSUED_ON = date(2026, 11, 11)  # Art. 46
REVERIFY_BUSINESS_DAYS = 5  # Art. 6


@cache
def _national_holidays(year: int) -> frozenset[date]:
    return frozenset(holidays.country_holidays("BR", years=year))


def is_business_day(day: date) -> bool:
    """Monday to Friday and not a Brazilian national holiday."""
    return day.weekday() < 5 and day not in _national_holidays(day.year)


def add_business_days(day: date, count: int) -> date:
    """The `count`-th business day after `day` (`day` itself is not counted)."""
    if count < 0:
        raise ValueError(f"count must be 0 or more, got {count}")
    current = day
    while count:
        current += timedelta(days=1)
        if is_business_day(current):
            count -= 1
    return current


def reverify_deadline(verified_on: date) -> date:
    """Art. 6: the last day to revert a divergence found on re-verification."""
    return add_business_days(verified_on, REVERIFY_BUSINESS_DAYS)


def latest_reverification(verified: Iterable[date]) -> date | None:
    """The round's last re-verification (its deadline is the round's last), if any."""
    return max(verified, default=None)
