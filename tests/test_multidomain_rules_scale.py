"""The cross-table rules on a round of REG-BC-2026-001's size: valid, and fast."""

from __future__ import annotations

import time

from reportgen.archive import Problems
from reportgen.kinds.multidomain.rules import check_rules
from tests.factories.multidomain_scaled import scaled_round


def test_rules_on_a_round_of_regulation_size_find_nothing_within_two_seconds() -> None:
    round_ = scaled_round()
    assert sum(len(rows) for rows in round_.responses.values()) == 31_500
    assert len(round_.jury) == 94_500
    problems = Problems()
    started = time.perf_counter()
    check_rules(round_, problems)
    elapsed = time.perf_counter() - started
    assert problems.as_list() == []
    assert elapsed < 2.0
