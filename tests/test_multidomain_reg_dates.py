"""The dates REG-BC-2026-001 sets: the issue date (Art. 46) refuses an earlier round, the
Art. 6 re-verification deadline counts business days (weekends and Brazil's national
holidays, from the `holidays` library) and the Art. 36 retention end; `reportgen summary`
shows both to the organiser (the site's dates table: tests/test_multidomain_site.py)."""

from __future__ import annotations

import dataclasses
from datetime import date
from pathlib import Path

import holidays
import pytest
from rich.console import Console

from reportgen.demo.multidomain.tiny import tiny_round
from reportgen.kinds.multidomain import stages
from reportgen.kinds.multidomain.model import Round
from reportgen.kinds.multidomain.reg_dates import (
    ISSUED_ON,
    add_business_days,
    is_business_day,
    reverify_deadline,
)
from reportgen.kinds.multidomain.stats.dates import round_dates
from reportgen.results import CACHE_ENV
from tests.factories.multidomain import only_problem, refused, small_round

BLACK_AWARENESS = date(2026, 11, 20)  # Zumbi e Consciência Negra: national since 2024


def test_the_library_knows_black_awareness_day_as_a_national_holiday() -> None:
    assert BLACK_AWARENESS in holidays.country_holidays("BR", years=2026)
    assert not is_business_day(BLACK_AWARENESS)  # a Friday
    assert is_business_day(date(2026, 11, 19))


def test_a_weekend_is_no_business_day() -> None:
    assert not is_business_day(date(2026, 11, 28))  # Saturday
    assert not is_business_day(date(2026, 11, 29))  # Sunday
    assert add_business_days(date(2026, 11, 27), 1) == date(2026, 11, 30)  # Friday -> Monday


def test_five_business_days_across_a_national_holiday_and_a_weekend() -> None:
    # Re-verified Monday 16 November: 17, 18, 19, (20 holiday, 21-22 weekend), 23, 24.
    assert reverify_deadline(date(2026, 11, 16)) == date(2026, 11, 24)
    # All Souls' Day (Monday 2 November) is national too: 3, 4, 5, 6, (7-8), 9.
    assert reverify_deadline(date(2026, 10, 30)) == date(2026, 11, 9)


def test_a_round_collected_before_the_issue_date_is_refused(tmp_path: Path) -> None:
    assert date(2026, 11, 11) == ISSUED_ON
    parts = small_round()
    parts.manifest["collected_on"] = "2026-11-10"
    round_dir = parts.write(tmp_path)
    problem = only_problem(round_dir)
    assert (problem.file, problem.where) == ("round.json", "collected_on")
    assert "2026-11-10 is before 2026-11-11" in problem.message
    assert "Art. 46" in problem.message
    lines = [line for line in refused(round_dir).splitlines() if "collected_on" in line]
    assert len(lines) == 1
    assert "round.json: collected_on: 2026-11-10 is before 2026-11-11" in lines[0]


def test_a_round_collected_on_the_issue_date_passes(tmp_path: Path) -> None:
    parts = small_round()
    parts.manifest["collected_on"] = "2026-11-11"
    from reportgen.kinds.rounds import verify_round

    assert verify_round(parts.write(tmp_path)) == []


@pytest.fixture
def tiny(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Round:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    round_ = tiny_round(tmp_path / "tiny")
    manifest = dataclasses.replace(round_.manifest, bootstrap_replicates=50)
    return dataclasses.replace(round_, manifest=manifest)


def test_the_round_dates_hold_the_art6_deadline_and_the_art36_end(tiny: Round) -> None:
    # The tiny round's participants were re-verified on Friday 20 November (a holiday).
    dates = round_dates(tiny.manifest, (model.verified_on for model in tiny.models))
    assert dates.reverified_on == date(2026, 11, 20)
    assert dates.reverify_until == date(2026, 11, 27)
    assert dates.retain_until == date(2028, 11, 30)  # ended_on 2026-11-30 + 24 months
    assert round_dates(tiny.manifest).reverify_until is None


def test_the_summary_shows_the_regulation_dates_within_120_columns(tiny: Round) -> None:
    console = Console(record=True, width=120)
    stages.STAGES.print_summary(tiny, console)
    lines = console.export_text().splitlines()
    assert (
        "Art. 6: re-verified 2026-11-20; divergences reverted by 2026-11-27"
        " (5 business days, national holidays excluded)"
    ) in lines
    assert "Art. 36: evidence kept until 2028-11-30 (24 months after the end, 2026-11-30)" in lines
    assert max(map(len, lines)) <= 120
