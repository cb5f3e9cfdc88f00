"""The anonymiser on multidomain answers (issue 13): the participants' names, organisations
and groups, the jury's SISTEMA-XX labels and API identifiers in odd forms (fullwidth,
zero-width characters, markup, right-to-left marks) are masked; what is left over reaches
the leak report before a batch goes out."""

from __future__ import annotations

from pathlib import Path

import pytest

from reportgen.kinds.multidomain.model import Round
from review_app.anonymiser.anonymise import MARKER, Scrubber, round_names
from review_app.anonymiser.leaks import leak_report
from tests.review.rubric import tiny_round


@pytest.fixture(scope="module")
def scrub(tmp_path_factory: pytest.TempPathFactory) -> Scrubber:
    round_: Round = tiny_round(Path(tmp_path_factory.mktemp("tiny")))
    # p1: "P1", provider Alfa, api alfa/lince, organisation "Organização Alfa", grupo-alfa.
    assert round_.models[0].api_identifier == "alfa/lince"
    return Scrubber(round_names(round_.models))


@pytest.mark.parametrize(
    "text",
    [
        "Respondo pela Organização Alfa.",  # the organisation
        "Somos do grupo-alfa.",  # the economic group
        "Como SISTEMA-07, respondo.",  # the jury's label
        "Como sistema_7, respondo.",
        "Como ＳＩＳＴＥＭＡ－１０, respondo.",  # fullwidth
        "Como SIS\u200bTEMA-10, respondo.",  # a zero-width space inside
        "Use ａｌｆａ／ｌｉｎｃｅ para isso.",  # fullwidth API identifier
        "Use al\u200bfa/li\u2060nce para isso.",  # zero-width characters
        "Use <code>alfa/lince</code> para isso.",  # markup around it
        "Use \u200falfa/lince\u200e para isso.",  # right-to-left and left-to-right marks
        "Use \u202eecnil/afla\u202c para isso.",  # shown as alfa/lince by an override
    ],
)
def test_identity_in_odd_forms_is_masked(scrub: Scrubber, text: str) -> None:
    masked = scrub(text)
    assert MARKER in masked
    for word in ("alfa", "lince", "sistema-", "sistema_", "ＳＩＳＴＥＭＡ", "ecnil"):
        assert word not in masked.lower().replace("\u200b", ""), (text, masked)


def test_everyday_uses_of_sistema_stay(scrub: Scrubber) -> None:
    for text in ("O sistema 2 de Kahneman é lento.", "Um sistema-mãe coordena os demais."):
        assert scrub(text) == text


def test_a_label_left_in_lower_case_reaches_the_leak_report(scrub: Scrubber) -> None:
    text = scrub("Quem responde é o sistema 07.")
    assert [s.fragment for s in leak_report([text], scrub)] == ["sistema 07"]
