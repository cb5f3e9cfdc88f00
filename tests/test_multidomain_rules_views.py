"""Cross-table rules of a multidomain round: response rows (27), canaries (25) and judge
views (39), blindness included. Each test changes one thing of the minimal valid round
and expects exactly one problem."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reportgen.kinds.multidomain.model import JudgeView
from reportgen.kinds.multidomain.rules.responses import canary_pattern
from reportgen.kinds.multidomain.rules.views import NameMatcher, cast_names, visible_tokens
from reportgen.kinds.multidomain.terms import sha256_text
from tests.factories.multidomain_rounds import (
    CANARY,
    PARTICIPANTS,
    minimal_round,
    rule_problems,
    the_problem,
    with_item,
    with_response,
)

# --- 27: response rows --------------------------------------------------------------------


def test_missing_response_row() -> None:
    round_ = minimal_round()
    rows = tuple(r for r in round_.responses["p2"] if (r.item_id, r.run) != ("m2", 2))
    problem = the_problem(replace(round_, responses={**round_.responses, "p2": rows}))
    assert (problem.file, problem.where) == ("responses/p2.parquet", "item 'm2', run 2")
    assert "missing response row" in problem.message


def test_response_row_for_a_run_beyond_runs() -> None:
    round_ = minimal_round()
    (m1,) = [r for r in round_.responses["p1"] if (r.item_id, r.run) == ("m1", 1)]
    extra = replace(m1, run=3)
    rows = (*round_.responses["p1"], extra)
    problem = the_problem(replace(round_, responses={**round_.responses, "p1": rows}))
    assert problem.file == "responses/p1.parquet"
    assert "run 3 is outside 1..2" in problem.message


def test_responses_of_a_model_outside_the_cast() -> None:
    round_ = minimal_round()
    problem = the_problem(replace(round_, responses={**round_.responses, "p9": ()}))
    assert problem.file == "responses/p9.parquet"
    assert "no participant of models.csv" in problem.message


def test_participant_without_responses() -> None:
    round_ = minimal_round()
    responses = {k: v for k, v in round_.responses.items() if k != "p4"}
    # p4's jury, views and audit rows then name responses that do not exist.
    found = rule_problems(replace(round_, responses=responses))
    assert ("responses/p4.parquet", "") in [(p.file, p.where) for p in found]


# --- 25: canaries -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "copy",
    [
        CANARY.format(item_id="m1"),
        CANARY.format(item_id="m1").lower(),
        # fullwidth letters and digits: NFKC folds them
        "".join(chr(ord(c) + 0xFEE0) if c.isalnum() else c for c in CANARY.format(item_id="m1")),
    ],
)
def test_full_canary_of_an_item_not_superseded(copy: str) -> None:
    round_ = with_response(minimal_round(), ("c1", "p1", 1), raw_text=f"12.5 ({copy})")
    problem = the_problem(round_)
    assert problem.file == "responses/p1.parquet"
    assert problem.where.endswith("(item 'c1', run 1), raw_text")
    assert "canary of item 'm1'" in problem.message


def test_canary_of_a_superseded_item_is_evidence_not_a_refusal() -> None:
    texts = [r.raw_text or "" for r in minimal_round().responses["p2"]]
    assert any(CANARY.format(item_id="m2") in text for text in texts)
    assert rule_problems(minimal_round()) == []


def test_partial_canary_is_no_full_reproduction() -> None:
    partial = CANARY.format(item_id="m1")[:-1]
    assert rule_problems(with_response(minimal_round(), ("c1", "p1", 1), raw_text=partial)) == []


def test_canaries_inside_one_another_are_all_found() -> None:
    # c1's canary extends m1's: a copy of c1's holds both.
    longer = CANARY.format(item_id="m1") + "-extra"
    round_ = with_item(minimal_round(), "c1", canary=longer)
    round_ = with_response(round_, ("m1", "p4", 2), raw_text=f"B {longer}")
    found = rule_problems(round_)
    assert [p.where for p in found] == ["row 4 (item 'm1', run 2), raw_text"] * 2
    assert "item 'c1'" in found[0].message
    assert "item 'm1'" in found[1].message


def test_canary_pattern_of_long_and_many_canaries() -> None:
    long_canary = "x" * 5000
    pattern = canary_pattern([long_canary, "ab", "abc", "abd", ""])
    assert pattern is not None
    assert pattern.search("zz" + long_canary) is not None
    assert pattern.search("zzab") is not None
    assert pattern.search("a b") is None
    assert canary_pattern([]) is None
    assert canary_pattern([""]) is None


# --- 39: judge views ----------------------------------------------------------------------


def _views_with(index: int, **changes: object) -> tuple[JudgeView, ...]:
    views = list(minimal_round().judge_views)
    views[index] = replace(views[index], **changes)  # type: ignore[arg-type]
    return tuple(views)


def test_judge_view_missing() -> None:
    round_ = minimal_round()
    problem = the_problem(replace(round_, judge_views=round_.judge_views[1:]))
    assert (problem.file, problem.where) == ("judge_views.parquet", "response (o1, p1, run 1)")
    assert "no judge view" in problem.message


def test_second_view_of_one_response() -> None:
    round_ = minimal_round()
    again = replace(round_.judge_views[0], presented_as="SISTEMA-09")
    problem = the_problem(replace(round_, judge_views=(*round_.judge_views, again)))
    assert problem.where == "row 6"
    assert "a second view of response (o1, p1, run 1)" in problem.message


def test_view_of_a_response_the_jury_does_not_score() -> None:
    round_ = minimal_round()
    text = "Texto qualquer."
    view = JudgeView("o1", "p4", 2, "SISTEMA-03", text, sha256_text(text))
    problem = the_problem(replace(round_, judge_views=(*round_.judge_views, view)))
    assert "which the jury does not score" in problem.message


def test_view_hash_mismatch() -> None:
    problem = the_problem(
        replace(minimal_round(), judge_views=_views_with(0, view_sha256="0" * 64))
    )
    assert problem.where == "row 1"
    assert "expected sha256(view_text)" in problem.message


def test_view_text_null_for_a_response_that_was_not_discarded() -> None:
    problem = the_problem(replace(minimal_round(), judge_views=_views_with(0, view_text=None)))
    assert "view_text is null" in problem.message


def test_presented_as_repeated_within_item_and_run() -> None:
    round_ = replace(minimal_round(), judge_views=_views_with(2, presented_as="SISTEMA-01"))
    problem = the_problem(round_)
    assert problem.where == "item 'o1', run 1"
    assert "'SISTEMA-01' is given to 2 responses" in problem.message


def test_the_same_label_in_another_run_is_fine() -> None:
    labels = {(v.run, v.presented_as) for v in minimal_round().judge_views}
    assert (1, "SISTEMA-01") in labels
    assert (2, "SISTEMA-01") in labels


# Names of p1: model_id p1, display "Aurora Labs 4", organization "Aurora Labs", provider
# "aurora", api_identifier "aurora/aurora-large:v4" (parts aurora, aurora-large, v4),
# snapshot "aurora-2026-10".
@pytest.mark.parametrize(
    "text",
    [
        "Como Aurora Labs, respondo que sim.",
        "Resposta do <b>Aurora</b>: sim.",
        "Resposta do ＡＵＲＯＲＡ: sim.",  # fullwidth letters
        "Resposta do AuRoRa.",
        "Resposta do Au\u200brora.",  # zero-width space inside the name
        "Resposta do Au\u2066ro\u2069ra.",  # bidi isolates inside the name
        "Resposta do Aur\u00adora.",  # soft hyphen
        "我认为aurora模型的回答是正确的。",  # inside Chinese text
        "Chamei aurora/aurora-large:v4 ontem.",
        "Sou o AURORA-LARGE.",
        "Versão v4 do sistema.",
        "Construído em aurora-2026-10.",
        "O sistema p1 responde.",
        "Baoba IA responde.",
    ],
)
def test_view_naming_the_cast(text: str) -> None:
    round_ = replace(
        minimal_round(), judge_views=_views_with(0, view_text=text, view_sha256=sha256_text(text))
    )
    problem = the_problem(round_)
    assert problem.file == "judge_views.parquet"
    assert problem.where == "row 1 (response (o1, p1, run 1))"
    assert "names the cast" in problem.message


@pytest.mark.parametrize(
    "text",
    [
        "A aurora boreal é bonita.",  # "aurora" is p1's provider name: the word is refused...
    ],
)
def test_a_name_that_is_a_word_is_still_a_name(text: str) -> None:
    round_ = replace(
        minimal_round(), judge_views=_views_with(0, view_text=text, view_sha256=sha256_text(text))
    )
    assert len(rule_problems(round_)) == 1


@pytest.mark.parametrize(
    "text",
    [
        "Uma resposta auroral e baobab.",  # longer words are other tokens
        "Sistemas de energia da Caatinga.",  # no name of the cast (Caatinga withdrew)
        "p 1 e v 4 separados.",
        "Labs e IA, sozinhos.",
    ],
)
def test_view_without_a_cast_name(text: str) -> None:
    assert NameMatcher(cast_names(PARTICIPANTS)).find(text) is None


def test_name_matcher_on_token_runs() -> None:
    matcher = NameMatcher(["天河", "Cerrado Sistemas", "org/model-x:tag", "ＭＯＤＥＬ"])
    assert matcher.find("这是天河模型的回答") == "天河"
    assert matcher.find("天 河") == "天河"
    assert matcher.find("天空河流") is None
    assert matcher.find("cerrado\u200d sistemas") == "Cerrado Sistemas"
    assert matcher.find("cerrado bioma sistemas") is None
    assert matcher.find("usei org/model-x:tag") == "org/model-x:tag"
    assert matcher.find("the Model answers") == "ＭＯＤＥＬ"
    assert NameMatcher([""]).find("anything") is None


def test_visible_tokens_drop_format_characters() -> None:
    assert visible_tokens("A\u200bu\u200cr\u200do\u2060r\ufeffa") == ["aurora"]
    assert visible_tokens("\u202eAurora\u202c") == ["aurora"]
    assert visible_tokens("Au rora") == ["au", "rora"]  # a real space still splits


def test_cast_names_include_api_parts_of_two_characters() -> None:
    participant = replace(PARTICIPANTS[0], api_identifier="x/orgname:tag@v", snapshot="")
    names = cast_names([participant])
    assert {"orgname", "tag", "x/orgname:tag@v"} <= names.keys()
    assert "x" not in names
    assert "v" not in names
    assert "" not in names
