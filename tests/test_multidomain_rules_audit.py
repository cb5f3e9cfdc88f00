"""Cross-table rules of a multidomain round: calibration (40) and the human audit (41,
42, 43). Each test changes one thing of the minimal valid round and expects exactly
one problem."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from fractions import Fraction

from reportgen.kinds.multidomain.model import AuditScore, CalibrationScore, Round
from reportgen.kinds.multidomain.terms import sha256_text
from tests.factories.multidomain_rounds import (
    at,
    item,
    minimal_round,
    rule_problems,
    screening_of,
    the_problem,
    with_judge,
    with_manifest,
)

# --- 40: calibration ----------------------------------------------------------------------


def _calibration(round_: Round, rows: list[CalibrationScore]) -> Round:
    return replace(round_, calibration=tuple(rows))


def test_calibration_response_with_one_reviewer() -> None:
    round_ = minimal_round()
    rows = [r for r in round_.calibration if r.rater_id != "h2"]
    problem = the_problem(_calibration(round_, rows))
    assert (problem.file, problem.where) == ("calibration.parquet", "response 'cr1'")
    assert "got jurors {j1, j2, j3}, reviewers {h1}" in problem.message


def test_calibration_juror_in_a_reviewers_place() -> None:
    round_ = minimal_round()
    rows = [replace(r, rater_id="j4") if r.rater_id == "h2" else r for r in round_.calibration]
    problem = the_problem(_calibration(round_, rows))
    assert "got jurors {j1, j2, j3, j4}, reviewers {h1}" in problem.message


def test_calibration_rater_of_another_role() -> None:
    round_ = minimal_round()
    # The adjudicator may score calibration (Art. 16); a model "reviewer" may not.
    round_ = with_judge(round_, "h2", kind="model")
    problem = the_problem(round_)
    assert "other raters {h2}" in problem.message


def test_calibration_hash_mismatch() -> None:
    round_ = minimal_round()
    rows = list(round_.calibration)
    rows[3] = replace(rows[3], response_sha256="0" * 64)
    problem = the_problem(_calibration(round_, rows))
    assert "response_sha256: expected sha256(response_text)" in problem.message


def test_calibration_response_with_two_texts() -> None:
    round_ = minimal_round()
    rows = list(round_.calibration)
    other = "Outro texto."
    rows[3] = replace(rows[3], response_text=other, response_sha256=sha256_text(other))
    problem = the_problem(_calibration(round_, rows))
    assert "expected one response_text" in problem.message


def test_calibration_score_outside_the_scale() -> None:
    round_ = minimal_round()
    rows = list(round_.calibration)
    rows[0] = replace(rows[0], score=7)
    problem = the_problem(_calibration(round_, rows))
    assert problem.where == "row 1"
    assert "score 7" in problem.message


def test_calibration_scored_after_collection() -> None:
    round_ = minimal_round()
    rows = list(round_.calibration)
    rows[0] = replace(rows[0], scored_on=date(2026, 11, 12))
    problem = the_problem(_calibration(round_, rows))
    assert "scored_on 2026-11-12: expected on or before collected_on 2026-11-11" in problem.message
    rows[0] = replace(rows[0], scored_on=date(2026, 11, 11))
    assert rule_problems(_calibration(round_, rows)) == []


def test_calibration_criterion_missing() -> None:
    round_ = minimal_round()
    rows = [r for r in round_.calibration if (r.rater_id, r.criterion_id) != ("j2", "clarity")]
    problem = the_problem(_calibration(round_, rows))
    assert problem.where == "response 'cr1', rater j2"
    assert "missing clarity" in problem.message


def test_calibration_item_without_responses() -> None:
    round_ = minimal_round()
    k2 = item("k2", "open", "en", 2, calibration=True, canary=None, published=True)
    items = (*round_.items, k2)
    problem = the_problem(replace(round_, items=items, screening=screening_of(items)))
    assert problem.where == "item 'k2'"
    assert "calibration item without any response" in problem.message


def test_calibration_rows_of_two_items() -> None:
    round_ = minimal_round()
    k2 = item("k2", "open", "en", 2, calibration=True, canary=None, published=True)
    rows = list(round_.calibration)
    rows[0] = replace(rows[0], item_id="k2")
    items = (*round_.items, k2)
    changed = replace(round_, items=items, calibration=tuple(rows), screening=screening_of(items))
    problem = the_problem(changed)
    assert "expected one item, got k1, k2" in problem.message


# --- 41, 42: the audited responses --------------------------------------------------------


def _audit(round_: Round, rows: list[AuditScore]) -> Round:
    return replace(round_, audit=tuple(rows))


def test_drawn_response_not_audited() -> None:
    round_ = minimal_round()
    rows = [r for r in round_.audit if r.model_id != "p4"]
    problem = the_problem(_audit(round_, rows))
    assert (problem.file, problem.where) == ("audit.parquet", "response (o1, p4, run 1)")
    assert "not audited" in problem.message


def test_audit_rows_outside_the_draw() -> None:
    round_ = minimal_round()
    extra = [AuditScore("au-9", "m1", "p1", 1, "h1", "clarity", 3, True, at(25))]
    problem = the_problem(_audit(round_, [*round_.audit, extra[0]]))
    assert problem.where == "row 9 (response (m1, p1, run 1))"
    assert "not an audited response" in problem.message


def test_audit_rows_on_a_response_that_is_not_ok() -> None:
    # (o1, p2, 2) is discarded: jury-scored, yet not audited (status ok only).
    round_ = minimal_round()
    extra = [
        AuditScore("au-9", "o1", "p2", 2, "h1", c, 3, True, at(25)) for c in ("clarity", "accuracy")
    ]
    problem = the_problem(_audit(round_, [*round_.audit, *extra]))
    assert "not an audited response" in problem.message


def test_audit_not_blind() -> None:
    round_ = minimal_round()
    rows = list(round_.audit)
    rows[7] = replace(rows[7], blind=False)
    problem = the_problem(_audit(round_, rows))
    assert problem.where == "response (o1, p4, run 1)"
    assert "blind false" in problem.message


def test_audit_by_two_reviewers() -> None:
    round_ = minimal_round()
    rows = list(round_.audit)
    rows[7] = replace(rows[7], reviewer_id="h2")
    problem = the_problem(_audit(round_, rows))
    assert "expected one reviewer, got h1, h2" in problem.message


def test_audit_by_a_model() -> None:
    round_ = minimal_round()
    rows = [replace(r, reviewer_id="j1") if r.model_id == "p4" else r for r in round_.audit]
    problem = the_problem(_audit(round_, rows))
    assert "reviewer j1: expected a human judge of role reviewer" in problem.message


def test_audit_criterion_missing() -> None:
    round_ = minimal_round()
    problem = the_problem(_audit(round_, list(round_.audit[:-1])))
    assert "missing accuracy" in problem.message


def test_audit_ids() -> None:
    round_ = minimal_round()
    rows = list(round_.audit)
    rows[7] = replace(rows[7], audit_id="au-x")
    problem = the_problem(_audit(round_, rows))
    assert "expected one audit_id, got au-4, au-x" in problem.message
    shared = [replace(r, audit_id="au-3") if r.audit_id == "au-4" else r for r in round_.audit]
    problem = the_problem(_audit(round_, shared))
    assert problem.where == "response (o1, p4, run 1)"
    assert "audit_id 'au-3' is also response (o1, p2, run 1)'s" in problem.message


# --- 43: divergence and the ledger --------------------------------------------------------


def test_divergence_without_an_audit_line() -> None:
    problem = the_problem(replace(minimal_round(), annulments=()))
    assert (problem.file, problem.where) == ("annulments.jsonl", "item 'o1'")
    assert "audit divergence 3/2 > 1" in problem.message
    assert "'au-1'" in problem.message


def test_audit_line_whose_ref_is_not_a_triggering_response() -> None:
    round_ = minimal_round()
    # au-3 diverges by exactly 1: not above invalidate_above.
    line = replace(round_.annulments[0], ref="au-3")
    problem = the_problem(replace(round_, annulments=(line,)))
    assert problem.where == "line 1"
    assert "ref 'au-3' is not the audit_id" in problem.message


def test_audit_line_without_any_divergence() -> None:
    round_ = minimal_round()
    rows = [replace(r, score=4) if r.audit_id == "au-1" else r for r in round_.audit]
    problem = the_problem(_audit(round_, rows))
    assert problem.where == "line 1"
    assert "no audited response of item 'o1' diverges by more than 1" in problem.message


def test_invalidation_threshold_is_exact_and_strict() -> None:
    # The largest divergence is 3/2: a threshold of 3/2 invalidates nothing.
    audit = replace(minimal_round().manifest.audit, invalidate_above=Fraction(3, 2))
    problem = the_problem(with_manifest(minimal_round(), audit=audit))
    assert problem.where == "line 1"
    just_below = replace(audit, invalidate_above=Fraction(3, 2) - Fraction(1, 10**12))
    assert rule_problems(with_manifest(minimal_round(), audit=just_below)) == []
