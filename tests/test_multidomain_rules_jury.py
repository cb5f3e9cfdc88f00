"""Cross-table rules of a multidomain round: the jury (34, 35, 38) and the
adjudications (36, 37). Each test changes one thing of the minimal valid round and
expects exactly one problem."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

from reportgen.kinds.multidomain.model import Adjudication, JuryScore
from tests.factories.multidomain_rounds import (
    at,
    minimal_round,
    rule_problems,
    the_problem,
    with_judge,
    with_jury,
    with_manifest,
)


def _without(
    rows: tuple[JuryScore, ...], judge_id: str, key: tuple[str, str, int]
) -> list[JuryScore]:
    return [r for r in rows if (r.judge_id, (r.item_id, r.model_id, r.run)) != (judge_id, key)]


# --- 34: the panel ------------------------------------------------------------------------


def test_response_with_two_jurors() -> None:
    round_ = minimal_round()
    round_ = with_jury(round_, _without(round_.jury, "j3", ("o1", "p2", 1)))
    problem = the_problem(round_)
    assert problem.file == "jury.parquet"
    assert problem.where == "response (o1, p2, run 1)"
    assert "expected 3 distinct jurors, got 2" in problem.message


def test_jury_scored_response_without_jury_rows() -> None:
    round_ = minimal_round()
    kept = [r for r in round_.jury if (r.item_id, r.model_id, r.run) != ("o1", "p4", 1)]
    problem = the_problem(with_jury(round_, kept))
    assert problem.where == "response (o1, p4, run 1)"
    assert "no jury rows" in problem.message


def test_jury_rows_on_a_refusal() -> None:
    round_ = minimal_round()
    extra = [
        JuryScore("o1", "p4", 2, judge_id, criterion, 3, 0, at(20))
        for judge_id in ("j1", "j2", "j3")
        for criterion in ("clarity", "accuracy")
    ]
    problem = the_problem(with_jury(round_, [*round_.jury, *extra]))
    assert problem.where == "response (o1, p4, run 2)"
    assert "does not score (status 'refusal', not scored)" in problem.message


def test_juror_not_of_role_juror() -> None:
    problem = the_problem(with_judge(minimal_round(), "j4", role="reviewer"))
    assert (problem.file, problem.where) == ("jury.parquet", "judge j4")
    assert "of role 'reviewer' scores 2 response(s) as a juror" in problem.message


# --- 35: criteria and scores --------------------------------------------------------------


def _rescored(criterion: str | None = None, score: int | None = None) -> list[JuryScore]:
    """The jury with j1's accuracy row of (o1, p2, 1) changed."""
    rows = []
    for row in minimal_round().jury:
        if (row.judge_id, row.item_id, row.model_id, row.run, row.criterion_id) == (
            "j1",
            "o1",
            "p2",
            1,
            "accuracy",
        ):
            row = replace(row, criterion_id=criterion or row.criterion_id)
            row = replace(row, score=row.score if score is None else score)
        rows.append(row)
    return rows


def test_score_outside_the_scale() -> None:
    problem = the_problem(with_jury(minimal_round(), _rescored(score=6)))
    assert problem.file == "jury.parquet"
    assert problem.where.startswith("row ")
    assert "score 6: expected an integer in 0..5" in problem.message


def test_criterion_scored_twice() -> None:
    problem = the_problem(with_jury(minimal_round(), _rescored(criterion="clarity")))
    assert problem.where == "response (o1, p2, run 1), judge j1"
    assert "missing accuracy; twice clarity" in problem.message


def test_criterion_outside_the_rubric() -> None:
    problem = the_problem(with_jury(minimal_round(), _rescored(criterion="style")))
    assert "missing accuracy; not in the rubric style" in problem.message


# --- 36, 37: adjudications ----------------------------------------------------------------


def test_adjudication_missing_when_the_range_is_above() -> None:
    problem = the_problem(replace(minimal_round(), adjudications=()))
    assert (problem.file, problem.where) == ("adjudications.parquet", "response (o1, p1, run 1)")
    assert "juror range 7/2 > 3/2: adjudication missing" in problem.message


def test_adjudication_when_the_range_is_exactly_the_threshold() -> None:
    round_ = minimal_round()
    extra = [
        Adjudication("o1", "p1", 2, "a1", criterion, 3, at(21))
        for criterion in ("clarity", "accuracy")
    ]
    problem = the_problem(replace(round_, adjudications=(*round_.adjudications, *extra)))
    assert problem.where == "response (o1, p1, run 2)"
    assert "juror range 3/2 <= 3/2" in problem.message


def test_adjudication_threshold_is_read_exactly() -> None:
    # adjudicate_above 7/2: the (o1, p1, 1) range of 7/2 no longer needs adjudication, so
    # its F is the jurors' mean 19/6 and the audit divergence (h 5/2) falls to 2/3: the
    # ledger's audit line of o1 loses its trigger too.
    jury = replace(minimal_round().manifest.jury, adjudicate_above=Fraction(7, 2))
    found = rule_problems(with_manifest(minimal_round(), jury=jury))
    assert [(p.file, p.where) for p in found] == [
        ("adjudications.parquet", "response (o1, p1, run 1)"),
        ("annulments.jsonl", "line 1"),
    ]
    assert "juror range 7/2 <= 7/2" in found[0].message


def test_adjudicator_of_another_role() -> None:
    round_ = minimal_round()
    moved = tuple(replace(a, judge_id="h2") for a in round_.adjudications)
    problem = the_problem(replace(round_, adjudications=moved))
    assert problem.where == "response (o1, p1, run 1), judge h2"
    assert "of role 'reviewer'" in problem.message


def test_adjudicator_who_sat_on_the_jury() -> None:
    round_ = minimal_round()
    moved = tuple(replace(a, judge_id="j2") for a in round_.adjudications)
    problem = the_problem(replace(round_, adjudications=moved))
    assert problem.where == "response (o1, p1, run 1), judge j2"
    assert "one of this response's jurors" in problem.message


def test_two_adjudicators() -> None:
    round_ = minimal_round()
    second = replace(round_.adjudications[1], judge_id="a2")
    round_ = replace(round_, adjudications=(round_.adjudications[0], second))
    round_ = replace(round_, judges=(*round_.judges, replace(round_.judges[4], judge_id="a2")))
    # a2 took the calibration test as a1 did (Art. 16), so only the split is at fault.
    calibrated = tuple(replace(r, rater_id="a2") for r in round_.calibration if r.rater_id == "a1")
    round_ = replace(round_, calibration=(*round_.calibration, *calibrated))
    found = rule_problems(round_)
    # The split also leaves each adjudicator one criterion short.
    assert [p.where for p in found] == [
        "response (o1, p1, run 1)",
        "response (o1, p1, run 1), judge a1",
        "response (o1, p1, run 1), judge a2",
    ]
    assert "expected one adjudicator, got a1, a2" in found[0].message


def test_adjudication_criteria_complete() -> None:
    round_ = minimal_round()
    problem = the_problem(replace(round_, adjudications=round_.adjudications[:1]))
    assert problem.file == "adjudications.parquet"
    assert "missing accuracy" in problem.message


# --- 38: presentation positions ----------------------------------------------------------


def test_position_differs_from_the_seeded_rank() -> None:
    round_ = minimal_round()
    first = round_.jury[0]
    wrong = replace(first, position=first.position + 10)
    problem = the_problem(replace(round_, jury=(wrong, *round_.jury[1:])))
    assert problem.file == "jury.parquet"
    assert problem.where.startswith("row 1 (judge j1, response (o1, p1, run 1))")
    assert f"expected {first.position}" in problem.message


def test_positions_follow_the_presentation_seed() -> None:
    # Another seed re-ranks the judges' responses: the archived positions no longer fit.
    round_ = minimal_round()
    jury = replace(round_.manifest.jury, presentation_seed=12)
    found = rule_problems(with_manifest(round_, jury=jury))
    assert found
    assert {p.file for p in found} == {"jury.parquet"}
