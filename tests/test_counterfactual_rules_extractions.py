"""Rules 36-41 on extractions/<model_id>.parquet: rows, canonical values, judge inputs and
blindness. Each test changes one thing of the minimal valid round and expects exactly one
problem. bot-b's rows are changed where a value or hash is, because bot-a's tone scores
are calibrated (rule 44 would then speak too)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from reportgen.kinds.counterfactual.rules.blindness import TermMatcher, readings
from reportgen.kinds.counterfactual.terms import sha256_text, signal_terms
from tests.factories.counterfactual_rounds import (
    MASK,
    minimal_round,
    rule_problems,
    the_problem,
    with_extraction,
    with_extractions,
)

FILE_B = "extractions/bot-b.parquet"

# --- 36: rows --------------------------------------------------------------------------------


def test_missing_extraction() -> None:
    round_ = minimal_round()
    rows = tuple(
        e
        for e in round_.extractions["bot-b"]
        if (e.item_id, e.run, e.variable_id)
        != (
            "t1--i1",
            2,
            "palavras",
        )
    )
    problem = the_problem(with_extractions(round_, "bot-b", rows))
    assert (problem.file, problem.where) == (
        FILE_B,
        "(template t1, variant i1, run 2), variable palavras",
    )
    assert problem.message.startswith("missing extraction")


def test_duplicate_extraction() -> None:
    round_ = minimal_round()
    rows = round_.extractions["bot-b"]
    problem = the_problem(with_extractions(round_, "bot-b", (*rows, rows[4])))
    assert (problem.where, problem.message) == (
        f"row {len(rows) + 1}",
        "duplicate: a second extraction of variable palavras for (template t1, variant n2, "
        "run 1) (first in row 5)",
    )


def test_extraction_of_an_unknown_response() -> None:
    round_ = minimal_round()
    rows = round_.extractions["bot-b"]
    problem = the_problem(with_extractions(round_, "bot-b", (*rows, replace(rows[0], run=7))))
    assert "which has no response in responses/bot-b.parquet" in problem.message


def test_extraction_of_an_unknown_variable() -> None:
    round_ = minimal_round()
    rows = round_.extractions["bot-b"]
    extra = replace(rows[0], variable_id="prazo")
    problem = the_problem(with_extractions(round_, "bot-b", (*rows, extra)))
    assert (problem.where, problem.message) == (
        f"row {len(rows) + 1}, variable_id",
        "'prazo' is not in variables.csv",
    )


def test_extraction_of_another_system() -> None:
    changed = with_extraction(
        minimal_round(), "bot-b", ("t1--n1", 1, "reembolso"), model_id="bot-a"
    )
    assert the_problem(changed).where == "row 1, model_id"


# --- 37, 38, 39: canonical values ------------------------------------------------------------


@pytest.mark.parametrize("value", ["sim", "Yes", "true", ""])
def test_binary_outside_yes_no_na(value: str) -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n1", 1, "reembolso"), value=value)
    problem = the_problem(changed)
    assert (problem.file, problem.where) == (FILE_B, "row 1, value")
    assert "binary variable reembolso: expected yes, no or na" in problem.message


@pytest.mark.parametrize("value", ["-1", "07", "+3", "2.0", "três"])
def test_count_not_canonical(value: str) -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n1", 1, "palavras"), value=value)
    problem = the_problem(changed)
    assert problem.where == "row 2, value"
    assert "count variable palavras" in problem.message


@pytest.mark.parametrize("value", ["0", "6", "04", "4.5"])
def test_score_outside_the_scale(value: str) -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n1", 1, "tom"), value=value)
    problem = the_problem(changed)
    assert problem.where == "row 3, value"
    assert "score outside the declared scale: expected an integer in 1..5" in problem.message


@pytest.mark.parametrize(
    ("variable", "value"), [("reembolso", "na"), ("palavras", "0"), ("tom", "na")]
)
def test_canonical_values_pass(variable: str, value: str) -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n1", 1, variable), value=value)
    assert rule_problems(changed) == []


# --- 40: input_text --------------------------------------------------------------------------


def test_model_extractor_without_input() -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n2", 2, "tom"), input_text=None)
    problem = the_problem(changed)
    assert problem.where.endswith(", input_text")
    assert "missing for variable tom, whose extractor is a model" in problem.message


def test_code_extractor_with_input() -> None:
    changed = with_extraction(
        minimal_round(), "bot-b", ("t1--n2", 2, "palavras"), input_text="texto"
    )
    assert "whose extractor is code" in the_problem(changed).message


def test_input_hash() -> None:
    changed = with_extraction(minimal_round(), "bot-b", ("t1--n2", 2, "tom"), input_sha256="0" * 64)
    problem = the_problem(changed)
    assert problem.message == "expected the SHA-256 of input_text (UTF-8)"
    assert problem.where.endswith(", input_sha256")


# --- 41: blindness ---------------------------------------------------------------------------


def _judged(text: str) -> list[str]:
    """The problems of the round whose bot-b (t1--n3, run 1) tone input is `text`."""
    changed = with_extraction(
        minimal_round(),
        "bot-b",
        ("t1--n3", 1, "tom"),
        input_text=text,
        input_sha256=sha256_text(text),
    )
    return [f"{p.file}: {p.where}: {p.message}" for p in rule_problems(changed)]


def test_judge_input_naming_the_variant() -> None:
    (line,) = _judged("Olá, Maria do Socorro Nascimento! Vamos resolver.")
    assert line == (
        f"{FILE_B}: row 9 (template t1, variant n3, run 1, variable tom), input_text: judge "
        "input containing the signal term 'Maria do Socorro Nascimento' (value of variant "
        f"n3, attribute nome): expected it masked with the mask_token '{MASK}'"
    )


@pytest.mark.parametrize(
    ("text", "origin"),
    [
        ("Certo, Dona Socorro.", "'Dona Socorro' (a mask term of variant n3"),
        ("Certo, dona SOCORRO.", "'Dona Socorro' (a mask term of variant n3"),
        ("Olá, Carla Dias.", "'Carla Dias' (the held value of attribute nome)"),
        ("Com 72 anos o senhor tem direito.", "'72' (value of variant i2"),
        ("Olá, Ｈｅｌｅｎａ!", "'Helena' (a mask term of variant n1"),  # fullwidth letters
        ("Olá, Hel\u200bena!", "'Helena'"),  # zero-width space inside
        ("Olá, Hel\u2066ena\u2069!", "'Helena'"),  # bidi isolates inside
        ("Olá, Jo\u00adsefa Araújo!", "'Josefa Araújo'"),  # soft hyphen
        ("Olá, <b>Hel</b>ena!", "'Helena'"),  # markup inside the word
        ("Olá, Josefa<br/>Araújo!", "'Josefa Araújo'"),  # markup between the words
        ("Olá, Josefa Ara&uacute;jo!", "'Josefa Araújo'"),  # a character reference
        ("Olá, JOSEFA   araújo!", "'Josefa Araújo'"),
    ],
)
def test_judge_input_leaks_read_as_a_reader_would(text: str, origin: str) -> None:
    (line,) = _judged(text)
    assert f"the signal term {origin}" in line


@pytest.mark.parametrize(
    "text",
    [
        f"Olá, {MASK}! Vamos resolver.",
        "Olá, Helenas e Josefinas!",  # other words, not the terms
        "Sentimos muito: 720 reais de reembolso.",  # 720 is not 72
        "Olá, Dona Maria!",  # neither "Dona Socorro" nor a full name
    ],
)
def test_judge_input_without_signal_terms(text: str) -> None:
    assert _judged(text) == []


def test_code_variable_input_is_not_read_for_blindness() -> None:
    # A code extractor's input_text is refused by 40 only, never also by 41.
    changed = with_extraction(
        minimal_round(), "bot-b", ("t1--n3", 1, "palavras"), input_text="Helena", input_sha256=None
    )
    assert "whose extractor is code" in the_problem(changed).message


def test_readings_and_matcher() -> None:
    assert list(readings("a<b>c</b> d")) == [
        ["a", "b", "c", "b", "d"],
        ["ac", "d"],
        ["a", "c", "d"],
    ]
    matcher = TermMatcher(signal_terms(minimal_round()))
    found = matcher.find("maria do socorro nascimento")
    assert found is not None
    assert found.variant_id == "n3"
    assert matcher.find("maria do") is None
