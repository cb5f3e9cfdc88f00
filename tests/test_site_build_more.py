"""The build, issue 11: 404 pages per language, checksums of the downloads, big tables out
of the search index (and out of Markdown, for speed), cached number formatting, the leak
guard's fast path, and an output folder that cannot be written."""

from __future__ import annotations

import filecmp
import hashlib
import html
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from markupsafe import Markup

from reportgen.build import build_site
from reportgen.cli import main
from reportgen.guard import RUN_LENGTH, GuardMaterial, SecretIndex, runs
from reportgen.i18n import Translator
from reportgen.kinds.estigmas.render import pages
from reportgen.render import deferred
from tests.factories import CONFIG, THEME, build_tiny, tiny_rounds
from tests.support.shared_builds import tiny_site


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tiny_site(tmp_path_factory)


def text_of(path: Path) -> str:
    return path.read_text(encoding="utf-8")


# 404 pages (point 6)


@pytest.mark.parametrize(
    ("page", "language", "title"),
    [("404.html", "pt", "Página não encontrada"), ("en/404.html", "en", "Page not found")],
)
def test_each_language_has_its_own_404_page(
    built: Path, page: str, language: str, title: str
) -> None:
    source = text_of(built / page)
    assert f'<html lang="{language}' in source
    assert f"<h1>{title}</h1>" in source
    # Language links lead to the other language's 404 page, absolute (a 404 page is
    # served at whatever address was missing), never to some page built before it.
    found = re.findall(r'<a href="([^"]+)" hreflang="([^"]+)"', source)
    links = {lang: href for href, lang in found}
    assert links == {"pt-BR": "/404.html", "en": "/en/404.html"}
    home = "/index.html" if language == "pt" else "/en/index.html"
    assert f'<a href="{home}">' in source


# Checksums of the downloads (point 12)


def test_sha256sums_lists_every_download_as_served(built: Path) -> None:
    for folder in sorted((built / "data").iterdir()):
        lines = text_of(folder / "SHA256SUMS").splitlines()
        listed = {name: digest for digest, name in (line.split("  ", 1) for line in lines)}
        served = sorted(p.name for p in folder.iterdir() if p.name != "SHA256SUMS")
        assert sorted(listed) == served
        for name, digest in listed.items():
            assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == digest, name


@pytest.mark.parametrize("page", ["data.html", "en/data.html"])
def test_data_page_shows_the_downloads_digests_and_labels_the_archives(
    built: Path, page: str
) -> None:
    source = text_of(built / page)
    for folder in sorted((built / "data").iterdir()):
        round_id = folder.name
        table = source[source.index(f'id="download-checksums-{round_id}"') :]
        table = table[: table.index("</table>")]
        for line in text_of(folder / "SHA256SUMS").splitlines():
            digest, name = line.split("  ", 1)
            assert name in table, (round_id, name)
            assert digest in table, (round_id, name)
        # The archive's own checksums are still there, under a caption that says so.
        archive = source[source.index(f'id="checksums-{round_id}"') :]
        caption = html.unescape(archive[: archive.index("</caption>")])
        assert "SHA256SUMS" in caption
        assert ("arquivo congelado" if page == "data.html" else "round archive") in caption
        assert f"data/{round_id}/SHA256SUMS" in source  # linked with the other downloads


# Big tables out of the search index, and out of Markdown (points 5 and 16)


def table_cells(page: str, table_id: str, *, only_there: bool = True) -> list[str]:
    """The text cells (12 characters or more) of one table (that the page shows only there)."""
    table = page[page.index(f'id="{table_id}"') :]
    cells = re.findall(r"<td[^>]*>([^<]{12,})</td>", table[: table.index("</table>")])
    return [html.unescape(c) for c in cells if not only_there or page.count(c) == 1]


def indexed_text(built: Path, location_part: str) -> str:
    # Each language has its own index: English pages are in en/search/.
    english = location_part.startswith("en/")
    folder = built / "en" if english else built
    index = json.loads(text_of(folder / "search" / "search_index.json"))
    # Locations in a language's own index are relative to that language's root.
    part = location_part.removeprefix("en/")
    entries = [d for d in index["docs"] if d["location"].startswith(part)]
    assert entries, f"{location_part} is indexed"
    return html.unescape(" ".join(d["title"] + " " + d["text"] for d in entries))


def test_big_tables_and_chart_data_stay_out_of_the_search_index(built: Path) -> None:
    data_page = text_of(built / "en" / "data.html")
    dictionary = table_cells(data_page, "dictionary")  # 40 rows: big
    table = data_page[data_page.index('id="dictionary"') :]
    assert table[: table.index("</table>")].count("<tr") > pages.BIG_TABLE_ROWS + 1
    assert len(dictionary) > 5
    indexed = indexed_text(built, "en/data.html")
    assert [c for c in dictionary if c in indexed] == []
    model_page = text_of(built / "en" / "models" / "alfa-1.html")
    # The chart (its description, its data table, its spec) stays out of the index: every
    # text of the figure that the page prints nowhere else is absent from it.
    figure = model_page.index('id="style-tiny-round-alfa-1"')
    end = model_page.index("</figure>", figure)
    outside = model_page[:figure] + model_page[end:]
    chart_data = [
        html.unescape(t)
        for t in re.findall(r">([^<]{12,})<", model_page[figure:end])
        if t not in outside and t.strip()
    ]
    assert chart_data
    indexed = indexed_text(built, "en/models/alfa-1.html")
    assert [c for c in chart_data if c in indexed] == []
    # A short table (the evaluation's metadata) stays searchable.
    assert [c for c in table_cells(model_page, "metadata-alfa-1") if c in indexed] != []


def test_no_placeholder_is_left_in_the_site(built: Path) -> None:
    for path in built.rglob("*.html"):
        assert "data-rg-deferred" not in text_of(path), path


def test_deferring_blocks_changes_no_published_page(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every block inline, as before (a slot names a block only while a build collects).
    monkeypatch.setattr(pages, "defer", lambda block, slot=None: Markup(block))
    inline = build_tiny(tmp_path)
    compared = [p.relative_to(built) for p in built.rglob("*") if p.is_file()]
    different = [
        str(p)
        for p in compared
        if "search" not in p.parts[:2] and not filecmp.cmp(built / p, inline / p, shallow=False)
    ]
    assert different == []
    # ...and the big table stays out of the index (big tables also carry
    # data-search-exclude, so the inline build leaves it out too).
    dictionary = table_cells(text_of(built / "en" / "data.html"), "dictionary")
    assert dictionary
    assert [c for c in dictionary if c in indexed_text(built, "en/data.html")] == []


def test_defer_outside_a_build_returns_the_block() -> None:
    assert deferred.defer("<table></table>") == "<table></table>"
    with deferred.collecting() as blocks:
        placeholder = deferred.defer("<table></table>")
        assert placeholder != "<table></table>"
        assert deferred.restore(f"<p>{placeholder}</p>") == "<p><table></table></p>"
    assert list(blocks.values()) == ["<table></table>"]
    with pytest.raises(deferred.DeferredBlockError):
        deferred.restore(str(placeholder))


# Number formatting is cached (point 16)


def test_number_formatting_is_cached_and_keeps_the_sign_of_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from babel.numbers import NumberPattern

    calls: list[object] = []
    original = NumberPattern.apply

    def counting(self: NumberPattern, value: float, *args: Any, **kwargs: Any) -> str:
        calls.append(value)
        return str(original(self, value, *args, **kwargs))

    monkeypatch.setattr(NumberPattern, "apply", counting)
    tr = Translator("pt-BR")
    value = 0.123456789012345  # a value no other test formats
    first = [tr.percent(value) for _ in range(50)]
    assert first == ["12,3%"] * 50
    assert len(calls) == 1
    assert tr.decimal(-0.0) == "\u22120,00"  # the sign of zero is kept, as a minus sign
    assert tr.decimal(0.0) == "0,00"
    assert Translator("en").percent(value) == "12.3%"


# The leak guard's fast path (point 16)


def test_leaked_runs_equals_runs_intersected_with_the_secret_ones() -> None:
    rng = random.Random(11)
    vocabulary = [f"w{i}" for i in range(30)] + ["<td>", "0,5", "ação"]
    secrets = tuple(
        (f"s{i}", " ".join(rng.choice(vocabulary) for _ in range(40))) for i in range(5)
    )
    index = SecretIndex.from_material(
        [GuardMaterial("r", secrets, public_texts=(), canaries=(), names=())]
    )
    for _ in range(200):
        words = [rng.choice([*vocabulary, "other", "x"]) for _ in range(rng.randint(0, 60))]
        if rng.random() < 0.5:  # splice a secret passage in
            source = secrets[rng.randrange(5)][1].split()
            start = rng.randrange(len(source) - RUN_LENGTH)
            words[0:0] = source[start : start + RUN_LENGTH + rng.randint(0, 4)]
        text = " ".join(words)
        assert index.leaked_runs(text) == runs(text) & index.secret_runs, text


# An output folder that cannot be written (point 17)


def cli_build(tmp_path: Path, out: Path) -> tuple[int, str]:
    rounds = tiny_rounds(tmp_path / "rounds")
    result = CliRunner().invoke(
        main,
        # --draft: the small round's 200 bootstrap replicates are a draft's.
        ["build", str(rounds[0]), "--out", str(out), "--config", str(CONFIG),
         "--templates", str(THEME), "--cache-dir", str(tmp_path / "cache"), "--draft"],
    )  # fmt: skip
    return result.exit_code, result.output


def test_output_under_a_file_fails_with_one_line(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    code, output = cli_build(tmp_path, blocker / "site")
    assert code == 1
    reason = f"({blocker} is a file, not a folder)"
    assert output.strip().splitlines() == [
        f"Error: {blocker / 'site'}: cannot write the site there {reason}"
    ]
    assert blocker.read_text(encoding="utf-8") == "not a folder"


def test_output_that_is_a_file_fails_with_one_line(tmp_path: Path) -> None:
    existing = tmp_path / "site.html"
    existing.write_text("keep", encoding="utf-8")
    code, output = cli_build(tmp_path, existing)
    assert code == 1
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith(f"Error: {existing}: ")
    assert existing.read_text(encoding="utf-8") == "keep"


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs a /proc that refuses folders")
def test_output_in_an_unwritable_place_fails_with_one_line(tmp_path: Path) -> None:
    code, output = cli_build(tmp_path, Path("/proc/reportgen-site"))
    assert code == 1
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("Error: /proc/reportgen-site: cannot write the site there (")
    assert "staging" not in lines[0]


def test_bad_output_fails_before_the_rounds_are_read(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("", encoding="utf-8")
    with pytest.raises(Exception, match="is a file, not a folder"):
        # A round folder that does not exist: reading it would raise a different error.
        build_site([tmp_path / "no-round"], blocker / "site", config_path=CONFIG, theme_dir=THEME)
