"""The site's details (issue 11, points 5, 8, 13, 14): per-language search, typography,
the data dictionary, per-chart downloads, the citation and Open Graph tags."""

from __future__ import annotations

import csv
import dataclasses
import html
import io
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest
import yaml

from reportgen.build import build_site
from reportgen.i18n import SITE_LANGUAGES, Translator, load_catalogue
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.chart_files import chart_csv, chart_rows
from reportgen.kinds.estigmas.render.charts import ChartOutput
from reportgen.kinds.estigmas.render.context import RoundView
from reportgen.kinds.estigmas.render.reference_tables import (
    AXIS_COLUMNS,
    MODELS_KIND_HEADER,
    STIGMA_COLUMNS,
    dictionary,
)
from reportgen.kinds.estigmas.render.site import site_context
from reportgen.kinds.estigmas.render.site_pages import language_pages
from reportgen.kinds.estigmas.render.stats_tables import rank_range, structures_by_scenario
from reportgen.render.citation import bibtex, citation_cff
from reportgen.render.search_index import split_search_index
from reportgen.render.siteconfig import load_site_config
from reportgen.render.table import SEARCH_INDEX_MAX_ROWS, Cell, Table, to_html
from tests.factories import CONFIG, THEME, complete_config, tiny_rounds

# ---------------------------------------------------------------- units


def test_negative_numbers_carry_a_minus_sign() -> None:
    pt, en = Translator("pt-BR"), Translator("en")
    assert pt.decimal(-0.88, 2) == "\u22120,88"
    assert en.decimal(-0.88, 2) == "\u22120.88"
    assert pt.percent(-0.05) == "\u22125,0%"
    assert en.integer(-3) == "\u22123"
    assert pt.decimal(0.88, 2) == "0,88"


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_catalogues_quote_with_typographic_quotes(language: str) -> None:
    straight = {key: value for key, value in load_catalogue(language).items() if '"' in value}
    assert straight == {}
    if language == "pt-BR":
        assert "“não sei”" in load_catalogue(language)["language.cant_tell_share"]


def test_a_rank_range_that_never_moved_is_one_rank() -> None:
    tr = Translator("pt-BR")
    assert rank_range(tr, 1, 1) == "1"
    assert rank_range(tr, 2, 3) == "2–3"


def test_structures_of_one_scenario_are_named_together() -> None:
    scenarios = {
        "q04": {"pt-BR": "Demissão", "en": "Dismissal"},
        "q23": {"pt-BR": "Atendimento em serviços", "en": "Access to services"},
        "q25": {"pt-BR": "Atendimento em serviços", "en": "Access to services"},
    }
    view = cast(RoundView, SimpleNamespace(structure_scenarios=scenarios))
    named = structures_by_scenario(view, Translator("pt-BR"), ["q04", "q23", "q25"])
    assert named == ["Demissão (q04)", "Atendimento em serviços (q23, q25)"]
    assert len(set(named)) == len(named)


def _rows(count: int) -> tuple[tuple[Cell, ...], ...]:
    return tuple((Cell(f"row {i}"),) for i in range(count))


def test_big_tables_stay_out_of_the_search_index() -> None:
    small = Table("small", "Small", (Cell("A"),), _rows(SEARCH_INDEX_MAX_ROWS))
    big = Table("big", "Big", (Cell("A"),), _rows(SEARCH_INDEX_MAX_ROWS + 1))
    assert "data-search-exclude" not in to_html(small)
    opening = str(to_html(big)).split(">", 1)[0]
    assert opening.startswith('<div class="rg-table-wrap"')
    assert "data-search-exclude" in opening


def test_search_index_is_split_per_language(tmp_path: Path) -> None:
    index = tmp_path / "search" / "search_index.json"
    index.parent.mkdir()
    docs = [
        {"location": "index.html", "title": "Início", "text": "viés"},
        {"location": "en/index.html", "title": "Home", "text": "bias"},
        {"location": "en/models/a.html#x", "title": "A", "text": "model"},
    ]
    index.write_text(json.dumps({"config": {"lang": ["pt", "en"]}, "docs": docs}))
    written = split_search_index(tmp_path, SITE_LANGUAGES)
    pt = json.loads(written["pt-BR"].read_text())
    en = json.loads((tmp_path / "en" / "search" / "search_index.json").read_text())
    assert [d["location"] for d in pt["docs"]] == ["index.html"]
    assert [d["location"] for d in en["docs"]] == ["index.html", "models/a.html#x"]
    assert (pt["config"]["lang"], en["config"]["lang"]) == (["pt"], ["en"])


def test_citation_comes_from_site_yml(tmp_path: Path) -> None:
    config = load_site_config(complete_config(tmp_path))
    entry = bibtex(config)
    assert entry is not None
    assert entry.startswith("@misc{estigmas,")
    assert f"title = {{{config.title['pt-BR']}}}" in entry
    assert f"author = {{{' and '.join(config.authors)}}}" in entry
    assert f"doi = {{{config.doi}}}" in entry
    cff_text = citation_cff(config)
    assert cff_text is not None
    cff = yaml.safe_load(cff_text)
    assert cff["cff-version"] == "1.2.0"
    assert cff["title"] == config.title["pt-BR"]
    assert len(cff["authors"]) == len(config.authors)
    assert cff["doi"] == config.doi
    assert cff["license"] == "CC-BY-4.0"
    # A draft whose authors are a placeholder cites nothing rather than cite it wrongly.
    draft = load_site_config(CONFIG)
    assert bibtex(draft) is None
    assert citation_cff(draft) is None


@pytest.mark.parametrize("language", SITE_LANGUAGES)
def test_data_dictionary_gives_each_column_its_type(language: str) -> None:
    tr = Translator(language)
    table = dictionary(tr, "data/r/results.schema.json")
    assert [c.text for c in table.header][2] == tr("data.type")
    types = {(row[0].text, row[1].text): row[2].text for row in table.rows}
    for file, columns in (
        ("models.csv", MODELS_KIND_HEADER),
        ("stigmas.csv", STIGMA_COLUMNS),
        ("axes.csv", AXIS_COLUMNS),
    ):
        for column in columns:
            if column.endswith("_rate") or column in ("coverage", "failure", "index"):
                assert types[file, column] == tr("dict.type.fraction"), column
    assert types["models.csv", "rank"] == tr("dict.type.rank")
    assert types["models.csv", "N"] == tr("dict.type.integer")
    schema = next(row for row in table.rows if row[0].text == "results.schema.json")
    assert schema[0].link == "data/r/results.schema.json"
    if language == "pt-BR":
        assert "fração de 0 a 1" in tr("dict.type.fraction")
        assert "vazio para casos diagnósticos" in tr("dict.type.rank")


# ------------------------------------------------- page contexts (with statistics)


def _tables(value: object) -> Iterator[Table]:
    if isinstance(value, Table):
        yield value
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from _tables(getattr(value, field.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from _tables(item)


@pytest.fixture(scope="module")
def english_pages(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from reportgen.kinds.estigmas.render.charts import SvgCache

    work = tmp_path_factory.mktemp("details-context")
    rounds = [read_round(path, with_text=True) for path in tiny_rounds(work / "rounds")]
    site = site_context(rounds, load_site_config(CONFIG), cache_dir=work / "cache")
    return language_pages(site, "en", SvgCache(work / "svg"))


def test_table_headers_align_with_their_values(english_pages: Any) -> None:
    """A column of numbers is right-aligned from its header down (Table 3 was not)."""
    tables = [table for page in english_pages.pages for table in _tables(page.page)]
    assert any(t.table_id.startswith("language-means-") for t in tables)
    for table in tables:
        for column, header in enumerate(table.header):
            cells = [row[column] for row in table.rows]
            if cells and all(cell.numeric for cell in cells):
                assert header.numeric, (table.table_id, header.text)
            if header.numeric:
                assert all(cell.numeric for cell in cells), (table.table_id, header.text)


def test_chart_axes_keep_a_gap_between_labels(english_pages: Any) -> None:
    charts: tuple[ChartOutput, ...] = english_pages.charts
    assert charts
    for chart in charts:
        axis = chart.spec["config"]["axis"]
        assert axis["labelOverlap"] == "greedy", chart.chart_id
        assert axis["labelSeparation"] >= 4, chart.chart_id


def test_chart_csv_holds_the_chart_data(english_pages: Any) -> None:
    scatter = next(c for c in english_pages.charts if c.chart_id.startswith("scatter-"))
    rows = list(csv.DictReader(io.StringIO(chart_csv(scatter))))
    assert len(rows) == len(scatter.table.rows) == len(chart_rows(scatter.spec))
    assert {"model", "provider", "bias", "omission"} <= set(rows[0])
    assert 0 <= float(rows[0]["bias"]) <= 1  # raw rates, not formatted percentages


# ------------------------------------------------------------- the built site


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The tiny rounds built with complete metadata (a site address, authors, a DOI)."""
    work = tmp_path_factory.mktemp("details-site")
    out = work / "site"
    build_site(
        tiny_rounds(work / "rounds"),
        out,
        config_path=complete_config(work),
        theme_dir=THEME,
        cache_dir=work / "cache",
    )
    return out


def _html(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def _config_base(page: str) -> str:
    match = re.search(r'<script id="__config" type="application/json">(.*?)</script>', page, re.S)
    assert match
    base: str = json.loads(match.group(1))["base"]
    return base


def test_each_language_searches_its_own_index(site: Path) -> None:
    pt = json.loads(_html(site, "search/search_index.json"))
    en = json.loads(_html(site, "en/search/search_index.json"))
    assert pt["docs"]
    assert en["docs"]
    assert not any(d["location"].startswith("en/") for d in pt["docs"])
    # English locations are relative to en/, where the English pages load their index from.
    assert {d["title"] for d in en["docs"]} & {"Home", "Ranking"}
    assert "Início" not in {d["title"] for d in en["docs"]}
    for location in {d["location"].split("#")[0] for d in en["docs"]}:
        assert (site / "en" / location).is_file(), location
    assert (pt["config"]["lang"], en["config"]["lang"]) == (["pt"], ["en"])
    assert _config_base(_html(site, "en/index.html")) == "../en/"
    assert _config_base(_html(site, "en/models/alfa-1.html")) == "../../en/"
    assert _config_base(_html(site, "index.html")) == "."


def test_model_page_titles_name_the_round(site: Path) -> None:
    titles = []
    for page in sorted(site.glob("en/models/**/*.html")):
        title = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"), re.S)
        assert title
        titles.append(html.unescape(title.group(1)))
    assert len(titles) == len(set(titles)) >= 4
    assert any("(tiny-cont)" in t for t in titles)


@pytest.mark.parametrize(
    ("prefix", "lang", "made_with"), [("", "pt-BR", "Feito com"), ("en/", "en", "Made with")]
)
def test_page_language_and_footer(site: Path, prefix: str, lang: str, made_with: str) -> None:
    page = _html(site, f"{prefix}index.html")
    assert f'<html lang="{lang}"' in page
    footer = page[page.index('<div class="md-copyright">') :]
    assert made_with in footer
    if lang == "pt-BR":
        assert "Made with" not in footer


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_figure_one_caption_and_how_to_read_it(site: Path, prefix: str) -> None:
    tr = Translator("pt-BR" if not prefix else "en")
    page = _html(site, f"{prefix}index.html")
    figure = page[page.index('<figure class="rg-chart" id="scatter-') :]
    figure = figure[: figure.index("</figure>")]
    caption = figure[figure.index("<figcaption>") :]
    assert caption.endswith("</figcaption>")  # the last child of the figure
    assert "rg-figure-caption" in caption
    assert tr("home.figure_caption")[:9] in caption
    assert "rg-how-to-read" in caption
    continuous = _html(site, f"{prefix}continuous.html")
    assert continuous.count('class="rg-how-to-read"') >= 1


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_every_chart_has_its_downloads(site: Path, prefix: str) -> None:
    for path in [site / f"{prefix}index.html", *sorted(site.glob(f"{prefix}models/*.html"))]:
        page = path.read_text(encoding="utf-8")
        figures = page.count('<figure class="rg-chart"')
        assert figures >= 1, path
        links = re.findall(r'<a href="([^"]+\.(?:svg|png|csv))" download>', page)
        assert len(links) == 3 * figures, path
        for link in links:
            target = (path.parent / link).resolve()
            assert target.is_file(), (path, link)
            if link.endswith(".png"):
                assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
            if link.endswith(".csv"):
                assert target.read_text(encoding="utf-8").splitlines()[0]


@pytest.mark.parametrize("prefix", ["", "en/"])
def test_citation_block_and_citation_file(site: Path, prefix: str) -> None:
    page = _html(site, f"{prefix}index.html")
    assert '<pre class="rg-bibtex"><code>' in page
    assert "@misc" in page
    link = re.search(r'href="([^"]*CITATION\.cff)"', page)
    assert link
    assert (site / prefix / link.group(1)).resolve() == (site / "CITATION.cff")
    cff = yaml.safe_load(_html(site, "CITATION.cff"))
    assert cff["cff-version"] == "1.2.0"
    assert cff["authors"]


@pytest.mark.parametrize(("prefix", "locale"), [("", "pt_BR"), ("en/", "en_US")])
def test_open_graph_tags(site: Path, prefix: str, locale: str) -> None:
    page = _html(site, f"{prefix}ranking.html")
    tags = dict(re.findall(r'<meta property="(og:[a-z_]+)" content="([^"]*)"', page))
    assert tags["og:locale"] == locale
    assert tags["og:title"]
    assert tags["og:description"]
    assert tags["og:site_name"]
    assert tags["og:url"].startswith("https://")
    assert tags["og:url"].endswith("ranking.html")


def test_data_dictionary_links_the_results_schema(site: Path) -> None:
    page = _html(site, "en/data.html")
    link = re.search(r'<a href="([^"]*results\.schema\.json)">results\.schema\.json</a>', page)
    assert link
    assert (site / "en" / link.group(1)).resolve().is_file()
