"""Cross-table rules of a multidomain round: the cast (7), conflicts of interest (12,
13), the bank (16, 17, 18, 23) and the ledger (44, 45). Each test changes one thing of
the minimal valid round and expects exactly one problem."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from fractions import Fraction

import pytest

from reportgen.kinds.multidomain.model import Annulment, Composition, GradeRules
from reportgen.model import Source
from tests.factories.multidomain_rounds import (
    ENDED_ON,
    minimal_round,
    rule_problems,
    the_problem,
    with_item,
    with_judge,
    with_manifest,
    with_participant,
)


def test_the_minimal_round_is_valid() -> None:
    assert rule_problems(minimal_round()) == []


# --- 7: cast ---------------------------------------------------------------------------


def test_cast_count_differs_from_cast_size() -> None:
    problem = the_problem(with_manifest(minimal_round(), cast_size=4))
    assert problem.file == "models.csv"
    assert "expected 4 participants" in problem.message
    assert "got 3" in problem.message


def test_reserve_out_of_order_given_the_previous_ranks() -> None:
    # Reserve 5 ranked first in the previous round: it, not 4, replaces the withdrawn 3.
    problem = the_problem(minimal_round(), previous_ranks={5: 1, 4: 2, 1: 3})
    assert (problem.file, problem.where) == ("models.csv", "replaces")
    assert "expected reserve 5 replaces 3, got reserve 4 replaces 3" in problem.message


def test_reserves_absent_from_the_previous_round_rank_after_ranked_ones() -> None:
    assert rule_problems(minimal_round(), previous_ranks={4: 7}) == []
    assert rule_problems(minimal_round(), previous_ranks={1: 1, 2: 2}) == []
    problem = the_problem(minimal_round(), previous_ranks={5: 9})
    assert "expected reserve 5 replaces 3" in problem.message


def test_reserve_that_replaces_the_wrong_entry() -> None:
    problem = the_problem(with_participant(minimal_round(), "p4", replaces=2))
    assert problem.where == "replaces"
    assert "got reserve 4 replaces 2" in problem.message


def test_a_later_reserve_in_the_cast() -> None:
    problem = the_problem(with_participant(minimal_round(), "p4", annex_id=5))
    assert "expected reserve 4 replaces 3, got reserve 5 replaces 3" in problem.message


def test_primary_entry_with_replaces() -> None:
    problem = the_problem(with_participant(minimal_round(), "p2", replaces=3))
    assert problem.where == "row 2, replaces"
    assert "no reserve" in problem.message


# --- 12, 13: conflicts of interest ------------------------------------------------------


def test_participant_judge_scores_a_participant_operated_by_the_organization() -> None:
    # j3 is the participant p1; p2 now operated by the Organization.
    problem = the_problem(with_participant(minimal_round(), "p2", operated_by_organization=True))
    assert (problem.file, problem.where) == ("jury.parquet", "judge j3")
    assert "2 response(s) of p2" in problem.message
    assert "operated by the Organization" in problem.message


def test_juror_of_the_same_economic_group() -> None:
    problem = the_problem(with_judge(minimal_round(), "j1", economic_group="grupo-baoba"))
    assert (problem.file, problem.where) == ("jury.parquet", "judge j1")
    assert "same economic group 'grupo-baoba'" in problem.message


def test_juror_judging_itself() -> None:
    round_ = with_judge(minimal_round(), "j3", participant_model_id="p2")
    problem = the_problem(round_)
    assert problem.where == "judge j3"
    assert "the judge is this participant" in problem.message


def test_adjudicator_with_a_conflict() -> None:
    problem = the_problem(with_judge(minimal_round(), "a1", economic_group="grupo-aurora"))
    assert (problem.file, problem.where) == ("adjudications.parquet", "judge a1")


@pytest.mark.parametrize(
    ("judge_id", "files"),
    [
        # The adjudicator also scores the calibration test (Art. 16).
        ("a1", ("adjudications.parquet", "calibration.parquet")),
        ("j4", ("jury.parquet",)),
        ("h2", ("calibration.parquet",)),
    ],
)
def test_judge_with_a_declared_conflict_scores(judge_id: str, files: tuple[str, ...]) -> None:
    round_ = with_judge(minimal_round(), judge_id, declared_conflict=True, conflict_note="x")
    found = rule_problems(round_)
    assert [(p.file, p.where) for p in found] == [(file, f"judge {judge_id}") for file in files]
    assert all("declared conflict" in p.message for p in found)


def test_declared_conflict_in_the_audit() -> None:
    round_ = with_judge(minimal_round(), "h1", declared_conflict=True, conflict_note="x")
    files = sorted(p.file for p in rule_problems(round_))
    assert files == ["audit.parquet", "calibration.parquet"]


def test_a_declared_judge_who_scores_nothing_is_fine() -> None:
    # j5 (declared conflict) is in judges.csv and scores nothing.
    assert any(j.declared_conflict for j in minimal_round().judges)
    assert rule_problems(minimal_round()) == []


# --- 16, 17, 18, 23: the bank -----------------------------------------------------------


def test_composition_per_language() -> None:
    composition = {"d1": Composition({"pt-BR": 3, "en": 1}, {"mcq": 2, "open": 1, "calc": 1})}
    problem = the_problem(with_manifest(minimal_round(), composition=composition))
    assert (problem.file, problem.where) == ("items.parquet", "domain d1, language")
    assert "expected {en: 1, pt-BR: 3}" in problem.message
    assert "got {en: 2, pt-BR: 2}" in problem.message


def test_composition_per_type() -> None:
    composition = {"d1": Composition({"pt-BR": 2, "en": 2}, {"mcq": 1, "open": 2, "calc": 1})}
    problem = the_problem(with_manifest(minimal_round(), composition=composition))
    assert problem.where == "domain d1, type"


def test_composition_counts_active_items_only() -> None:
    # m2 is superseded by m2v: its language and grade no longer count.
    assert rule_problems(with_item(minimal_round(), "m2", language="pt-BR", grade=5)) == []
    problem = the_problem(with_item(minimal_round(), "m2v", language="pt-BR"))
    assert problem.where == "domain d1, language"


def test_grade_counts() -> None:
    counts = {1: 0, 2: 2, 3: 1, 4: 1, 5: 0}
    problem = the_problem(with_manifest(minimal_round(), grade_counts=counts))
    assert (problem.file, problem.where) == ("items.parquet", "grade")
    assert "multidomain.grade_counts" in problem.message


def test_grade_rules_distinct_grades() -> None:
    rules = GradeRules(min_distinct=4, high_grade=4, high_min_share=Fraction(1, 20))
    problem = the_problem(with_manifest(minimal_round(), grade_rules=rules))
    assert problem.where == "domain d1, grade"
    assert "at least 4 distinct" in problem.message


def test_grade_rules_high_share_is_exact() -> None:
    # One of four active items has grade >= 4: a share of exactly 1/4 passes.
    at_limit = GradeRules(min_distinct=3, high_grade=4, high_min_share=Fraction(1, 4))
    assert rule_problems(with_manifest(minimal_round(), grade_rules=at_limit)) == []
    above = GradeRules(
        min_distinct=3, high_grade=4, high_min_share=Fraction(1, 4) + Fraction(1, 10**9)
    )
    problem = the_problem(with_manifest(minimal_round(), grade_rules=above))
    assert "got 1" in problem.message


def test_max_points() -> None:
    problem = the_problem(with_manifest(minimal_round(), max_points=13))
    assert (problem.file, problem.where) == ("round.json", "multidomain.max_points")
    assert "expected 12" in problem.message


def test_order_differs_from_the_seeded_order() -> None:
    problem = the_problem(with_item(minimal_round(), "c1", order=9))
    assert problem.file == "items.parquet"
    assert problem.where == "row 3 (item 'c1'), order"
    assert "expected 4" in problem.message
    assert "got 9" in problem.message


def test_variant_is_ordered_after_the_bank() -> None:
    round_ = minimal_round()
    orders = {i.item_id: i.order for i in round_.items}
    assert orders["m2v"] == 5
    assert orders["k1"] is None


# --- 44, 45: the ledger -----------------------------------------------------------------


def _line(item_id: str, source: Source = "contestation") -> Annulment:
    return Annulment(item_id, date(2026, 12, 6), source, "c-1", {"pt-BR": "r", "en": "r"}, "")


@pytest.mark.parametrize(("item_id", "what"), [("m2", "superseded"), ("k1", "a calibration item")])
def test_ledger_line_for_an_item_that_is_not_active(item_id: str, what: str) -> None:
    round_ = minimal_round()
    round_ = replace(round_, annulments=(*round_.annulments, _line(item_id)))
    problem = the_problem(round_)
    assert (problem.file, problem.where) == ("annulments.jsonl", "line 2")
    assert what in problem.message


def test_audit_line_for_an_item_that_is_not_open() -> None:
    round_ = minimal_round()
    round_ = replace(round_, annulments=(*round_.annulments, _line("m1", "audit")))
    problem = the_problem(round_)
    assert problem.where == "line 2"
    assert "expected an open item" in problem.message


def test_ledger_line_decided_before_the_round_ended() -> None:
    round_ = minimal_round()
    early = replace(round_.annulments[0], decided_on=date(2026, 11, 29))
    problem = the_problem(replace(round_, annulments=(early,)))
    assert problem.where == "line 1"
    assert "decided_on 2026-11-29" in problem.message
    on_the_day = replace(round_.annulments[0], decided_on=ENDED_ON)
    assert rule_problems(replace(round_, annulments=(on_the_day,))) == []


def test_item_annulled_twice() -> None:
    round_ = minimal_round()
    round_ = replace(round_, annulments=(*round_.annulments, _line("o1")))
    problem = the_problem(round_)
    assert problem.where == "line 2"
    assert "annulled twice" in problem.message
