"""The cross-table rules on a round of REG-BC-2026-001's size find nothing in a valid round.

How long they take is measured by bench/bench_multidomain_rules.py, not asserted here: a
test must not depend on the machine's speed."""

from __future__ import annotations

from reportgen.archive import Problems
from reportgen.kinds.multidomain.rules import check_rules
from tests.factories.multidomain_scaled import scaled_round


def test_rules_on_a_round_of_regulation_size_find_nothing() -> None:
    round_ = scaled_round()
    assert sum(len(rows) for rows in round_.responses.values()) == 31_500
    assert len(round_.jury) == 94_500
    problems = Problems()
    check_rules(round_, problems)
    assert problems.as_list() == []
