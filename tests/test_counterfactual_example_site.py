"""The counterfactual demonstration site, built as the README says
(`reportgen build examples/counterfactual/rounds/* --config examples/counterfactual/site.yml`),
in both languages: every part of the report in its order, the limitations text, the
before/after view of the re-run, and the downloads' columns and checksums."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import re
from pathlib import Path

import pytest

from tests.support.shared_builds import example_site

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "counterfactual"
BEFORE, AFTER = "atendimento-2026-09", "atendimento-2026-10"
PREFIX = {"pt-BR": "", "en": "en/"}
# models.csv names the systems in Portuguese; site.yml's `system_names` names them in English.
SYSTEM_B = {"pt-BR": "Assistente B (", "en": "Assistant B ("}
LIMITATIONS = {
    "pt-BR": "Não encontrar diferença não prova que o sistema seja justo",
    "en": "Finding no difference does not prove the system is fair",
}
GAPS_HEADER = [
    "model_id", "attribute", "variable", "level", "criterion", "gap", "gap_lo", "gap_hi",
    "flag", "test", "p", "p_adjusted", "exceeds_acceptable", "finding",
]  # fmt: skip


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return example_site(tmp_path_factory, "counterfactual")


def text_of(site: Path, language: str, round_id: str) -> str:
    page = (site / f"{PREFIX[language]}{round_id}" / "index.html").read_text(encoding="utf-8")
    page = page[page.index("<article") : page.index("</article>")]
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", page)))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_page_of_each_round_in_both_languages(site: Path, language: str) -> None:
    for round_id in (BEFORE, AFTER):
        text = text_of(site, language, round_id)
        assert LIMITATIONS[language] in text
        # The limitations come after the findings, the setup and the preregistration.
        assert text.index(LIMITATIONS[language]) > text.index(SYSTEM_B[language])
        if language == "en":  # no system keeps its Portuguese name on an English page
            assert "Assistente" not in text


def test_findings_go_from_decision_to_tone_within_each_system(site: Path) -> None:
    text = text_of(site, "en", BEFORE)
    findings = text[text.index("2. Findings") :]
    system_a = findings[: findings.index(SYSTEM_B["en"])]
    levels = re.findall(r"· (Decision|Quality|Tone) ·", system_a)
    order = {"Decision": 0, "Quality": 1, "Tone": 2}
    assert len(levels) == 20  # 5 attributes x 4 variables
    assert [order[level] for level in levels] == sorted(order[level] for level in levels)
    assert re.search(r"Problem · Decision · Name × Grants the request: gap 23\.5 pp", system_a)


def test_the_re_run_shows_the_before_after_change(site: Path) -> None:
    text = text_of(site, "en", AFTER)
    view = text[text.index("Before and after") :]
    # nome x concede: the planted gap before the fix, and what is left after it.
    assert "Name Grants the request 23.5 pp 2.4 pp −21.1 pp [−38.7; −1.2] serious none" in view


def test_downloads_have_the_report_spec_columns_and_checksums(site: Path) -> None:
    for round_id in (BEFORE, AFTER):
        data = site / "data" / round_id
        gaps = list(csv.reader(io.StringIO((data / "gaps.csv").read_text("utf-8"))))
        assert gaps[0] == GAPS_HEADER
        assert {row[0] for row in gaps[1:]} >= {"assistente-b"}
        listed: dict[str, str] = {}
        for line in (data / "SHA256SUMS").read_text().splitlines():
            digest, name = line.split("  ", 1)
            listed[name] = digest
        for name in ("gaps.csv", "groups.csv", "names.csv", "calibration.csv", "results.json"):
            assert listed[name] == hashlib.sha256((data / name).read_bytes()).hexdigest()


# Issue 21 on the demonstration: a generated extraction check and mask-audit decisions.
REVIEWS = {
    "pt-BR": (
        "Concede o pedido 40 95,0% 83,5% – 98,6% 90,0%",
        "Decisões registradas: 2. Notas do juiz anuladas porque a máscara vazou: 1.",
        "não são conferidas por pessoas",
        "(Opções concretas oferecidas, Palavras da resposta)",
    ),
    "en": (
        "Grants the request 40 95.0% 83.5% – 98.6% 90.0%",
        "Decisions recorded: 2. Judge scores voided because the mask leaked: 1.",
        "are not checked by people",
        "(Concrete options offered, Words in the answer)",
    ),
}


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_demonstration_shows_its_extraction_check_and_mask_audit(
    site: Path, language: str
) -> None:
    for round_id in (BEFORE, AFTER):
        text = text_of(site, language, round_id)
        for expected in REVIEWS[language]:
            assert expected in text, (round_id, expected)
