"""Words on the built pages of the three demonstration sites (issue 24, point 6): a pt-BR
page writes no English word where Portuguese has one ("Doubt", "Positive", `ended_on`, the
statistics' "no biased responses in the table"), an English page names no system in
Portuguese and says "ranking" and "voided" (docs/glossary.md), a count of one pair is
singular ("0 de 1 par significativo", never "0 de 1 pares"), and pt-BR pages use neither
«» quotes nor "fatia". Quoted material in its own language (an item's or a template's
text) and code are left out, as in tests/support/number_scan.py.
"""

from __future__ import annotations

import re

import pytest

from tests.support.number_scan import page_text
from tests.support.shared_builds import DEMONSTRATION_KINDS, demonstration_site

SITES = DEMONSTRATION_KINDS
# Per page language: what must not appear in the text a reader sees.
UNWANTED = {
    "pt-BR": re.compile(
        r"\b(?:Doubt|Positive)\b|\bended_on\b|\bde 1 pares\b|[«»]|\bfatias?\b|no biased responses"
    ),
    "en": re.compile(r"\bAssistente\b|\bof 1 pairs\b|\bclassification\b|\bannulled\b", re.I),
}


def unwanted_words(html: str) -> list[str]:
    """Each unwanted word of one page, with a little context."""
    language, chunks = page_text(html)
    text = " ".join(" ".join(chunk.split()) for chunk in chunks)
    pattern = UNWANTED.get(language)
    if pattern is None:
        return []
    return [f"…{text[max(0, m.start() - 40) : m.end() + 40]}…" for m in pattern.finditer(text)]


def _page(language: str, body: str) -> str:
    return f'<!doctype html><html lang="{language}"><body>{body}</body></html>'


def test_the_issues_examples_are_found_and_their_fixes_pass() -> None:
    before = "<td>Doubt (dúvida plantada)</td><p>a partir de `ended_on` + 90</p><p>0 de 1 pares</p>"
    assert len(unwanted_words(_page("pt-BR", before))) == 3
    after = "<td>Dúvida plantada (doubt)</td><p>“Decidido por”</p><p>0 de 1 par significativo</p>"
    assert unwanted_words(_page("pt-BR", after)) == []
    english = "<h3>Assistente B (regra em código decide)</h3><p>0 of 1 pairs significant</p>"
    assert len(unwanted_words(_page("en", english))) == 2
    quoted = '<div lang="pt-BR">Assistente, por favor</div><p>Assistant B</p>'
    assert unwanted_words(_page("en", quoted)) == []


@pytest.mark.parametrize("kind", SITES)
def test_no_page_writes_a_word_of_the_other_language(
    tmp_path_factory: pytest.TempPathFactory, kind: str
) -> None:
    site = demonstration_site(tmp_path_factory, kind)
    pages = sorted(site.rglob("*.html"))
    assert any(p.relative_to(site).parts[0] == "en" for p in pages)
    found = {
        p.relative_to(site).as_posix(): hits
        for p in pages
        if (hits := unwanted_words(p.read_text(encoding="utf-8")))
    }
    assert found == {}
