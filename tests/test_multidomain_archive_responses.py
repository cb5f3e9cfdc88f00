"""responses/<model_id>.parquet of a multidomain archive: each rule broken alone gives
one problem naming the file, the row (item and run) and what was expected
(multidomain-round.md, refusals 14, 28 to 33 and the status table)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reportgen.kinds.multidomain.terms import sha256_text
from tests.factories.multidomain import RoundParts, only_problem, refused, small_round


def _row(parts: RoundParts, model_id: str, item_id: str, run: int) -> dict[str, Any]:
    return next(
        row for row in parts.responses[model_id] if (row["item_id"], row["run"]) == (item_id, run)
    )


def _two_snapshots(parts: RoundParts) -> None:
    _row(parts, "p2", "a-calc", 2)["snapshot"] = "snap-other"


def _snapshot_not_declared(parts: RoundParts) -> None:
    for row in parts.responses["p1"]:
        row["snapshot"] = "snap-other"


def _calibration_response(parts: RoundParts) -> None:
    row = dict(_row(parts, "p1", "a-open", 2))
    row.update(item_id="cal-en", prompt_sha256=sha256_text(parts.item("cal-en")["prompt"]))
    parts.responses["p1"].append(row)


def _asymmetric_prompt(parts: RoundParts) -> None:
    _row(parts, "p3", "b-calc", 1)["prompt_sha256"] = sha256_text("Pergunta com uma dica extra.")


def _ok_mcq_format_false(parts: RoundParts) -> None:
    _row(parts, "p1", "a-mcq-v", 1)["format_ok"] = False


def _format_violation_on_open(parts: RoundParts) -> None:
    _row(parts, "p3", "b-open", 1).update(status="format_violation")


def _open_with_format_ok(parts: RoundParts) -> None:
    _row(parts, "p1", "b-open", 2)["format_ok"] = True


def _discarded_with_text(parts: RoundParts) -> None:
    _row(parts, "p2", "a-calc", 1).update(
        status="discarded_personal_data", scored_before_discard=True
    )


def _wrong_correct(parts: RoundParts) -> None:
    _row(parts, "p1", "b-mcq", 1)["correct"] = False


def _calc_outside_tolerance(parts: RoundParts) -> None:
    _row(parts, "p2", "b-calc", 1)["extracted_answer"] = "12.56"


def _called_late(parts: RoundParts) -> None:
    _row(parts, "p3", "a-calc", 2)["called_at"] = "2026-12-02T10:00:00Z"


def _bad_timestamp(parts: RoundParts) -> None:
    _row(parts, "p3", "a-calc", 2)["called_at"] = "2026-11-12 10:00"


def _unknown_status(parts: RoundParts) -> None:
    _row(parts, "p1", "a-calc", 1)["status"] = "skipped"


def _hash_of_other_text(parts: RoundParts) -> None:
    _row(parts, "p1", "a-calc", 1)["raw_sha256"] = sha256_text("outro texto")


def _negative_cost(parts: RoundParts) -> None:
    _row(parts, "p1", "a-calc", 1)["cost_micro"] = -1


def _timeout_with_text(parts: RoundParts) -> None:
    _row(parts, "p1", "a-calc", 1).update(
        status="timeout", format_ok=False, extracted_answer=None, correct=None
    )


def _timeout_too_soon(parts: RoundParts) -> None:
    _row(parts, "p1", "a-calc", 1).update(
        status="timeout",
        raw_text=None,
        raw_sha256=None,
        format_ok=False,
        extracted_answer=None,
        correct=None,
        latency_ms=5000.0,
    )


CASES: list[tuple[str, Callable[[RoundParts], None], str, str, str]] = [
    ("14 two", _two_snapshots, "responses/p2.parquet", "snapshot", "one snapshot"),
    ("14 declared", _snapshot_not_declared, "responses/p1.parquet", "snapshot", "'snap-p1'"),
    ("28", _calibration_response, "responses/p1.parquet", "(item 'cal-en', run 2)", "calibration"),
    ("29", _asymmetric_prompt, "responses/p3.parquet", "'b-calc', run 1), prompt_sha256", "same"),
    ("30 format_ok", _ok_mcq_format_false, "responses/p1.parquet", "run 1), format_ok", "true"),
    (
        "30 open",
        _format_violation_on_open,
        "responses/p3.parquet",
        "run 1), status",
        "mcq and calc",
    ),
    ("30 open format_ok", _open_with_format_ok, "responses/p1.parquet", "format_ok", "null"),
    ("31", _discarded_with_text, "responses/p2.parquet", "'a-calc', run 1), raw_text", "Art. 39"),
    ("32 mcq", _wrong_correct, "responses/p1.parquet", "'b-mcq', run 1), correct", "true"),
    ("32 calc", _calc_outside_tolerance, "responses/p2.parquet", "run 1), correct", "false"),
    ("33", _called_late, "responses/p3.parquet", "'a-calc', run 2), called_at", "outside"),
    ("ts", _bad_timestamp, "responses/p3.parquet", "run 2), called_at", "YYYY-MM-DDTHH:MM:SSZ"),
    ("status", _unknown_status, "responses/p1.parquet", "run 1), status", "expected one of"),
    ("raw hash", _hash_of_other_text, "responses/p1.parquet", "raw_sha256", "sha256(raw_text)"),
    ("cost", _negative_cost, "responses/p1.parquet", "cost_micro", ">= 0"),
    ("timeout text", _timeout_with_text, "responses/p1.parquet", "raw_text", "null"),
    ("timeout", _timeout_too_soon, "responses/p1.parquet", "latency_ms", "120000"),
]


@pytest.mark.parametrize(
    ("mutate", "file", "where", "message"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_one_broken_rule_gives_one_problem(
    tmp_path: Path, mutate: Callable[[RoundParts], None], file: str, where: str, message: str
) -> None:
    parts = small_round()
    mutate(parts)
    round_dir = parts.write(tmp_path)
    problem = only_problem(round_dir)
    assert (problem.file, where in problem.where, message in problem.message) == (
        file,
        True,
        True,
    ), str(problem)
    assert file in refused(round_dir)


def test_a_discarded_response_without_text_is_valid(tmp_path: Path) -> None:
    """Art. 39: the text is gone, its hash and the scores stay (a jury-scored response)."""
    parts = small_round()
    row = _row(parts, "p2", "a-open", 1)
    row.update(status="discarded_personal_data", raw_text=None, scored_before_discard=True)
    view = next(
        v
        for v in parts.tables["judge_views.parquet"]
        if (v["item_id"], v["model_id"], v["run"]) == ("a-open", "p2", 1)
    )
    view["view_text"] = None
    audit = parts.tables["audit.parquet"]
    parts.tables["audit.parquet"] = [
        a for a in audit if (a["item_id"], a["model_id"], a["run"]) != ("a-open", "p2", 1)
    ]
    from reportgen.kinds.rounds import verify_round

    assert verify_round(parts.write(tmp_path)) == []
