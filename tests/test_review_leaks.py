"""The leak report: what still looks like self-identification after scrubbing."""

from __future__ import annotations

import pytest

from review_app.anonymiser.anonymise import Scrubber
from review_app.anonymiser.leaks import leak_report, suspicious_samples

SCRUB = Scrubber(["Zeltron-2", "Acme Labs"])


def _flags(text: str) -> list[tuple[str, str]]:
    return [(s.fragment, s.reason) for s in leak_report([SCRUB(text)], SCRUB)]


@pytest.mark.parametrize(
    ("text", "flags"),
    [
        # "Sou o Zorblax, ..." is now masked by the scrubber itself (issue 23): an unconfirmed
        # introduction is what is left to the report.
        ("Eu sou Zorblax e não sei.", [("Zorblax", "self_identification")]),
        # "I'm Aria." opening an answer is masked by the scrubber itself (anon_intro).
        ("I'm Aria and I know.", [("Aria", "self_identification")]),
        ("Veja em zorblax.io.", [("zorblax.io", "domain")]),
        ("I'm v3 of it, with 70B parameters.", [("v3", "version"), ("70B", "version")]),
        ("Rodo como 5.4-mini.", [("5.4-mini", "version")]),
        ("A Meta lançou isso ontem.", [("Meta", "name_word")]),
        ("Llama 3 saiu ontem.", [("Llama 3", "name_word")]),
    ],
)
def test_what_survives_scrubbing_is_flagged(text: str, flags: list[tuple[str, str]]) -> None:
    assert _flags(text) == flags


@pytest.mark.parametrize(
    "text",
    [
        "Não sei: a pergunta não traz informação suficiente.",
        "Sabia que não? A meta do mês foi batida.",
        "Ele chegou em 1º lugar, com 30 anos.",
        "Sou o Zeltron-2, da Acme Labs.",  # scrubbed: the markers are not suspicious
        "I am happy to help.",
    ],
)
def test_ordinary_and_scrubbed_texts_are_not_flagged(text: str) -> None:
    assert _flags(text) == []


def test_suspicions_point_into_their_text() -> None:
    texts = ["Sim.", "Eu sou o Zorblax."]
    (suspicion,) = leak_report(texts)
    assert suspicion.text_index == 1
    assert texts[1][suspicion.start : suspicion.end] == suspicion.fragment == "Zorblax"


def test_samples_with_suspicions_are_listed_by_code() -> None:
    samples = {
        "SISTEMA-AAAAAA": ("Pergunta?", "Sim."),
        "SISTEMA-BBBBBB": ("P?", "I'm Aria and I know."),
    }
    report = suspicious_samples(samples)
    assert list(report) == ["SISTEMA-BBBBBB"]
    assert report["SISTEMA-BBBBBB"][0].text_index == 1


@pytest.mark.parametrize(
    ("text", "flags"),
    [
        # Look-alike letters that spell no known name: left, and shown to the admin.
        ("O Zоrblax respondeu.", [("Zоrblax", "mixed_script")]),  # Cyrillic о
        ("O ВАНКО respondeu.", [("ВАНКО", "confusable")]),  # all Cyrillic, reads "BAHKO"
        ("my name is aria, and I help.", [("aria", "unresolved_introduction")]),
        ("我叫小智。", [("小智", "unresolved_introduction")]),
        ("他说我是Zorblax。", []),  # a Latin name after 我是 is masked by the scrubber
    ],
)
def test_what_the_scrubber_could_not_resolve_is_flagged(
    text: str, flags: list[tuple[str, str]]
) -> None:
    assert _flags(text) == flags


def test_every_reason_has_a_label_in_both_catalogues() -> None:
    import json
    from pathlib import Path

    from review_app.anonymiser.leaks import REASONS

    locales = Path(__file__).resolve().parent.parent / "review_app" / "locales"
    for name in ("en.json", "pt-BR.json"):
        catalogue = json.loads((locales / name).read_text(encoding="utf-8"))
        assert all(f"leak_reason_{reason}" in catalogue for reason in REASONS), name
