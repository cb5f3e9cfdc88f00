"""What never reaches the site of a counterfactual round (report spec, "Never on the
site"): the leak guard with planted leaks, and the words a report never claims."""

from __future__ import annotations

import html
import re
import unicodedata
from datetime import date
from pathlib import Path

import pytest

from reportgen.guard import LeakError, check_site
from reportgen.kinds.counterfactual.render.claims import forbidden_claims
from reportgen.kinds.counterfactual.render.guard import guard_material
from reportgen.kinds.counterfactual.render.text import catalogue
from tests.support.counterfactual_site import (
    CANARY,
    JUDGE_INPUT,
    RAW_ANSWER,
    ROUND_ID,
    T1_PT,
    T2_EN,
    T2_PT,
    build_site_of,
    tiny_round,
)

AS_OF = date(2026, 12, 1)


def site_with(tmp_path: Path, body: str) -> Path:
    site = tmp_path / "site"
    path = site / "en" / ROUND_ID / "index.html"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"<html><body>{body}</body></html>", encoding="utf-8")
    return site


def fullwidth(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in text)


@pytest.mark.parametrize(
    ("leak", "source"),
    [
        (T2_PT, "unpublished template t2"),
        (T2_EN.upper(), "unpublished template t2"),
        (RAW_ANSWER, "response"),
        (JUDGE_INPUT, "extractor input"),
        (
            T1_PT.replace("{nome}{deficiencia}", "Maria do Socorro Nascimento, cadeirante"),
            "rendered prompt",
        ),
    ],
)
def test_planted_leaks_are_refused(tmp_path: Path, leak: str, source: str) -> None:
    site = site_with(tmp_path, f"<p>{html.escape(leak)}</p>")
    with pytest.raises(LeakError, match=source):
        check_site(site, [guard_material(tiny_round())], as_of=AS_OF)


@pytest.mark.parametrize("form", [CANARY, CANARY.lower(), fullwidth(CANARY)])
def test_a_canary_in_any_form(tmp_path: Path, form: str) -> None:
    assert unicodedata.normalize("NFKC", form).casefold() == CANARY.casefold()
    site = site_with(tmp_path, f"<td>{form}</td>")
    with pytest.raises(LeakError, match="canary"):
        check_site(site, [guard_material(tiny_round())], as_of=AS_OF)


def test_a_published_template_and_the_names_may_be_shown(tmp_path: Path) -> None:
    shown = f"<p>{html.escape(T1_PT)}</p><td>Maria do Socorro Nascimento</td><td>[OCULTO]</td>"
    check_site(site_with(tmp_path, shown), [guard_material(tiny_round())], as_of=AS_OF)


def test_every_rendered_prompt_is_secret() -> None:
    material = guard_material(tiny_round())
    sources = [source for source, _ in material.secret_texts]
    assert sum(s.startswith("rendered prompt ") for s in sources) == len(tiny_round().items)
    assert not any("t1" in s for s in sources if s.startswith("unpublished template"))


# --- the words a report never claims -------------------------------------------------


def allowed_sentences() -> list[str]:
    """The fixed limitations text, which denies the claim ("does not prove ... fair")."""
    return [catalogue(language)["limitations.text"] for language in ("pt-BR", "en")]


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ("O Assistente A é justo com todos os grupos.", ["justo"]),
        ("Assistant B is FAIR.", ["fair"]),
        ("The answers were unbiased.", ["unbiased"]),
        ("Um atendimento sem viés", ["sem viés"]),
        ("Sistema certificado pela auditoria", ["certificado"]),
        ("The fairness notes", []),
        ("Justificativa (texto original)", []),
    ],
)
def test_claims_are_found_as_words(text: str, found: list[str]) -> None:
    assert forbidden_claims(text, allowed_sentences()) == found


def test_the_limitations_sentence_is_allowed_but_not_a_claim_beside_it() -> None:
    for limitation in allowed_sentences():
        assert forbidden_claims(limitation) != []
        assert forbidden_claims(limitation, allowed_sentences()) == []
        claim = limitation + " Por isso o sistema é justo."
        assert forbidden_claims(claim, allowed_sentences()) == ["justo"]


def test_the_catalogues_claim_nothing_outside_the_limitations() -> None:
    for language in ("pt-BR", "en"):
        for key, message in catalogue(language).items():
            if key != "limitations.text":
                assert forbidden_claims(message) == [], (language, key)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_site_of(tmp_path_factory.mktemp("cf-claims"), preregistered=False)


def test_the_built_pages_claim_nothing(built: Path) -> None:
    pages = sorted(built.rglob("*.html"))
    checked = 0
    for path in pages:
        if ROUND_ID not in path.parts:
            continue
        text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
        assert forbidden_claims(html.unescape(text), allowed_sentences()) == [], path
        checked += 1
    assert checked == 2  # the round's page in both languages
    for path in sorted((built / "data" / ROUND_ID).iterdir()):
        assert forbidden_claims(path.read_text(encoding="utf-8")) == [], path
