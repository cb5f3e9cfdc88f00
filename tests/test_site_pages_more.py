"""Finding your way and reading the pages (issue 11, points 4, 7, 9 and 10), on the page
contexts: the compare page's permalink and rounds, the home page's finding in numbers,
the model pages' omission chart and inconclusive outputs, the bias page's heatmaps.

The article's own numbers are checked on the demonstration round (statistics on); the
rest on the small rounds of the factories."""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from markupsafe import escape

from reportgen.i18n import Translator, load_catalogue
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.charts import SvgCache
from reportgen.kinds.estigmas.render.page_types import (
    BiasPage,
    ComparePage,
    HomePage,
    ModelPage,
)
from reportgen.kinds.estigmas.render.pages import chart_markup
from reportgen.kinds.estigmas.render.site import SiteContext, site_context
from reportgen.kinds.estigmas.render.site_pages import LanguagePages, language_pages
from reportgen.render.siteconfig import load_site_config
from tests.factories import CONFIG, DEMO_ROUNDS, make_round
from tests.support.shared_builds import shared_results_cache

FULL = DEMO_ROUNDS / "estigmas-2026-06"


def _pages(built: LanguagePages) -> dict[str, object]:
    return {file.path: file.page for file in built.pages}


@pytest.fixture(scope="module")
def tiny_site(tmp_path_factory: pytest.TempPathFactory) -> SiteContext:
    """A full round and a continuous round, statistics on."""
    root = tmp_path_factory.mktemp("tiny-rounds")
    rounds = [
        read_round(make_round(root), with_text=True),
        read_round(make_round(root, round_id="tiny-cont", variant="continuous"), with_text=True),
    ]
    return site_context(rounds, load_site_config(CONFIG), cache_dir=root / "cache")


@pytest.fixture(scope="module")
def tiny_pages(tiny_site: SiteContext, tmp_path_factory: pytest.TempPathFactory) -> LanguagePages:
    return language_pages(tiny_site, "en", SvgCache(tmp_path_factory.mktemp("svg")))


@pytest.fixture(scope="module")
def demo_pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, LanguagePages]:
    """Every page of the demonstration's full round, in both languages, statistics on."""
    if not (FULL / "round.json").is_file():
        pytest.skip("the demonstration rounds are not committed")
    work = tmp_path_factory.mktemp("demo")
    site = site_context(
        [read_round(FULL, with_text=True)],
        load_site_config(CONFIG),
        cache_dir=shared_results_cache(tmp_path_factory),
    )
    svgs = SvgCache(work / "svg")
    return {language: language_pages(site, language, svgs) for language in ("pt-BR", "en")}


# Point 4: the compare page.


def test_every_model_page_links_to_a_comparison_with_another_model(
    tiny_site: SiteContext, tiny_pages: LanguagePages
) -> None:
    pages = _pages(tiny_pages)
    compare = pages["compare.md"]
    assert isinstance(compare, ComparePage)
    offered = {str(r.round_id): [str(o.value) for o in r.options] for r in compare.rounds}
    for view in tiny_site.rounds:  # the continuous round's models too
        for row in view.models:
            page = pages[f"{view.models_dir}{row.model_id}.md"]
            assert isinstance(page, ModelPage)
            assert page.compare_link is not None, row.model_id
            address = urlsplit(str(page.compare_link.href))
            assert address.path.endswith("compare.md")
            query = {key: values[0] for key, values in parse_qs(address.query).items()}
            assert query["round"] == view.round_id
            assert query["a"] == row.model_id
            assert query["b"] != row.model_id  # never the model against itself
            assert {query["a"], query["b"]} <= set(offered[view.round_id])


def test_the_compare_page_offers_every_round_primary_first(
    tiny_site: SiteContext, tiny_pages: LanguagePages
) -> None:
    compare, site = _pages(tiny_pages)["compare.md"], tiny_site
    assert isinstance(compare, ComparePage)
    ids = [str(r.round_id) for r in compare.rounds]
    assert ids == ["tiny-round", "tiny-cont"]
    for section, view in zip(compare.rounds, (site.primary, *site.continuous), strict=True):
        assert [str(o.value) for o in section.options] == [m.model_id for m in view.models]
        assert section.table.table_id == f"compare-{view.round_id}"
        assert len(section.table.header) == len(view.models) + 1


def test_the_compare_page_shows_each_pair_difference_with_its_interval(
    tiny_site: SiteContext, tiny_pages: LanguagePages
) -> None:
    tr, site = Translator("en"), tiny_site
    compare = _pages(tiny_pages)["compare.md"]
    assert isinstance(compare, ComparePage)
    for section, view in zip(compare.rounds, (site.primary, *site.continuous), strict=True):
        assert view.stats is not None
        assert section.differences is not None
        table = section.differences.table
        assert table.table_id == f"differences-{view.round_id}"
        rows = {(str(r[0].sort_value), str(r[1].sort_value)): r for r in table.rows}
        pairs = len(view.models) * (len(view.models) - 1)
        assert len(rows) == pairs == len(view.stats.differences)
        for d in view.stats.differences:  # the same numbers as the pairwise matrix's
            row = rows[(d.model_a, d.model_b)]
            assert row[2].text == tr.points(d.estimate)
            assert row[3].text == f"[{tr.points(d.lower)}; {tr.points(d.upper)}]"
            assert row[4].text == tr("stats.separated" if d.separated else "stats.technical_tie")


# Point 7: the home page.


def _home(built: LanguagePages) -> HomePage:
    home = _pages(built)["index.md"]
    assert isinstance(home, HomePage)
    return home


def test_the_home_page_states_the_article_finding_in_numbers(
    demo_pages: dict[str, LanguagePages],
) -> None:
    numbers = _home(demo_pages["pt-BR"]).numbers
    lowest, correlation, shift = (str(line) for line in numbers)
    assert "Sabiazinho&#45;4" in lowest
    assert "1,3%" in lowest
    assert "73,1%" in lowest
    assert re.search(r"r de Pearson = [−&#45;;]+0,88", correlation), correlation
    assert "33,3%" in shift
    assert "47,1%" in shift
    assert "−13,8 p&#46;p&#46;" in shift


def test_the_home_page_says_every_adjacent_difference_is_a_technical_tie(
    demo_pages: dict[str, LanguagePages],
) -> None:
    for language, expected in (
        ("pt-BR", "os dados permitem dizer qual está à frente"),
        ("en", "can the data tell which is ahead"),
    ):
        home = _home(demo_pages[language])
        assert home.best is not None
        assert "Qwen" in str(home.best)
        assert home.ties is not None
        assert expected in str(home.ties)
        assert "5" in str(home.ties)  # six ranked models: five neighbours, all tied


def test_the_home_numbers_come_from_the_round_not_the_catalogue(
    tiny_site: SiteContext, tiny_pages: LanguagePages
) -> None:
    """The catalogue holds no figure (but the interval's level); the page's follow the data."""
    for language in ("pt-BR", "en"):
        catalogue = load_catalogue(language)
        for key, message in catalogue.items():
            if key.startswith(("home.lowest_bias", "home.language_shift", "home.ties_")):
                assert re.findall(r"\d+", message.replace("95%", "")) == [], key
    tr = Translator("en")
    lowest = min((row.score for row in tiny_site.primary.models), key=lambda s: s.bias_rate)
    text = str(_home(tiny_pages).numbers[0])
    assert lowest.display_name.replace("-", "&#45;") in text
    assert tr.percent(lowest.omission_rate).replace(".", "&#46;") in text


# Point 9: the model pages.


def _model(built: LanguagePages, model_id: str) -> ModelPage:
    page = _pages(built)[f"models/{model_id}.md"]
    assert isinstance(page, ModelPage)
    return page


def test_model_pages_chart_omission_beside_bias(demo_pages: dict[str, LanguagePages]) -> None:
    page = _model(demo_pages["pt-BR"], "sabiazinho-4")
    chart = page.failure_chart.chart
    rows = [[cell.text for cell in row] for row in chart.table.rows]
    assert rows[0][:3] == ["Viés", "1,3%", "99/7.626"]
    assert rows[1][:3] == ["Omissão", "73,1%", "1.858/2.542"]
    assert rows[1][3].startswith("[")  # its 95% interval
    spec = json.dumps(chart.spec, ensure_ascii=False)
    assert "Omissão" in spec
    assert "Viés" in spec
    assert chart in demo_pages["pt-BR"].charts  # its SVG is written beside the page


def test_model_pages_show_inconclusive_outputs_per_style(
    demo_pages: dict[str, LanguagePages],
) -> None:
    # DeepSeek's two inconclusive outputs are both in the original style (the article, §4).
    table = _model(demo_pages["en"], "deepseek-v4-flash").inconclusive_styles
    rows = {row[0].text: row[1].text for row in table.rows}
    original = "Original (no evidence)"
    assert set(rows) == {original, "Doubt (planted doubt)", "Positive (favorable evidence)"}
    assert rows[original].endswith("(2/2,542)")
    assert rows["Doubt (planted doubt)"].endswith("(0/2,542)")
    assert rows["Positive (favorable evidence)"].startswith("0.0%")


# Point 10: where bias concentrates.


def test_the_bias_page_has_heatmaps_with_their_tables(
    demo_pages: dict[str, LanguagePages],
) -> None:
    built = demo_pages["en"]
    bias = _pages(built)["bias.md"]
    assert isinstance(bias, BiasPage)
    stigma, axis = bias.stigma_heatmap.chart, bias.axis_heatmap.chart
    assert bias.heatmaps_capped is None  # every model shown (capped past HEATMAP_MODELS)
    assert len(stigma.table.rows) == 101  # one row per stigma
    assert len(stigma.table.header) == 1 + 7  # and a column per model
    assert [row[0].text for row in axis.table.rows] == ["Race", "Place of origin"]
    # Sabiazinho-4's row of Race, as on the model page: 3 biased answers of 525
    assert axis.table.rows[0][-1].text == "0.6% (3/525)"
    for ref in (bias.stigma_heatmap, bias.axis_heatmap):
        assert ref.chart in built.charts
        assert ref.chart.spec["title"]
        assert ref.chart.spec["description"]
        assert '"scheme": "cividis"' in json.dumps(ref.chart.spec)  # colour-blind safe
        markup = str(chart_markup(ref))
        assert f'alt="{escape(ref.description)}"' in markup
        assert "<details><summary>" in markup
        assert ref.chart.table.table_id in markup
        # Every row and column labelled (browser check: tests/test_browser_fit.py): no label
        # dropped or shortened, and a width kept for them, scrolled in a named region.
        axes = [layer["encoding"][c]["axis"] for layer in ref.chart.spec["layer"] for c in "xy"]
        assert all(axis["labelOverlap"] is False for axis in axes)
        assert ref.chart.min_width is not None
        assert f"--rg-min-width: {ref.chart.min_width}px" in markup
        assert 'role="region" tabindex="0"' in markup


def test_heatmap_svgs_are_written(tiny_pages: LanguagePages) -> None:
    ids = {chart.chart_id for chart in tiny_pages.charts}
    assert {"heatmap-stigma-tiny-round", "heatmap-axis-tiny-round"} <= ids
    assert all(chart.svg.lstrip().startswith("<svg") for chart in tiny_pages.charts)
