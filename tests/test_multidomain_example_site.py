"""The REG-BC-2026-001 demonstration site, built as the README says
(`reportgen build examples/multidomain/rounds/* --config examples/multidomain/site.yml`),
in both languages, before and after the items' embargo: every section of the report,
the notices on every page, the downloads' columns, and the Chinese items' language."""

from __future__ import annotations

import csv
import hashlib
import html
import io
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.cli import main
from tests.support.shared_builds import example_site

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "multidomain"
ROUND = "reg-2026-1"  # ended_on 2026-11-20: embargo ends 2027-02-18, provisional to 2027-03-10
SECTIONS = (
    "methodology", "cast", "classification", "domains-languages", "technical-ties",
    "head-to-head", "process", "refusals", "discarded", "human-audit", "calibration",
    "contamination", "limitations",
)  # fmt: skip
BANNER = {
    "pt-BR": "Este resultado não constitui certificação, selo de qualidade nem recomendação de"
    " contratação.",
    "en": "This result is not a certification, a quality seal or a hiring recommendation.",
}
PREFIX = {"pt-BR": ROUND, "en": f"en/{ROUND}"}
PARTICIPANTS_HEADER = [
    "model_id", "display_name", "rank", "primary", "primary_lo", "primary_hi", "global",
    "global_lo", "global_hi", "elo", "bt", "refusal_rate", "format_compliance",
    "latency_p50_ms", "latency_p95_ms", "cost_per_1000_items", "tie_group",
]  # fmt: skip


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return {
        "during": example_site(tmp_path_factory, "multidomain", "2026-12-01"),
        "after": example_site(tmp_path_factory, "multidomain", "2027-03-20"),
    }


def page(site: Path, language: str, stem: str) -> str:
    return html.unescape((site / PREFIX[language] / f"{stem}.html").read_text(encoding="utf-8"))


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_every_section_with_the_notices_during_the_embargo(
    sites: dict[str, Path], language: str
) -> None:
    provisional = {"pt-BR": "Resultados provisórios até", "en": "Provisional results until"}
    synthetic = {"pt-BR": "Dados sintéticos", "en": "Synthetic data"}
    for stem in ("index", *SECTIONS):
        text = page(sites["during"], language, stem)
        assert BANNER[language] in text, stem
        assert synthetic[language] in text, stem
        assert provisional[language] in text, stem
    assert not (sites["during"] / PREFIX[language] / "items.html").exists()


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_items_from_the_embargo_end_with_their_language(
    sites: dict[str, Path], language: str
) -> None:
    items = page(sites["after"], language, "items-juridica")  # one domain's items
    assert BANNER[language] in items
    assert re.search(r'lang="zh"', items)
    # Past ended_on + 110 days the results are final: no provisional notice.
    assert "Provisional results until" not in page(sites["after"], "en", "classification")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_methodology_and_the_docs_say_which_font_the_chinese_items_need(
    sites: dict[str, Path], language: str
) -> None:
    """The site ships no CJK font (it loads nothing from the network): readers are told
    that any system CJK font shows the zh items (issue 24, point 7)."""
    heading = {"pt-BR": "Leitura dos itens em chinês", "en": "Reading the Chinese items"}
    methodology = page(sites["during"], language, "methodology")
    assert heading[language] in methodology
    assert "Noto Sans CJK SC" in methodology
    docs = (REPO / "docs" / "multidomain.md").read_text(encoding="utf-8")
    assert "Noto Sans CJK SC" in docs
    assert "ships no font" in docs


def test_downloads_have_the_report_spec_columns_and_checksums(sites: dict[str, Path]) -> None:
    data = sites["during"] / "data" / ROUND
    rows = list(csv.reader(io.StringIO((data / "participants.csv").read_text("utf-8"))))
    assert rows[0] == PARTICIPANTS_HEADER
    assert len(rows) == 1 + 15
    assert [row[2] for row in rows[1:]] == sorted((row[2] for row in rows[1:]), key=int)
    slices = next(csv.reader(io.StringIO((data / "slices.csv").read_text("utf-8"))))
    assert slices == ["model_id", "slice", "score", "lo", "hi", "n"]
    listed: dict[str, str] = {}
    for line in (data / "SHA256SUMS").read_text().splitlines():
        digest, name = line.split("  ", 1)
        listed[name] = digest
    for name in ("participants.csv", "slices.csv", "pairwise.csv", "process.csv",
                 "results.json", "results.schema.json"):  # fmt: skip
        digest = hashlib.sha256((data / name).read_bytes()).hexdigest()
        assert listed[name] == digest


def test_contamination_counts_the_answers_even_after_a_summary(tmp_path: Path) -> None:
    """`reportgen summary` reads rounds without their texts for Estigmas; a multidomain
    round is read with them, so its cached results keep the canary and 8-gram findings
    that the site then shows (a summary run first once cached them empty)."""
    cache = tmp_path / "cache"
    round_dir = str(EXAMPLE / "rounds" / ROUND)
    summary = CliRunner().invoke(
        main, ["summary", round_dir], env={"REPORTGEN_CACHE_DIR": str(cache)}
    )
    assert summary.exit_code == 0, summary.output
    out = tmp_path / "site"
    # The round the summary read, built alone with the README's config: its pages read its
    # cached results whatever else the build holds (the whole example is `sites`).
    arguments = [round_dir, "--config", str(EXAMPLE / "site.yml"), "--out", str(out)]
    arguments += ["--cache-dir", str(cache), "--as-of", "2027-03-20"]
    build = CliRunner().invoke(main, ["build", *arguments])
    assert build.exit_code == 0, build.output
    text = page(out, "en", "contamination")
    assert re.search(r"Items with a full canary reproduction:\s*(<[^>]+>\s*)*1\b", text)
    assert not re.search(r"Responses checked for 8-grams:\s*(<[^>]+>\s*)*0\b", text)


@pytest.mark.parametrize(
    ("language", "screened", "label"),
    [
        ("en", "Every item (707) was screened for personal data before the round",
         "Synthetic personal data (Art. 37):"),
        ("pt-BR", "Todos os itens (707) passaram por triagem de dados pessoais antes da rodada",
         "Dados pessoais sintéticos (Art. 37):"),
    ],
)  # fmt: skip
def test_personal_data_screening_and_synthetic_declarations(
    sites: dict[str, Path], language: str, screened: str, label: str
) -> None:
    """Art. 37 (issue 21 point 6): the methodology page reports the screening (who, when,
    how many hold synthetic data) and each such item carries its declaration."""
    method = re.sub(
        r"\s+", " ", re.sub(r"<[^>]+>", " ", page(sites["during"], language, "methodology"))
    )
    assert screened in method
    assert "15 item" in method  # the medical calculations' fictitious patients
    medical = page(sites["after"], language, "items-medica")
    assert medical.count(label) == 15
    assert label not in page(sites["after"], language, "items-juridica")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_system_instruction_of_the_demonstration(sites: dict[str, Path], language: str) -> None:
    """Art. 8 (issue 21 point 5): the hash during the embargo, the text after it."""
    instruction = "Responda à pergunta a seguir."
    digest = "6a9e3cd9d9259586848b37e0bbd74e975dabc216737f35a7be698c7f1b90267e"
    during = page(sites["during"], language, "methodology")
    after = page(sites["after"], language, "methodology")
    assert digest in during
    assert instruction not in during
    assert digest in after
    assert instruction in after
