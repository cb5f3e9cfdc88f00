"""Rules 32-35 on responses/<model_id>.parquet: cells, conditions, order, interleaving.
Each test changes one thing of the minimal valid round and expects exactly one problem."""

from __future__ import annotations

from dataclasses import replace
from datetime import timedelta

from reportgen.kinds.counterfactual.model import Response, Round
from reportgen.kinds.counterfactual.terms import sha256_text
from tests.factories.counterfactual_rounds import (
    START,
    minimal_round,
    the_problem,
    with_extractions,
    with_response,
    with_responses,
)

# --- 32: cells ----------------------------------------------------------------------------


def test_missing_cell() -> None:
    round_ = minimal_round()
    key = ("t1--n2", 2)
    rows = [r for r in round_.responses["bot-a"] if (r.item_id, r.run) != key]
    renumbered = tuple(replace(r, run_order=n) for n, r in enumerate(rows, start=1))
    extractions = tuple(e for e in round_.extractions["bot-a"] if (e.item_id, e.run) != key)
    changed = with_extractions(with_responses(round_, "bot-a", renumbered), "bot-a", extractions)
    problem = the_problem(changed)
    assert (problem.file, problem.where) == (
        "responses/bot-a.parquet",
        "(template t1, variant n2, run 2)",
    )
    assert problem.message.startswith("missing cell")


def _appended(round_: Round, model_id: str, row: Response) -> Round:
    rows = round_.responses[model_id]
    extra = replace(row, run_order=len(rows) + 1, called_at=START + timedelta(hours=1))
    return with_responses(round_, model_id, (*rows, extra))


def test_duplicate_item_run() -> None:
    round_ = minimal_round()
    problem = the_problem(_appended(round_, "bot-b", round_.responses["bot-b"][3]))
    assert (problem.file, problem.where) == ("responses/bot-b.parquet", "row 17")
    assert "a second response of (template t1, variant n4, run 1) (first in row 4)" in (
        problem.message
    )


def test_run_outside_repetitions() -> None:
    round_ = minimal_round()
    problem = the_problem(_appended(round_, "bot-a", replace(round_.responses["bot-a"][0], run=3)))
    assert (problem.where, problem.message) == (
        "row 17 (item t1--n1), run",
        "3 is outside 1..2 (counterfactual.repetitions)",
    )


def test_response_of_an_unknown_item() -> None:
    round_ = minimal_round()
    stray = replace(round_.responses["bot-a"][0], item_id="t9--n1")
    problem = the_problem(_appended(round_, "bot-a", stray))
    assert problem.where == "row 17, item_id"


# --- 33: the system's conditions -------------------------------------------------------------


def test_system_prompt_differs_from_the_declaration() -> None:
    changed = with_response(minimal_round(), "bot-a", ("t1--n3", 1), system_prompt_sha256="d" * 64)
    problem = the_problem(changed)
    assert (problem.file, problem.where) == (
        "responses/bot-a.parquet",
        "row 3 (t1--n3, run 1), system_prompt_sha256",
    )
    assert "differs from the system's declaration" in problem.message


def test_every_call_under_another_prompt_is_one_line() -> None:
    round_ = minimal_round()
    rows = tuple(replace(r, system_prompt_sha256="d" * 64) for r in round_.responses["bot-a"])
    problem = the_problem(with_responses(round_, "bot-a", rows))
    assert problem.where == "system_prompt_sha256"


def test_tools_differ_from_the_declaration() -> None:
    changed = with_response(minimal_round(), "bot-b", ("t2--e2", 2), tools_sha256="e" * 64)
    problem = the_problem(changed)
    assert problem.where == "row 9 (t2--e2, run 2), tools_sha256"


def test_a_call_that_sent_another_prompt_is_refused() -> None:
    """What was sent is evidenced per call: the hash of the user message the call
    records is its item's rendered prompt's."""
    round_ = minimal_round()
    sent = sha256_text("Olá, quero um reembolso.")
    problem = the_problem(with_response(round_, "bot-a", ("t1--n2", 2), prompt_sha256=sent))
    assert problem.file == "responses/bot-a.parquet"
    assert problem.where.endswith("(t1--n2, run 2), prompt_sha256")
    item = next(i for i in round_.items if i.item_id == "t1--n2")
    assert f"{sent} is not the hash of the item as rendered, {item.prompt_sha256}:" in (
        problem.message
    )


def test_a_call_that_sent_no_context_for_an_item_with_one_is_refused() -> None:
    round_ = minimal_round()
    item = next(i for i in round_.items if i.context is not None)
    problem = the_problem(with_response(round_, "bot-b", (item.item_id, 1), context_sha256=None))
    assert problem.where.endswith(f"({item.item_id}, run 1), context_sha256")
    assert problem.message.startswith("null (nothing sent) is not the hash of the item")


# --- 34: run_order and called_at -----------------------------------------------------------


def test_run_order_not_a_permutation() -> None:
    changed = with_response(minimal_round(), "bot-a", ("t1--n1", 1), run_order=2)
    problem = the_problem(changed)
    assert (problem.file, problem.where, problem.message) == (
        "responses/bot-a.parquet",
        "run_order",
        "not a permutation of 1..16 (missing 1; repeated 2)",
    )


def test_run_order_outside() -> None:
    changed = with_response(minimal_round(), "bot-a", ("t1--n1", 1), run_order=17)
    assert the_problem(changed).message == "not a permutation of 1..16 (missing 1; outside 17)"


def test_called_at_going_back() -> None:
    round_ = minimal_round()
    changed = with_response(round_, "bot-b", ("t1--n3", 1), called_at=START)
    problem = the_problem(changed)
    assert (problem.file, problem.where) == (
        "responses/bot-b.parquet",
        "row 3 (run_order 3), called_at",
    )
    assert "2026-11-10T09:00:00Z is earlier than the previous call's 2026-11-10T09:00:20Z" in (
        problem.message
    )


# --- 35: interleaving ----------------------------------------------------------------------


def test_groups_collected_one_after_the_other() -> None:
    round_ = minimal_round()
    rows = round_.responses["bot-a"]
    southern = [r for r in rows if r.item_id in ("t1--n1", "t1--n2")]
    others = [r for r in rows if r.item_id not in ("t1--n1", "t1--n2")]
    reordered = tuple(
        replace(r, run_order=n, called_at=START + timedelta(seconds=10 * n))
        for n, r in enumerate(southern + others, start=1)
    )
    problem = the_problem(with_responses(round_, "bot-a", reordered))
    assert (problem.file, problem.where) == (
        "responses/bot-a.parquet",
        "attribute nome, groups sul/nordeste",
    )
    assert problem.message.startswith(
        "non-interleaved collection: every call of group sul (run_order 1..4) came before "
        "every call of group nordeste (run_order 5..16)"
    )


def test_later_group_first_is_named_first() -> None:
    round_ = minimal_round()
    rows = round_.responses["bot-b"]
    old = [r for r in rows if r.item_id == "t1--i2"]
    others = [r for r in rows if r.item_id != "t1--i2"]
    reordered = tuple(
        replace(r, run_order=n, called_at=START + timedelta(seconds=10 * n))
        for n, r in enumerate(old + others, start=1)
    )
    problem = the_problem(with_responses(round_, "bot-b", reordered))
    assert problem.where == "attribute idade, groups jovem/idoso"
    assert "every call of group idoso (run_order 1..2) came before" in problem.message
