"""The dates a round's publication may have, and window ends that cannot overflow.

`reportgen review publish --on DATE` accepts a day from EARLIEST_PUBLICATION to one
year after today (a planned publication; a later date is a typo such as 9999-12-31,
whose window end Python cannot even represent) and a window of 1 to MAX_WINDOW_DAYS
days. Dates stored before this rule, or written by hand, still must not break the
contest page: `days_after` saturates at the largest representable moment.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta

from review_app.core.db import now_utc
from review_app.core.errors import ReviewInputError

EARLIEST_PUBLICATION = date(2000, 1, 1)
PUBLICATION_DAYS_AHEAD = 366
MAX_WINDOW_DAYS = 365
_LAST_MOMENT = datetime.max.replace(tzinfo=UTC)


def check_publication(published_on: datetime, window_days: int) -> None:
    """Refuse a window outside 1..MAX_WINDOW_DAYS or a date outside the range above."""
    if window_days < 1:
        raise ReviewInputError("error_window_days", value=window_days)
    if window_days > MAX_WINDOW_DAYS:
        raise ReviewInputError("error_window_days_max", value=window_days, maximum=MAX_WINDOW_DAYS)
    latest = now_utc().date() + timedelta(days=PUBLICATION_DAYS_AHEAD)
    if not EARLIEST_PUBLICATION <= published_on.date() <= latest:
        raise ReviewInputError(
            "error_publish_date",
            date=published_on.date().isoformat(),
            earliest=EARLIEST_PUBLICATION.isoformat(),
            latest=latest.isoformat(),
        )


def days_after(moment: datetime, days: int) -> datetime:
    """`moment` + `days`, or the last representable moment when that overflows."""
    try:
        return moment + timedelta(days=days)
    except OverflowError:
        return _LAST_MOMENT
