"""The site's counterfactual review section with a count extracted by a model (issue 21,
point 3), in both languages: its agreement with n and Wilson interval beside the binary
variable's, its removal from the findings below the threshold, and no sentence on code
counts when no count is made by code; with a count made by code (the tiny round as it
is), the section says that such counts are not checked, naming them."""

from __future__ import annotations

import dataclasses
import html
import re
from datetime import date
from fractions import Fraction
from pathlib import Path

import pytest

from reportgen.kinds.counterfactual.results import Exact, ExtractionAgreement
from tests.support.counterfactual_site import ROUND_ID, build_site_of, tiny_results, tiny_round

PAGES = {"pt-BR": f"{ROUND_ID}/index.html", "en": f"en/{ROUND_ID}/index.html"}
SHOWN = {
    "pt-BR": (
        "Reembolso 40 95,0% 83,5% – 98,6% 90,0%",
        "Opções 40 80,0% 65,2% – 89,5% 90,0% não passou",
        "Variáveis retiradas das constatações: Opções.",
        "contaram elas mesmas",
    ),
    "en": (
        "Refund 40 95.0% 83.5% – 98.6% 90.0%",
        "Options 40 80.0% 65.2% – 89.5% 90.0% fail",
        "Variables removed from the findings: Options.",
        "counted it themselves",
    ),
}
CODE_COUNTS = {
    "pt-BR": "extrator em código não são conferidas por pessoas: um programa determinístico "
    "conta exatamente o que a pergunta define (Opções).",
    "en": "code extractor are not checked by people: a deterministic program counts exactly "
    "what its question defines (Options).",
}


def _build(work: Path) -> Path:
    """The tiny round's site with `opcoes` counted by a model and checked (32 of 40)."""
    from reportgen.build import _stage
    from reportgen.kinds.counterfactual.render.site_pages import site
    from reportgen.render.siteconfig import load_build_config
    from tests.factories import CONFIG, THEME

    plain = tiny_round()
    variables = tuple(
        dataclasses.replace(v, extractor="model") if v.variable_id == "opcoes" else v
        for v in plain.variables
    )
    round_ = dataclasses.replace(plain, variables=variables)
    results = tiny_results()
    opcoes = ExtractionAgreement(
        variable_id="opcoes",
        n=40,
        agreeing=32,
        agreement=Exact.of(Fraction(4, 5)),
        interval_lo=0.6518,
        interval_hi=0.8951,
        min_items=40,
        threshold=Exact.of(Fraction(9, 10)),
        passes=False,
    )
    results = results.model_copy(update={"extraction_checks": (*results.extraction_checks, opcoes)})
    config = load_build_config(CONFIG, date(2026, 12, 1))
    source = site([round_], config, cache_dir=None, results={ROUND_ID: results})
    work.mkdir(parents=True, exist_ok=True)
    return _stage(source, config, THEME, work)


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        "model": _build(tmp_path_factory.mktemp("cf-count")),
        "code": build_site_of(tmp_path_factory.mktemp("cf-code"), baseline=None),
    }


def _section(site: Path, language: str) -> str:
    markup = (site / PAGES[language]).read_text(encoding="utf-8")
    start = markup.index('id="extraction-check"')
    end = markup.find('<h2 id="', start)
    text = re.sub(r"<[^>]+>", " ", markup[start : end if end > 0 else len(markup)])
    return re.sub(r"\s+", " ", html.unescape(text))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_a_model_count_shows_its_agreement(sites: dict[str, Path], language: str) -> None:
    shown = _section(sites["model"], language)
    for expected in SHOWN[language]:
        assert expected in shown, expected
    assert CODE_COUNTS[language] not in shown  # no count of this round is made by code


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_a_code_count_is_said_not_to_be_checked(sites: dict[str, Path], language: str) -> None:
    shown = _section(sites["code"], language)
    assert CODE_COUNTS[language] in shown
    assert "Opções 40" not in shown
    assert "Options 40" not in shown
