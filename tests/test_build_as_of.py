"""`reportgen build --as-of`: the date a build speaks for, and its default."""

from __future__ import annotations

from datetime import UTC, date, datetime

import pytest

from reportgen.errors import InputError
from reportgen.render.siteconfig import default_as_of


def test_the_default_is_the_date_of_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    epoch = int(datetime(2027, 3, 21, 23, 59, tzinfo=UTC).timestamp())
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    assert default_as_of() == date(2027, 3, 21)


def test_without_source_date_epoch_it_is_today_in_utc(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    before = datetime.now(UTC).date()
    assert before <= default_as_of() <= datetime.now(UTC).date()


def test_a_bad_source_date_epoch_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(InputError, match=r"^SOURCE_DATE_EPOCH: 'yesterday' is not"):
        default_as_of()
