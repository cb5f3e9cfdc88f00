"""The counterfactual kind's shared terms (counterfactual-round.md): exact rationals,
the battery's hash as coreutils prints it, signal terms and canonical values."""

from __future__ import annotations

import hashlib
from fractions import Fraction

import pytest

from reportgen.guard import words as guard_words
from reportgen.kinds.counterfactual.model import Variable
from reportgen.kinds.counterfactual.terms import (
    battery_sha256,
    fill,
    first_signal_term,
    has_stray_brace,
    rational_text,
    read_rational,
    required_interpretation_ids,
    signal_terms,
    value_ok,
    words,
)
from tests.factories.counterfactual import small_round


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0.05", Fraction(1, 20)),
        ("1/20", Fraction(1, 20)),
        ("2", Fraction(2)),
        ("-0.5", Fraction(-1, 2)),
    ],
)
def test_a_rational_is_read_exactly(text: str, value: Fraction) -> None:
    assert read_rational(text) == value
    assert read_rational(rational_text(value)) == value


@pytest.mark.parametrize("value", [0.05, 1, True, "1e-2", "1/0", "", " 0.05", "5%", None])
def test_anything_else_is_not_a_rational(value: object) -> None:
    assert read_rational(value) is None


def test_a_rational_is_written_as_a_decimal_when_it_has_one() -> None:
    assert [rational_text(Fraction(n, d)) for n, d in ((1, 20), (1, 3), (1, 8), (3, 1))] == [
        "0.05",
        "1/3",
        "0.125",
        "3",
    ]


def test_battery_sha256_hashes_the_sha256sum_listing_in_alphabetical_order() -> None:
    files = {"variants.csv": b"v\n", "attributes.csv": b"a\n", "rewrites.csv": b"r\n"}
    listing = "".join(
        f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n"
        for name in ("attributes.csv", "rewrites.csv", "variants.csv")
    )
    assert battery_sha256(files) == hashlib.sha256(listing.encode()).hexdigest()


def test_words_are_the_guards_words() -> None:
    text = "Maria do Socorro, 68 anos — São_Paulo ﬁm"
    assert words(text) == guard_words(text)


def test_signal_terms_hold_values_mask_terms_and_held_values_not_style_labels() -> None:
    terms = {term.term: term.variant_id for term in signal_terms(small_round())}
    assert terms["Helena Schneider"] == "n-a1"
    assert terms["Dona Socorro"] == "n-b1"
    assert terms["Ana Souza"] is None
    assert "padrão" not in terms


def test_a_signal_term_occurs_as_a_contiguous_word_sequence() -> None:
    terms = signal_terms(small_round())
    found = first_signal_term("Cliente MARIA do socorro nascimento pediu", terms)
    assert found is not None
    assert found.variant_id == "n-b1"
    assert first_signal_term("Helenas e Souza Ana", terms) is None


def test_slots_are_filled_and_stray_braces_seen() -> None:
    assert fill("Sou {nome}.", {"nome": "Ana"}) == "Sou Ana."
    assert has_stray_brace("Sou {nome")
    assert not has_stray_brace("Sou {nome}")


@pytest.mark.parametrize(
    ("type_", "scale", "good", "bad"),
    [
        ("binary", None, ["yes", "no", "na"], ["Yes", "1", ""]),
        ("count", None, ["0", "17", "na"], ["-1", "017", "+3", "1.0"]),
        ("score", (1, 5), ["1", "5", "na"], ["0", "6", "03"]),
    ],
)
def test_values_have_one_canonical_spelling(
    type_: str, scale: tuple[int, int] | None, good: list[str], bad: list[str]
) -> None:
    variable = Variable("v", "decision", type_, scale, "code", "x", "1", "V", "V", "?", "?")  # type: ignore[arg-type]
    assert all(value_ok(variable, value) for value in good)
    assert not any(value_ok(variable, value) for value in bad)


def test_every_section_12_interpretation_is_required() -> None:
    ids = required_interpretation_ids()
    assert len(ids) == 20
    assert all(i.startswith("cf-") for i in ids)
