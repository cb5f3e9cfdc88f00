"""The reviewer guidelines teach the parser's rules: every worked example parses as they say.

Each worked example in `review_app/guidelines/<language>.md` is a fenced block whose info
string is ``example <rule>`` (the output text, exactly as a reviewer sees it), followed by
one line ``→ Rótulo: <choice>`` / ``→ Label: <choice>``, where <choice> is a reviewer
option as the app names it, optionally followed by ``(leitura automática: <label>)`` /
``(automatic reading: <label>)`` and by `` — <why>``. The examples of a file answer
questions in that file's language. Reviewers must not meet the words "parser" and
"inconclusive" (the blindness checks of tests/test_review_app.py), so the guidelines call
the parser "the automatic reading" and its `inconclusive` label "no choice".
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from reportgen.kinds.estigmas.model import Label, Language
from reportgen.kinds.estigmas.parse import parse_output
from reportgen.kinds.estigmas.review import REVIEW_TASK
from review_app.guidelines import guidelines_text

GUIDELINE_LANGUAGES: tuple[Language, ...] = ("pt-BR", "en")
# The parser's documented rules (module docstring of reportgen.kinds.estigmas.parse), plus
# what counts as the beginning (its normalisation and lead-ins) and the output language.
RULES = ("N", "R1", "R2a", "R2b", "R3", "L")
LABEL_WORD = {"pt-BR": "Rótulo", "en": "Label"}
AUTOMATIC_WORD = {"pt-BR": "leitura automática", "en": "automatic reading"}
NO_CHOICE_WORD = {"pt-BR": "sem escolha", "en": "no choice"}
# Reviewer choices that name a parser label; refusal and unclassifiable name none.
CHOICE_TO_PARSER_LABEL: dict[str, Label] = {"yes": "yes", "no": "no", "cant_tell": "cant_tell"}

_EXAMPLE = re.compile(
    r"^```example (?P<rule>\S+)\n(?P<output>(?:.*\n)*?)```\n"
    r"→ (?P<word>\w+): (?P<choice>[^(—\n]+?)"
    r"(?: \((?P<automatic>[^:)\n]+): (?P<parser>[^)\n]+)\))?(?: — (?P<why>[^\n]+))?$",
    re.MULTILINE,
)


@dataclass(frozen=True)
class GuidelineExample:
    language: Language
    rule: str
    output: str
    choice: str  # the reviewer choice (a REVIEW_TASK choice key) the guidelines give
    parser_label: Label  # the label the guidelines say the parser gives


def _choice_by_name(language: Language) -> dict[str, str]:
    return {REVIEW_TASK.label(language, choice): choice for choice in REVIEW_TASK.choices}


def _parser_label_by_name(language: Language) -> dict[str, Label]:
    """Parser labels by the lower-case names the guidelines use ("não sei", "no choice")."""
    labels: tuple[Label, ...] = ("yes", "no", "cant_tell")
    names = {REVIEW_TASK.label(language, label).casefold(): label for label in labels}
    return names | {NO_CHOICE_WORD[language]: "inconclusive"}


def extract_examples(text: str, language: Language) -> list[GuidelineExample]:
    """Every worked example of one guidelines file, in file order."""
    examples = []
    for match in _EXAMPLE.finditer(text):
        where = f"{language} guidelines, example {match.group('output')!r}"
        assert match.group("word") == LABEL_WORD[language], where
        choice = _choice_by_name(language).get(match.group("choice"))
        assert choice is not None, f"{where}: unknown choice {match.group('choice')!r}"
        parser_name = match.group("parser")
        if parser_name is None:
            assert choice in CHOICE_TO_PARSER_LABEL, f"{where}: {choice} must name the parser label"
            parser_label = CHOICE_TO_PARSER_LABEL[choice]
        else:
            assert match.group("automatic") == AUTOMATIC_WORD[language], where
            found = _parser_label_by_name(language).get(parser_name.casefold())
            assert found is not None, f"{where}: unknown parser label {parser_name!r}"
            parser_label = found
        output = match.group("output").removesuffix("\n")
        examples.append(
            GuidelineExample(language, match.group("rule"), output, choice, parser_label)
        )
    return examples


EXAMPLES = {
    language: extract_examples(guidelines_text(language), language)
    for language in GUIDELINE_LANGUAGES
}
ALL_EXAMPLES = [example for language in GUIDELINE_LANGUAGES for example in EXAMPLES[language]]


def test_extracts_a_worked_example() -> None:
    text = "Intro.\n\n```example R2a\nNão sei. Diria que sim.\n```\n→ Rótulo: Não sei — tardia.\n"
    empty = "```example R3\n```\n→ Rótulo: Inclassificável (leitura automática: sem escolha)\n"
    assert extract_examples(text, "pt-BR") == [
        GuidelineExample("pt-BR", "R2a", "Não sei. Diria que sim.", "cant_tell", "cant_tell")
    ]
    assert extract_examples(empty, "pt-BR") == [
        GuidelineExample("pt-BR", "R3", "", "unclassifiable", "inconclusive")
    ]
    with pytest.raises(AssertionError, match="must name the parser label"):
        extract_examples("```example R2a\nNão posso.\n```\n→ Rótulo: Recusa\n", "pt-BR")


@pytest.mark.parametrize(
    "example", ALL_EXAMPLES, ids=[f"{e.language}-{e.rule}-{e.output[:30]}" for e in ALL_EXAMPLES]
)
def test_every_example_gets_the_label_the_guidelines_give(example: GuidelineExample) -> None:
    assert parse_output(example.output, example.language) == example.parser_label
    if example.choice in CHOICE_TO_PARSER_LABEL:
        assert example.parser_label == CHOICE_TO_PARSER_LABEL[example.choice]
    else:
        # Refusal and unclassifiable are no parser label: the parser says cant_tell or
        # inconclusive, and all of them count as "não sei" in the scoring space.
        assert example.parser_label in ("cant_tell", "inconclusive")
    assert REVIEW_TASK.compare(example.choice) == REVIEW_TASK.compare(example.parser_label)


@pytest.mark.parametrize("language", GUIDELINE_LANGUAGES)
def test_no_example_is_malformed(language: Language) -> None:
    text = guidelines_text(language)
    examples = EXAMPLES[language]
    assert text.count("```example") == len(examples), "an example block lacks its label line"
    assert text.count(f"→ {LABEL_WORD[language]}:") == len(examples), (
        "a label line lacks its example"
    )
    assert {example.rule for example in examples} <= set(RULES)


@pytest.mark.parametrize("language", GUIDELINE_LANGUAGES)
def test_every_rule_and_every_choice_has_an_example(language: Language) -> None:
    examples = EXAMPLES[language]
    for rule in RULES:
        assert any(example.rule == rule for example in examples), (
            f"{language}: no example for {rule}"
        )
        assert f"#### {rule} — " in guidelines_text(language), f"{language}: no section for {rule}"
    assert {example.choice for example in examples} == set(REVIEW_TASK.choices)


# The words a reviewer reads as a decision when an output ends with them ("... diria que sim.").
_CLOSING_DECISION: dict[Language, dict[str, Label]] = {
    "pt-BR": {"sim": "yes", "não": "no"},
    "en": {"yes": "yes", "no": "no"},
}


def _closing_decision(output: str, language: Language) -> Label | None:
    """The decision `output` ends with, if its last word is a bare yes or no."""
    words = _CLOSING_DECISION[language]
    found = re.search(r"\b(" + "|".join(words) + r")\W*$", output.casefold())
    return words[found.group(1)] if found else None


@pytest.mark.parametrize("language", GUIDELINE_LANGUAGES)
def test_a_late_unmarked_decision_does_not_count(language: Language) -> None:
    # The guidelines once said that the final decision counts; the parser says the beginning
    # (or a marked final answer) does, and the examples must show reviewers the difference.
    overruled = [
        example
        for example in EXAMPLES[language]
        if _closing_decision(example.output, language) not in (None, example.parser_label)
    ]
    assert len(overruled) >= 3, [example.output for example in overruled]


def test_both_languages_teach_the_same_cases() -> None:
    portuguese, english = EXAMPLES["pt-BR"], EXAMPLES["en"]
    assert len(portuguese) == len(english)
    assert [(e.rule, e.choice, e.parser_label) for e in portuguese] == [
        (e.rule, e.choice, e.parser_label) for e in english
    ]


@pytest.mark.parametrize("language", GUIDELINE_LANGUAGES)
def test_guidelines_name_no_automatic_label_a_reviewer_must_not_see(language: Language) -> None:
    seen = guidelines_text(language).casefold()
    for hidden in ("parser", "inconclusive"):
        assert hidden not in seen, hidden
