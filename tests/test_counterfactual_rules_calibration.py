"""Rules 42-44 on calibration.parquet. Each test changes one thing of the minimal valid
round (three hand-scored tone responses of bot-a, min_items 3) and expects exactly one
problem."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from reportgen.kinds.counterfactual.model import Round
from tests.factories.counterfactual_rounds import (
    minimal_round,
    rule_problems,
    the_problem,
    with_extraction,
    with_manifest,
)

FILE = "calibration.parquet"


def _with_row(round_: Round, number: int, **changes: Any) -> Round:
    rows = list(round_.calibration)
    rows[number - 1] = replace(rows[number - 1], **changes)
    return replace(round_, calibration=tuple(rows))


# --- 42: present iff a judged score variable --------------------------------------------------


def test_calibration_without_a_judged_score_variable() -> None:
    round_ = minimal_round()
    variables = tuple(
        replace(v, type="count", scale=None) if v.variable_id == "tom" else v
        for v in round_.variables
    )
    problem = the_problem(replace(round_, variables=variables))
    assert (problem.file, problem.where) == (FILE, "")
    assert problem.message.startswith("present without a judged score variable")


def test_judged_score_variable_without_calibration() -> None:
    problem = the_problem(replace(minimal_round(), calibration=()))
    assert (problem.file, problem.where) == (FILE, "")
    assert problem.message.startswith("missing: tom scored by a model judge")


# --- 43: enough calibration items ---------------------------------------------------------------


def test_fewer_calibration_items_than_min_items() -> None:
    round_ = minimal_round()
    plan = round_.manifest.preregistration
    calibration = replace(plan.calibration, min_items=4)
    changed = with_manifest(round_, preregistration=replace(plan, calibration=calibration))
    problem = the_problem(changed)
    assert (problem.file, problem.where, problem.message) == (
        FILE,
        "variable tom",
        "fewer calibration items: 3 scored responses; expected at least 4 "
        "(preregistration.calibration.min_items)",
    )


def test_a_duplicate_does_not_count_twice() -> None:
    round_ = minimal_round()
    rows = round_.calibration
    changed = replace(round_, calibration=(*rows[:2], rows[0]))
    messages = sorted(p.message for p in rule_problems(changed))
    assert len(messages) == 2
    assert messages[0].startswith("duplicate")
    assert messages[1].startswith("fewer calibration items: 2 scored responses")


# --- 44: each row ---------------------------------------------------------------------------------


def test_row_of_an_unknown_variable() -> None:
    round_ = minimal_round()
    extra = replace(round_.calibration[0], variable_id="palavras")
    problem = the_problem(replace(round_, calibration=(*round_.calibration, extra)))
    assert (problem.where, problem.message) == (
        "row 4",
        "variable palavras is not a judged score (type score, extractor model)",
    )


def test_row_of_an_unknown_response() -> None:
    round_ = minimal_round()
    extra = replace(round_.calibration[0], run=5)
    problem = the_problem(replace(round_, calibration=(*round_.calibration, extra)))
    assert problem.where == "row 4"
    assert "response (bot-a, t1--n1, run 5) does not exist" in problem.message


def test_duplicate_row() -> None:
    round_ = minimal_round()
    rows = round_.calibration
    problem = the_problem(replace(round_, calibration=(*rows, rows[1])))
    assert (problem.where, problem.message) == (
        "row 4",
        "duplicate: a second score of the same response and variable (first in row 2)",
    )


def test_input_other_than_the_judges() -> None:
    problem = the_problem(_with_row(minimal_round(), 2, input_sha256="f" * 64))
    assert (problem.file, problem.where) == (FILE, "row 2, input_sha256")


def test_judge_score_other_than_the_frozen_value() -> None:
    problem = the_problem(_with_row(minimal_round(), 3, judge_score=5))
    assert (problem.where, problem.message) == (
        "row 3, judge_score",
        "5: expected the frozen extraction value 4",
    )


def test_a_response_scored_na_cannot_be_sampled() -> None:
    changed = with_extraction(minimal_round(), "bot-a", ("t1--n1", 1, "tom"), value="na")
    problem = the_problem(changed)
    assert problem.where == "row 1, judge_score"
    assert "na (a response scored na cannot be sampled)" in problem.message


def test_human_score_outside_the_scale() -> None:
    problem = the_problem(_with_row(minimal_round(), 1, human_score=0))
    assert (problem.where, problem.message) == (
        "row 1, human_score",
        "0: expected an integer in 1..5 (variables.csv, tom)",
    )
