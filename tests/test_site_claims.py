"""What the site claims is so (issue 10, points 1-4): the article's metadata, the
methodology's examples, the parser audit, and the continuous evaluation page."""

from __future__ import annotations

import html
import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from reportgen.build import build_site
from reportgen.cli import main
from reportgen.errors import InputError
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render.example_renderings import ENGLISH_RENDERINGS
from reportgen.kinds.estigmas.render.page_common import PageText, RoundCharts
from reportgen.kinds.estigmas.render.reference_pages import methodology_page
from reportgen.kinds.estigmas.render.round_pages import continuous_page
from reportgen.kinds.estigmas.render.site import SiteContext, site_context
from reportgen.render.siteconfig import PLACEHOLDER_KEYS, load_site_config
from tests.factories import (
    CONFIG,
    DEMO_ROUNDS,
    THEME,
    complete_config,
    tiny_rounds,
)
from tests.support.shared_builds import demo_site as shared_demo_site
from tests.support.shared_builds import tiny_site

# The article's title, as both editions print it (../shared/sources/000_*, 001_*).
ARTICLE_TITLE = {
    "pt-BR": "Errar ou omitir-se? Equidade aparente por omissão quando modelos de linguagem"
    " decidem sob estigma",
    "en": "Err or Withhold? Apparent Fairness Through Omission When LLMs Decide Under Stigma",
}
# What the repository's site.yml still holds as placeholders: none may reach a page.
PLACEHOLDER_VALUES = (
    "estigmas.example.org",
    "Autoria a confirmar",
    "10.0000/placeholder",
    "example.org/placeholder",
    "contestacoes@example.org",
)


def plain(path: Path) -> str:
    text = re.sub(r"<script.*?</script>", " ", path.read_text(encoding="utf-8"), flags=re.S)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", text)))


@pytest.fixture(scope="module")
def draft_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small rounds built with the repository's own site.yml (placeholders left)."""
    return tiny_site(tmp_path_factory)


@pytest.fixture(scope="module")
def published_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same rounds with complete metadata, through the publication build (--strict)."""
    work = tmp_path_factory.mktemp("published")
    out = work / "site"
    build_site(
        tiny_rounds(work / "rounds"),
        out,
        config_path=complete_config(work),
        theme_dir=THEME,
        cache_dir=work / "cache",
        strict=True,
    )
    return out


# --- point 1: the article's metadata ---------------------------------------------------


def test_site_yml_carries_the_article_title() -> None:
    assert dict(load_site_config(CONFIG).title) == ARTICLE_TITLE


def test_placeholders_are_read_as_absent() -> None:
    config = load_site_config(CONFIG)
    assert config.draft
    assert [key for key, _line in config.placeholders] == list(PLACEHOLDER_KEYS)
    assert config.authors == ()
    absent = (config.doi, config.article_url, config.repository_url, config.site_url)
    assert absent == (None, None, None, None)
    assert config.contest_contact is None
    assert (config.region_max_bias, config.region_max_omission) == (None, None)


def test_a_required_key_cannot_be_a_placeholder(tmp_path: Path) -> None:
    path = tmp_path / "site.yml"
    text = CONFIG.read_text(encoding="utf-8").replace('license: "', 'license: !placeholder "')
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError, match=r"'article\.license' \(line \d+\) cannot be a placeh"):
        load_site_config(path)


def test_strict_build_on_the_repository_site_yml_names_every_placeholder(
    tmp_path: Path,
) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")
    out = tmp_path / "site"
    result = CliRunner().invoke(
        main,
        # --draft: the small rounds' 200 bootstrap replicates are a draft's; the placeholders
        # are what --strict refuses here.
        [
            "build",
            *map(str, rounds),
            "--out",
            str(out),
            "--config",
            str(CONFIG),
            "--strict",
            "--draft",
        ],
    )
    assert result.exit_code == 1, result.output
    assert "--strict" in result.output
    for key in PLACEHOLDER_KEYS:
        assert f"  - {key} (line " in result.output, key
    assert "Traceback" not in result.output
    assert not out.exists()


def test_draft_pages_carry_the_notice_and_no_placeholder(draft_site: Path) -> None:
    pages = sorted(draft_site.rglob("*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for value in PLACEHOLDER_VALUES:
            assert value not in text, (page, value)
        if page.name != "404.html":
            assert 'class="rg-draft"' in text, page
    assert "Rascunho." in plain(draft_site / "index.html")
    assert "Draft." in plain(draft_site / "en" / "index.html")
    assert "DOI" in plain(draft_site / "en" / "index.html")  # named as missing, not shown
    for sitemap in draft_site.rglob("sitemap.xml"):
        assert "None" not in sitemap.read_text(encoding="utf-8"), sitemap


def test_complete_metadata_is_published_without_a_draft_notice(published_site: Path) -> None:
    for page in published_site.rglob("*.html"):
        assert 'class="rg-draft"' not in page.read_text(encoding="utf-8"), page
    for language_root in (published_site, published_site / "en"):
        home = (language_root / "index.html").read_text(encoding="utf-8")
        assert 'href="https://example.org/placeholder-article"' in home
        assert 'href="https://example.org/placeholder-repository"' in home
        assert "DOI: 10.0000/placeholder.estigmas" in plain(language_root / "index.html")
    assert "contestacoes@example.org" in plain(published_site / "contestations.html")


# --- points 2 and 3: the methodology page ----------------------------------------------


@pytest.fixture(scope="module")
def demo_site() -> SiteContext:
    rounds = [read_round(path, with_text=True) for path in sorted(DEMO_ROUNDS.iterdir())]
    return site_context(rounds, load_site_config(CONFIG), with_statistics=False)


def test_demonstration_examples_say_what_they_are(demo_site: SiteContext) -> None:
    assert demo_site.primary.synthetic
    assert demo_site.primary.published_items
    for language, synthetic in (("pt-BR", "item sintético"), ("en", "synthetic item")):
        page = methodology_page(demo_site, PageText(Translator(language)))
        # The demonstration's items are not the article's: the page must not say they are.
        assert "artigo imprime" not in page.examples_body
        assert "article itself prints" not in page.examples_body
        assert page.examples
        for example in page.examples:
            assert synthetic in example.meta
            assert example.language == "pt-BR"
            # The English page renders each Portuguese prompt; the Portuguese page does not.
            assert (example.rendering is not None) == (language == "en")


def test_every_published_demonstration_item_has_an_english_rendering(
    demo_site: SiteContext,
) -> None:
    for item in demo_site.primary.published_items:
        assert item.prompt in ENGLISH_RENDERINGS, item.item_id


def test_english_page_marks_portuguese_prompts(draft_site: Path) -> None:
    page = (draft_site / "en" / "methodology.html").read_text(encoding="utf-8")
    quotes = re.findall(r"<blockquote lang=\"([^\"]+)\"", page)
    assert quotes
    assert {html.unescape(lang) for lang in quotes} == {"pt-BR"}
    assert 'class="rg-example-rendering"' in page


def test_doubt_style_follows_the_article() -> None:
    """The article's doubt style adds only the asker's doubt, no information (or rumour)."""
    for language in ("pt-BR", "en"):
        definition = Translator(language)("method.regime.doubt.evidence")
        assert re.search(r"(só|only).*(dúvida|doubt)", definition, re.I), definition
        assert re.search(r"nenhuma informação|no information", definition), definition


def test_parser_audit_claim_depends_on_an_audit_export(demo_site: SiteContext) -> None:
    text = PageText(Translator("pt-BR"))
    primary = demo_site.primary.round_id
    # The demonstration ships an audit judged by generated reviewers (issue 21, point 11):
    # the page says so, and does not claim that people audited the parser.
    assert demo_site.audits[primary]["demonstration"] is True
    demonstration = str(methodology_page(demo_site, text).limitations.body)
    assert "foi auditado" not in demonstration
    assert "revisoras de demonstração geradas pelo programa" in demonstration
    without = str(methodology_page(replace(demo_site, audits={}), text).limitations.body)
    assert "foi auditado" not in without
    assert "nenhuma auditoria humana" in without
    audited = replace(demo_site, audits={primary: {}})
    assert "foi auditado por pessoas" in str(methodology_page(audited, text).limitations.body)


def test_audit_page_lead_sentence() -> None:
    lead = Translator("pt-BR")("audit.intro")
    assert "Aqui estão a concordância" not in lead
    assert "esta página mostra a concordância" in lead


# --- point 4: the continuous evaluation page -------------------------------------------


def test_continuous_page_dates_captions_intervals_and_caveat(draft_site: Path) -> None:
    for language_root, caveat, article_table in (
        (draft_site, "essa ordem é descritiva", "Tabela 2"),
        (draft_site / "en", "the order is descriptive", "Table 2"),
    ):
        page = plain(language_root / "continuous.html")
        assert caveat in page
        section = page[page.index(caveat) :]
        assert article_table not in section  # the article's Table 2 is the original round's
        assert re.search(r"\d+[,.]\d% \[\d+[,.]\d%; \d+[,.]\d%\]", section), "no interval"


def test_continuous_snapshot_date_matches_its_title(demo_site: SiteContext) -> None:
    view = demo_site.continuous[0]
    assert "19 de julho de 2026" in view.title["pt-BR"]
    charts = {view.round_id: RoundCharts(scatter=None, language=None)}  # type: ignore[arg-type]
    for language, date in (
        ("pt-BR", "Recorte congelado em 19 de julho de 2026"),
        ("en", "Snapshot frozen on July 19, 2026"),
    ):
        page = continuous_page(demo_site, PageText(Translator(language)), charts)
        assert str(page.rounds[0].snapshot).startswith(date), page.rounds[0].snapshot
        assert page.rounds[0].ranking is not None
        assert not page.rounds[0].ranking.caption.startswith(("Tabela 2", "Table 2"))


# --- the closing note: docs/article-figures.md against a build of the demonstration ------

ARTICLE_FIGURES = Path(__file__).resolve().parents[1] / "docs" / "article-figures.md"


def article_figure_rows() -> list[tuple[str, str, str, str]]:
    """(figure, site pt-BR text, site English text, page) of every exact row of the note."""
    rows = []
    for line in ARTICLE_FIGURES.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 5 or cells[0] in ("figure", "---") or cells[0].startswith("*pattern*"):
            continue
        figure, _article, pt_text, en_text, page = cells
        rows.append((figure, pt_text.strip("`"), en_text.strip("`"), page))
    return rows


@pytest.fixture(scope="module")
def demonstration_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return shared_demo_site(tmp_path_factory)  # built once per run, shared with other modules


def test_article_figures_note_matches_the_built_pages(demonstration_site: Path) -> None:
    rows = article_figure_rows()
    assert len(rows) >= 20
    for figure, pt_text, en_text, page in rows:
        assert pt_text in plain(demonstration_site / page), (figure, page)
        assert en_text in plain(demonstration_site / "en" / page), (figure, page)


def test_a_round_with_too_few_replicates_needs_draft(tmp_path: Path) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")  # 200 bootstrap replicates
    out = tmp_path / "site"
    refused = CliRunner().invoke(main, ["build", *map(str, rounds), "--out", str(out)])
    assert refused.exit_code == 1, refused.output
    assert "bootstrap.replicates is 200, fewer than the 1,000" in refused.output
    assert "Traceback" not in refused.output
    assert not out.exists()
    built = CliRunner().invoke(main, ["build", *map(str, rounds), "--out", str(out), "--draft"])
    assert built.exit_code == 0, built.output
    assert 'class="admonition warning rg-stats-draft"' in (out / "ranking.html").read_text("utf-8")
