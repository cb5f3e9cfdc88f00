"""The site and the review app speak the article's words (issue 11, point 18).

The rejected variants live in docs/glossary.md, next to the terms that replace them; this test
reads them from there, renders the page sources of the demonstration rounds in both languages
and fails on any page, catalogue value or guideline that still uses one.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from reportgen.build import assemble_site
from reportgen.i18n import SITE_LANGUAGES
from reportgen.kinds.rounds import read_round
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG, demonstration_rounds
from tests.support.shared_builds import shared_results_cache

REPO = Path(__file__).resolve().parents[1]
GLOSSARY = REPO / "docs" / "glossary.md"
# Columns of the glossary's "Terms" table, counted from the first cell.
PT_TERM, EN_TERM, PT_REJECTED, EN_REJECTED = 1, 2, 3, 4


def _section(text: str, heading: str) -> str:
    start = text.index(f"## {heading}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def _quoted(cell: str) -> tuple[str, ...]:
    return tuple(re.findall(r"`([^`]+)`", cell))


def _term_rows() -> list[list[str]]:
    lines = _section(GLOSSARY.read_text(encoding="utf-8"), "Terms").splitlines()
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in lines
        if line.startswith("|")
    ]
    return rows[2:]  # past the header and its rule


def rejected_variants() -> Mapping[str, tuple[str, ...]]:
    """Language -> the phrases its pages must not use."""
    rows = _term_rows()
    return {
        "pt-BR": tuple(v for row in rows for v in _quoted(row[PT_REJECTED])),
        "en": tuple(v for row in rows for v in _quoted(row[EN_REJECTED])),
    }


def british_spellings() -> tuple[str, ...]:
    return _quoted(_section(GLOSSARY.read_text(encoding="utf-8"), "British spellings"))


def _pattern(phrases: Iterable[str], *, whole: bool) -> re.Pattern[str]:
    # (?<!\w) rather than \b: several variants begin or end with a quotation mark.
    tail = r"(?!\w)" if whole else ""
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives}){tail}", re.IGNORECASE)


def kept_by_kind() -> Mapping[str, Mapping[str, tuple[str, ...]]]:
    """Kind -> language -> the rejected variants that kind keeps from its own source
    (the glossary's "What a kind keeps from its own source")."""
    lines = _section(GLOSSARY.read_text(encoding="utf-8"), "What a kind keeps from its own source")
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in lines.splitlines()
        if line.startswith("|")
    ][2:]
    return {row[0]: {"pt-BR": _quoted(row[1]), "en": _quoted(row[2])} for row in rows}


def offences(text: str, language: str, kind: str | None = None) -> list[str]:
    """Every rejected variant in `text`, with a little context around it; `kind` leaves out
    the variants that kind keeps from its own source."""
    kept = kept_by_kind().get(kind or "", {}).get(language, ())
    rejected = [v for v in rejected_variants()[language] if v not in kept]
    patterns = [_pattern(rejected, whole=True)]
    if language == "en":
        patterns.append(_pattern(british_spellings(), whole=False))
    # Markup is not text a reader sees: ARIA's own attribute names (aria-labelledby) keep
    # their spelling whatever the page's language.
    plain = re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]*>", " ", text)))
    return [
        f"…{plain[max(0, m.start() - 40) : m.end() + 40]}…"
        for pattern in patterns
        for m in pattern.finditer(plain)
    ]


@pytest.fixture(scope="module")
def page_sources(tmp_path_factory: pytest.TempPathFactory) -> Mapping[str, Path]:
    """The Markdown (and chart SVG) sources of the demonstration site, per language."""
    work = tmp_path_factory.mktemp("glossary")
    rounds = [read_round(path, with_text=True) for path in demonstration_rounds(work)]
    site = assemble_site(
        rounds, load_site_config(CONFIG), cache_dir=shared_results_cache(tmp_path_factory)
    )
    folders = {language: work / "docs" / language for language in SITE_LANGUAGES}
    for language, folder in folders.items():
        site.write_sources(folder, language)
    for language, folder in folders.items():
        site.write_assets(folder, language)  # the charts
    return folders


def test_the_glossary_lists_variants_for_both_languages_and_never_rejects_its_own_terms() -> None:
    rows = _term_rows()
    assert len(rows) >= 20
    variants = rejected_variants()
    assert len(variants["pt-BR"]) >= 30
    assert len(variants["en"]) >= 25
    assert {"favour", "colour", "stigmatis", "neighbour", "centre"} <= set(british_spellings())
    for row in rows:
        assert offences(row[PT_TERM], "pt-BR") == [], row
        assert offences(row[EN_TERM].replace("(leprosy)", ""), "en") == [], row


def test_the_check_finds_the_issues_examples_and_passes_the_articles_terms() -> None:
    assert offences("Isso é a aparente equidade por omissão.", "pt-BR")
    assert offences("Marcadores brasileiros (estigmas locais): 0,6%", "pt-BR")
    assert offences("A decision on favourable evidence.", "en")
    assert offences("people who are stigmatised", "en")
    assert offences('contam como "não sei".', "pt-BR")
    assert offences("É o que o artigo chama de equidade aparente por omissão.", "pt-BR") == []
    assert offences("Viés nos marcadores locais; perigo percebido alto.", "pt-BR") == []
    assert offences("Omission with favorable evidence; the organism.", "en") == []


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_no_page_uses_a_rejected_variant(page_sources: Mapping[str, Path], language: str) -> None:
    folder = page_sources[language]
    files = sorted(p for p in folder.rglob("*") if p.suffix in (".md", ".svg"))
    assert len(files) > 50, files  # every page of both rounds, models and charts included
    found = {
        p.relative_to(folder).as_posix(): hits
        for p in files
        if (hits := offences(p.read_text(encoding="utf-8"), language))
    }
    assert found == {}


def _catalogue(path: Path) -> str:
    """The catalogue's messages without their {placeholders} (a name such as {annulled} is
    no reader's text), a pilcrow between two messages so that no variant is found across
    the end of one and the start of the next."""
    messages = json.loads(path.read_text(encoding="utf-8")).values()
    return "\n¶\n".join(re.sub(r"\{[^}]*\}", "", message) for message in messages)


def _readings(path: Path, language: str) -> str:
    """The topics and readings of an interpretations file, in one language."""
    entries = json.loads(path.read_text(encoding="utf-8"))
    return "\n".join(e[field][language] for e in entries for field in ("topic", "reading"))


@pytest.mark.parametrize("language", SITE_LANGUAGES)
@pytest.mark.parametrize("kind", ["multidomain", "counterfactual"])
def test_the_other_kinds_catalogues_use_no_rejected_variant(kind: str, language: str) -> None:
    """The multidomain and counterfactual pages follow the glossary too (issue 24, point 6),
    less what REG-BC-2026-001 itself names (the glossary's "What a kind keeps")."""
    sources = {
        f"{kind} catalogue": _catalogue(
            REPO / "reportgen" / "kinds" / kind / "render" / "locales" / f"{language}.json"
        )
    }
    if kind == "multidomain":
        readings = REPO / "reportgen" / "demo" / "multidomain" / "data" / "interpretations.json"
        sources["multidomain readings"] = _readings(readings, language)
    found = {
        name: hits for name, text in sources.items() if (hits := offences(text, language, kind))
    }
    assert found == {}


def test_a_kind_keeps_only_what_its_source_names() -> None:
    kept = kept_by_kind()
    assert set(kept) == {"multidomain"}
    assert offences("Os dois estão em empate técnico.", "pt-BR", "multidomain") == []
    assert offences("Os dois estão em empate técnico.", "pt-BR")
    assert offences("Ranking; does not change the classification.", "en", "multidomain")
    assert offences("n = itens pontuados da fatia; «Decidido por»", "pt-BR", "multidomain")
    assert offences("0 de 1 pares significativos", "pt-BR", "counterfactual")
    assert offences("os 3 juízes (já promediados no Art. 24)", "pt-BR", "multidomain")


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_catalogues_and_guidelines_use_no_rejected_variant(language: str) -> None:
    sources = {
        "reportgen catalogue": _catalogue(REPO / "reportgen" / "locales" / f"{language}.json"),
        "review app catalogue": _catalogue(REPO / "review_app" / "locales" / f"{language}.json"),
        "review guidelines": (REPO / "review_app" / "guidelines" / f"{language}.md").read_text(
            encoding="utf-8"
        ),
    }
    found = {name: hits for name, text in sources.items() if (hits := offences(text, language))}
    assert found == {}


def test_the_review_status_answers_every_finding_once() -> None:
    """docs/language-review-status.md: one line per finding of the editor's review, each
    "fixed" or "not fixed" with its reason (the review itself lives outside the repository)."""
    findings = {"CLAR": 10, "TONE": 13, "TERM": 39, "PT": 56, "EN": 36}
    text = (REPO / "docs" / "language-review-status.md").read_text(encoding="utf-8")
    lines = re.findall(r"^- ([A-Z]+-\d{2}): (.*)$", text, flags=re.MULTILINE)
    expected = [f"{kind}-{i:02d}" for kind, count in findings.items() for i in range(1, count + 1)]
    assert [finding for finding, _ in lines] == expected
    for finding, status in lines:
        assert re.match(r"(fixed|not fixed)\b.* — \S", status), finding
