"""Every number a reader sees goes through the locale formatter (issue 24, point 6).

The three demonstration sites (estigmas, the multidomain round after its embargo, the
counterfactual audits) are scanned page by page, pt-BR at the root and English under
/en/, for numbers written as a program prints them: "0.2" or "73171" on a Portuguese
page, "1.713e-05" on either. tests/support/number_scan.py says what counts and what is
left alone (code, quoted item texts, dates, ids, hashes, versions, URLs, seeds).
"""

from __future__ import annotations

import pytest

from tests.support.number_scan import chunk_findings, page_findings, site_findings, unformatted
from tests.support.shared_builds import DEMONSTRATION_KINDS, demonstration_site

SITES = DEMONSTRATION_KINDS


def _page(language: str, body: str) -> str:
    return f'<!doctype html><html lang="{language}"><body>{body}</body></html>'


@pytest.mark.parametrize(
    ("language", "word"),
    [
        ("pt-BR", "0.2"),
        ("pt-BR", "0.01"),
        ("pt-BR", "0.123"),
        ("pt-BR", "73171"),
        ("pt-BR", "1,713e-05"),
        ("pt-BR", "12.50"),
        ("en", "73171"),
        ("en", "1.713e-05"),
        ("en", "12,34"),
    ],
)
def test_the_issues_examples_are_unformatted(language: str, word: str) -> None:
    assert unformatted(word, language)


@pytest.mark.parametrize(
    ("language", "word"),
    [
        ("pt-BR", "0,2"),
        ("pt-BR", "73.171"),
        ("pt-BR", "2.164,0"),
        ("pt-BR", "2026"),
        ("pt-BR", "1.6.1"),
        ("en", "0.2"),
        ("en", "73,171"),
        ("en", "2,164.0"),
        ("en", "2026"),
    ],
)
def test_formatted_numbers_years_and_versions_pass(language: str, word: str) -> None:
    assert not unformatted(word, language)


@pytest.mark.parametrize(
    ("text", "found"),
    [("o §2.3 do artigo", []), ("(§ 2.3) do artigo", []), ("taxa de 2.3 no artigo", ["2.3"])],
)
def test_a_section_number_is_not_a_quantity(text: str, found: list[str]) -> None:
    assert [finding.word for finding in chunk_findings(text, "pt-BR")] == found


def test_a_page_is_read_as_a_reader_sees_it() -> None:
    body = (
        "<p><strong>Tolerância:</strong> 0.01</p><p>α (p ajustado) 0.05</p>"
        "<p>(73171 confrontos)</p><p>p 1,713e-05</p>"
        '<table><tr><td>Aurora 4</td><td class="num">2091</td></tr></table>'
    )
    found = [f.word for f in page_findings(_page("pt-BR", body))]
    assert found == ["0.01", "0.05", "73171", "1,713e-05", "2091"]
    left_alone = (
        "<p>Rodada de 2026-09-14, i-juri-003, REG-BC-2026-001, d85d77535cc76e06 v1.0</p>"
        '<p><code>x = 0.5 * 10000</code></p><div lang="en">revenue of 10000 reais</div>'
        "<p>Qwen 3.6 Flash, https://example.org/a/12345.html, 1000 reamostragens, "
        "semente 20261120</p>"
        "<table><tr><td>Semente da ordem</td><td>20261103</td></tr>"
        '<tr><td>Ano</td><td>2026</td></tr><tr><td>N</td><td class="num">2.091</td></tr></table>'
    )
    assert page_findings(_page("pt-BR", left_alone)) == []
    assert [f.word for f in page_findings(_page("en", "<p>(73171 battles)</p>"))] == ["73171"]


@pytest.mark.parametrize("kind", SITES)
def test_no_page_writes_an_unformatted_number(
    tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    site = demonstration_site(tmp_path_factory, kind)
    pages = sorted(site.rglob("*.html"))
    # Both languages, every page: the English tree under /en/ and the pt-BR one at the root.
    assert any(p.relative_to(site).parts[0] == "en" for p in pages)
    assert sum(p.relative_to(site).parts[0] != "en" for p in pages) >= 3
    found = site_findings(site)
    assert [str(f) for f in found[:40]] == [], f"{len(found)} unformatted numbers"
