"""End-to-end builds of the companion site from small archives (and the demo rounds)."""

from __future__ import annotations

import csv
import filecmp
import html
import io
import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]  # altair's dependency; no stubs installed
import pytest
from click.testing import CliRunner

from reportgen.build import build_site, find_rounds
from reportgen.cli import main
from reportgen.errors import ArchiveError, InputError, OutputExistsError, ReportgenError
from reportgen.guard import LeakError
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.archive import read_round
from reportgen.kinds.estigmas.render import pages
from reportgen.kinds.estigmas.results import published_json_schema_text
from reportgen.kinds.estigmas.score import score_models
from reportgen.render.pages import TemplateRenderError
from reportgen.site_output import SITE_MARKER
from tests.factories import (
    CONFIG,
    DEFAULT_MODELS,
    PAGES,
    THEME,
    build_tiny,
    complete_config,
    make_round,
    tiny_parts,
    tiny_rounds,
    write_parts,
)
from tests.support.shared_builds import demo_site, tiny_site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_site(tmp_path_factory)


def page_text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_every_page_exists_in_both_languages(built: Path) -> None:
    for stem in PAGES:
        assert (built / f"{stem}.html").is_file(), stem
        assert (built / "en" / f"{stem}.html").is_file(), stem
    for model in ("alfa-1", "alfa-mini", "beta-2"):
        assert (built / "models" / f"{model}.html").is_file()
        assert (built / "en" / "models" / f"{model}.html").is_file()
    assert (built / SITE_MARKER).is_file()


def test_language_switch_links_to_the_same_page(built: Path) -> None:
    pt_page = page_text(built / "models" / "alfa-1.html")
    en_page = page_text(built / "en" / "models" / "alfa-1.html")
    assert '<a href="../en/models/alfa-1.html" hreflang="en"' in pt_page
    assert '<a href="../../models/alfa-1.html" hreflang="pt-BR"' in en_page


def test_synthetic_notice_on_every_html_page(built: Path) -> None:
    pages = [p for p in built.rglob("*.html") if p.name != "404.html"]
    assert len(pages) >= 2 * (len(PAGES) + 3)
    for page in pages:
        assert "rg-synthetic" in page_text(page), page


def test_numbers_follow_the_locale(built: Path) -> None:
    round_ = read_round(built.parent / "rounds" / "tiny-round", with_text=False)
    first = score_models(round_)[0]
    pt, en = Translator("pt-BR"), Translator("en")
    pt_ranking = html.unescape(page_text(built / "ranking.html"))
    en_ranking = html.unescape(page_text(built / "en" / "ranking.html"))
    assert pt.percent(first.bias_rate) in pt_ranking
    assert en.percent(first.bias_rate) in en_ranking
    if pt.percent(first.bias_rate) != en.percent(first.bias_rate):
        assert en.percent(first.bias_rate) not in pt_ranking.split("<article")[1]


def test_injected_model_name_stays_text(built: Path) -> None:
    for page in built.rglob("*.html"):
        text = page_text(page)
        assert "<script>alert" not in text, page
        assert "<b>bold</b>" not in text, page
    ranking = page_text(built / "ranking.html")
    assert "alert" in ranking  # shown, escaped
    # the search index keeps it escaped too, so search results cannot render it as markup
    index = page_text(built / "search" / "search_index.json")
    assert "&lt;script&gt;alert" in index
    assert "<script>alert" not in index


def test_models_csv_matches_scores(built: Path) -> None:
    round_ = read_round(built.parent / "rounds" / "tiny-round", with_text=False)
    scores = {s.model_id: s for s in score_models(round_)}
    rows = list(csv.DictReader(io.StringIO(page_text(built / "data/tiny-round/models.csv"))))
    assert {r["model_id"] for r in rows} == set(scores)
    for row in rows:
        score = scores[row["model_id"]]
        assert int(row["biased"]) == score.biased
        assert float(row["bias_rate"]) == pytest.approx(score.bias_rate, abs=1e-12)
        for metric in ("failure", "index", "bias_rate", "omission_rate", "correct_rate"):
            low, high = float(row[f"{metric}_lo"]), float(row[f"{metric}_hi"])
            assert low <= getattr(score, metric) + 1e-9
            assert high >= getattr(score, metric) - 1e-9


def test_results_json_is_published_beside_its_schema(built: Path) -> None:
    folder = built / "data" / "tiny-round"
    schema_text = page_text(folder / "results.schema.json")
    assert schema_text == published_json_schema_text()
    results = json.loads(page_text(folder / "results.json"))
    jsonschema.Draft202012Validator(json.loads(schema_text)).validate(results)
    for page in ("data.html", "en/data.html"):  # the data dictionary points to it
        assert "results.schema.json" in page_text(built / page), page


def test_continuous_page_shows_denominator_after_annulments(built: Path) -> None:
    text = html.unescape(page_text(built / "en" / "continuous.html"))
    plain = re.sub(r"<[^>]+>", " ", text)
    assert "N = 35 items" in plain  # 36 scored items, one annulled
    contest = re.sub(r"<[^>]+>", " ", html.unescape(page_text(built / "en/contestations.html")))
    assert "i-007" in contest
    assert "Ambiguous wording." in contest


def test_no_network_references_that_load(built: Path) -> None:
    # canonical / alternate links are not fetched; scripts, images, styles and icons are
    loading = re.compile(
        r"<(?:script|img|iframe)[^>]+src=\"(https?:)?//"
        r"|<link[^>]+rel=\"(?:stylesheet|preload|modulepreload|icon)\"[^>]+href=\"(https?:)?//",
        re.I,
    )
    for page in built.rglob("*.html"):
        assert not loading.search(page_text(page)), page


def test_every_local_link_resolves(built: Path) -> None:
    reference = re.compile(r'(?:href|src)="([^"#?]*)[^"]*"')
    for page in built.rglob("*.html"):
        for target in reference.findall(page_text(page)):
            target = html.unescape(target)
            if not target or re.match(r"^[a-z]+:", target):
                continue
            base = built if target.startswith("/") else page.parent  # 404.html links from the root
            resolved = (base / target.lstrip("/")).resolve()
            assert resolved.exists(), f"{page.relative_to(built)} -> {target}"


def test_two_builds_are_byte_identical(tmp_path: Path, built: Path) -> None:
    second = build_tiny(built.parent, tmp_path / "again")
    comparison = filecmp.dircmp(built, second)

    def differences(c: filecmp.dircmp[str]) -> list[str]:
        found = c.diff_files + c.left_only + c.right_only + c.funny_files
        for sub in c.subdirs.values():
            found += differences(sub)
        return found

    assert differences(comparison) == []
    for path in built.rglob("*"):
        if path.is_file():
            other = second / path.relative_to(built)
            assert path.read_bytes() == other.read_bytes(), path


def broken_templates(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str) -> None:
    """Build with a copy of the page templates in which `name` holds `text`."""
    broken = tmp_path / "templates"
    shutil.copytree(pages.PAGE_TEMPLATES, broken)
    (broken / name).write_text(text, encoding="utf-8")
    monkeypatch.setattr(pages, "PAGE_TEMPLATES", broken)


def test_failed_build_leaves_previous_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = build_tiny(tmp_path)
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    broken_templates(tmp_path, monkeypatch, "ranking.md.j2", "{{ no_such_field }}\n")
    with pytest.raises(ReportgenError, match=r"'no_such_field' is undefined"):
        build_site(
            find_rounds(tmp_path / "rounds"),
            site,
            config_path=CONFIG,
            theme_dir=THEME,
            cache_dir=tmp_path / "cache",
        )
    after = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.iterdir() if "staging" in p.name] == []


def test_leak_is_refused_and_names_the_file(tmp_path: Path) -> None:
    parts = tiny_parts()
    secret = "o vizinho que mora no fim da rua sempre chega tarde em casa"
    items = tuple(
        replace(item, prompt=secret) if item.item_id == "i-002" else item for item in parts.items
    )
    # A stigma name that repeats a secret sentence is exactly the kind of leak to catch.
    stigmas = (replace(parts.stigmas[0], name_pt=secret), *parts.stigmas[1:])
    (tmp_path / "rounds").mkdir()
    write_parts(tmp_path / "rounds" / "tiny-round", replace(parts, items=items, stigmas=stigmas))
    with pytest.raises(
        LeakError,
        match=r"models/alfa-1\.html: contains \d+ run\(s\) of 8 consecutive words of "
        r"unpublished prompt\(s\) tiny-round/i-002",
    ):
        build_site(
            find_rounds(tmp_path / "rounds"),
            tmp_path / "site",
            config_path=CONFIG,
            theme_dir=THEME,
            cache_dir=tmp_path / "cache",
        )
    assert not (tmp_path / "site").exists()


def test_bad_config_names_file_and_key(tmp_path: Path) -> None:
    bad = tmp_path / "site.yml"
    bad.write_text(CONFIG.read_text(encoding="utf-8").replace("  doi:", "  doi_typo:"), "utf-8")
    rounds = tiny_rounds(tmp_path / "rounds")
    with pytest.raises(InputError, match=r"site\.yml: missing key 'article\.doi'"):
        build_site(rounds, tmp_path / "site", config_path=bad, theme_dir=THEME)
    assert not (tmp_path / "site").exists()


def test_config_link_that_could_break_out_is_refused(tmp_path: Path) -> None:
    bad = tmp_path / "site.yml"
    text = complete_config(tmp_path).read_text(encoding="utf-8")
    start = text.index('article_url: "') + len('article_url: "')
    end = text.index('"', start)
    bad.write_text(text[:start] + "https://x.org/a) <script>" + text[end:], "utf-8")
    rounds = tiny_rounds(tmp_path / "rounds")
    with pytest.raises(InputError, match=r"site\.yml: key 'article\.article_url' must be"):
        build_site(rounds, tmp_path / "site", config_path=bad, theme_dir=THEME)
    assert not (tmp_path / "site").exists()


def test_article_links_on_the_home_page(built: Path) -> None:
    """The repository's site.yml still tags its links !placeholder: a draft shows none
    (tests/test_site_claims.py builds complete metadata, links shown)."""
    config = CONFIG.read_text(encoding="utf-8")
    for language_root in (built, built / "en"):
        home = page_text(language_root / "index.html")
        for key in ("article_url", "repository_url"):
            start = config.index(f'{key}: !placeholder "') + len(f'{key}: !placeholder "')
            address = config[start : config.index('"', start)]
            assert address not in home, (language_root, key)


def test_refuses_to_replace_a_foreign_directory(tmp_path: Path) -> None:
    foreign = tmp_path / "precious"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(OutputExistsError):
        build_site(
            tiny_rounds(tmp_path / "rounds"),
            foreign,
            config_path=CONFIG,
            theme_dir=THEME,
        )
    assert (foreign / "notes.txt").read_text(encoding="utf-8") == "keep me"


def test_no_rounds_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="contains no round archive"):
        find_rounds(tmp_path)


def test_broken_template_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    broken_templates(tmp_path, monkeypatch, "data.md.j2", "line\n{{ no_such_name.x }}\n")
    with pytest.raises(TemplateRenderError, match=r"templates/data\.md\.j2, line 2"):
        build_site(
            tiny_rounds(tmp_path / "rounds"),
            tmp_path / "site",
            config_path=CONFIG,
            theme_dir=THEME,
            cache_dir=tmp_path / "cache",
        )
    assert not (tmp_path / "site").exists()


def test_invalid_archive_writes_nothing(tmp_path: Path) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")
    (rounds[0] / "models.csv").write_text("tampered\n", encoding="utf-8")
    with pytest.raises(ArchiveError, match=r"models\.csv"):
        build_site(rounds, tmp_path / "site", config_path=CONFIG, theme_dir=THEME)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rounds"]


def test_theme_folder_without_main_html_is_a_clear_error(tmp_path: Path) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")
    with pytest.raises(InputError, match=r"templates: not a theme overrides folder"):
        build_site(rounds, tmp_path / "site", config_path=CONFIG, theme_dir=THEME.parent)
    assert not (tmp_path / "site").exists()


def test_cli_build_and_serve_messages(tmp_path: Path) -> None:
    rounds = tiny_rounds(tmp_path / "rounds")
    runner = CliRunner()
    result = runner.invoke(
        main,
        ["build", str(rounds[0]), "--out", str(tmp_path / "out"), "--config", str(CONFIG),
         "--templates", str(THEME), "--cache-dir", str(tmp_path / "cache"), "--draft"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "built 1 round(s)" in result.output
    assert (tmp_path / "out" / "en" / "index.html").is_file()
    missing = runner.invoke(main, ["build", "--rounds-dir", str(tmp_path / "nowhere")])
    assert missing.exit_code == 1
    assert "no such directory of round archives" in missing.output
    assert "Traceback" not in missing.output
    serve = runner.invoke(main, ["serve", "--dir", str(tmp_path / "nowhere")])
    assert serve.exit_code == 1
    assert "no built site here" in serve.output


@pytest.mark.parametrize("case", ["single-model", "all-diagnostic"])
def test_edge_rounds_build(tmp_path: Path, case: str) -> None:
    (tmp_path / "rounds").mkdir()
    if case == "single-model":
        round_dir = make_round(tmp_path / "rounds", models=DEFAULT_MODELS[:1])
    else:
        round_dir = make_round(tmp_path / "rounds", labels=lambda _model, _item: "cant_tell")
    out = tmp_path / "site"
    build_site([round_dir], out, config_path=CONFIG, theme_dir=THEME,
               cache_dir=tmp_path / "cache")  # fmt: skip
    ranking = re.sub(r"<[^>]+>", " ", page_text(out / "en" / "ranking.html"))
    if case == "all-diagnostic":
        assert "No model of this round meets the eligibility rule" in ranking
    else:
        assert "Alfa 1" in ranking


@pytest.mark.slow
def test_demonstration_rounds_build(tmp_path_factory: pytest.TempPathFactory) -> None:
    # The run's shared build of the demonstration rounds (build_site, as the README's
    # `reportgen build` calls it): built once for every module that reads it.
    out = demo_site(tmp_path_factory)
    rounds = {p.name for p in (out / "data").iterdir() if p.is_dir()}
    assert rounds == {"estigmas-2026-06", "idje-avalia-2026-07"}
    for round_id in rounds:
        for name in (
            "models.csv",
            "stigmas.csv",
            "axes.csv",
            "results.json",
            "results.schema.json",
        ):
            assert (out / "data" / round_id / name).is_file()
    plain = {
        path: re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html.unescape(page_text(out / path))))
        for path in ("en/ranking.html", "en/continuous.html", "ranking.html")
    }
    # Some of the article's printed figures, as the site computes them from the archives.
    ranking = plain["en/ranking.html"]
    assert "N = 7,626 items; n = 2,542 with favorable evidence" in ranking
    assert "Sabiazinho-4 Maritaca 74.3% 25.7% 1.3% (99/7,626) 73.1% (1,858/2,542)" in ranking
    assert "N = 498 items" in plain["en/continuous.html"]
    assert "1 Muse Spark 1.1" in plain["en/continuous.html"]
    assert "Sabiazinho-4 Maritaca 74,3% 25,7% 1,3% (99/7.626)" in plain["ranking.html"]


def test_cli_build_with_a_relative_output_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `reportgen build` run from the repository writes to the relative folder `site`.
    rounds = tiny_rounds(tmp_path / "rounds")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(
        main,
        ["build", str(rounds[0]), "--out", "site", "--config", str(CONFIG),
         "--templates", str(THEME), "--cache-dir", str(tmp_path / "cache"), "--draft"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    for page in ("index.html", "en/index.html", "ranking.html", "en/ranking.html"):
        assert (tmp_path / "site" / page).is_file(), page
