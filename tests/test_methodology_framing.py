"""What the article frames, on the methodology page (issue 21, point 12): its Box 1 (the
scope of related benchmarks) as a section in the site's own words, and the instrument's
counts (prompts, base controls, local-marker items) beside the scored N, in both languages."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.context import build_round_view
from tests.factories import tiny_rounds
from tests.support.shared_builds import demo_site as shared_demo_site

# The benchmarks the article's §2.3 and Box 1 name, SocialStigmaQA being Estigmas' base.
RELATED: tuple[str, ...] = ("SocialStigmaQA", "CAPITU", "Prosa", "MTEB-BR", "P3B3")
RELATED += ("Levados em consideração", "MiJaBench")
HEADINGS = {"pt-BR": "Benchmarks relacionados", "en": "Related benchmarks"}
BOX = {"pt-BR": "Quadro 1 do artigo (“Escopo dos benchmarks relacionados”)", "en": "Box 1"}
# The article's figures (§3.1): 7,653 prompts = 7,626 scored + 27 base controls; 807 of the
# 7,626 scored items (10.6%) are on the ten local markers.
COUNTS = {
    "pt-BR": (
        "Itens pontuados por modelo: 7.626",
        "Prompts do instrumento: 7.653 em português brasileiro, contados os 27 controles base",
        "Itens com marcador local: 807 dos 7.626 itens pontuados (10,6%)",
    ),
    "en": (
        "Scored items per model: 7,626",
        "Prompts in the instrument: 7,653 in Brazilian Portuguese, counting the 27 base controls",
        "Items with a local marker: 807 of the 7,626 scored items (10.6%)",
    ),
}


def plain(path: Path) -> str:
    text = re.sub(r"<script.*?</script>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.fixture(scope="module")
def demonstration_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_demo_site(tmp_path_factory)  # built once per run, shared with other modules


def page(site: Path, language: str) -> Path:
    return site / ("methodology.html" if language == "pt-BR" else "en/methodology.html")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_related_benchmarks_section_names_what_box_1_compares(
    demonstration_site: Path, language: str
) -> None:
    source = page(demonstration_site, language).read_text(encoding="utf-8")
    assert re.search(rf"<h2[^>]*>{HEADINGS[language]}", source), language
    text = plain(page(demonstration_site, language))
    section = text[
        text.rindex(HEADINGS[language]) :
    ]  # the h2, after the page's own table of contents
    assert BOX[language] in section
    for name in RELATED:
        assert name in section, (language, name)


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_instrument_counts_sit_beside_the_scored_n(demonstration_site: Path, language: str) -> None:
    text = plain(page(demonstration_site, language))
    positions = [text.index(count) for count in COUNTS[language]]
    assert positions == sorted(positions)  # N, then the instrument's prompts, then local items
    assert positions[-1] < text.rindex(HEADINGS[language])  # in the instrument section


def test_counts_are_the_rounds_own(tmp_path: Path) -> None:
    """The instrument keeps every prompt when an item is annulled; the scored items drop."""
    full, continuous = (read_round(path) for path in tiny_rounds(tmp_path / "rounds"))
    whole, annulled = build_round_view(full), build_round_view(continuous)
    assert (whole.instrument_prompts, whole.base_controls) == (whole.N + 3, 3)
    assert annulled.instrument_prompts == whole.instrument_prompts
    assert annulled.N == whole.N - 1
    local = {s.stigma_id for s in full.stigmas if s.origin == "local"}
    items = [i for i in full.items if i.style != "base" and i.language == "pt-BR"]
    assert whole.local_marker_items == sum(i.stigma_id in local for i in items) > 0
