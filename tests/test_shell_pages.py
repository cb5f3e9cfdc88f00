"""Pages filled into a shell (reportgen/render/shell_pages.py) are the pages MkDocs makes.

The Estigmas demonstration site is built again with every page through MkDocs
(`shells=False`) and compared with the shared build, file by file and byte for byte: the
pages, the search index and the sitemap. A small site of odd titles checks the title's places in the
frame (the window title, the header, Open Graph's attribute); the converter's own tests
check which pages it leaves to MkDocs.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import pytest
from mkdocs.structure.toc import TableOfContents

from reportgen.build import _stage, build_site
from reportgen.render import shell_convert, shell_pages
from reportgen.render.pages import announce, listening
from reportgen.render.shell_pages import PageConverter
from reportgen.render.siteconfig import load_build_config
from tests.factories import CONFIG, THEME, demonstration_rounds
from tests.support.shared_builds import (
    demonstration_site,
    run_folder,
)
from tests.support.site_compare import site_differences

MARKDOWN = (
    ["toc", "tables", "fenced_code", "attr_list", "admonition"],
    {"toc": {"permalink": True}},
)


# The Estigmas site only: the other kinds' demonstration sites have no folder of pages
# outside the navigation (their pages are all listed), so no shell is used there.
def test_the_demonstration_site_is_the_same_without_shells(
    tmp_path_factory: pytest.TempPathFactory, tmp_path: Path
) -> None:
    shelled = demonstration_site(tmp_path_factory, "estigmas")
    cache = run_folder(tmp_path_factory) / "demo-results-cache"
    rounds = demonstration_rounds(tmp_path)
    plain = tmp_path / "site"
    build_site(rounds, plain, config_path=CONFIG, theme_dir=THEME, cache_dir=cache, shells=False)
    only_one, changed = site_differences(shelled, plain)
    assert only_one == set()
    assert changed == []


class _OddTitles:
    """A site source of one navigation page and a folder of pages with odd titles."""

    nav = ("index.md",)
    nav_translations: dict[str, dict[str, str]] = {}  # noqa: RUF012 - read only
    source_date = date(2026, 7, 1)
    TITLES = (
        "Plain",
        "Quote \" and apostrophe '",
        "Ampersand & less-than < greater-than >",
        "&#40;entity&#41; kept",
        "<b>bold</b> markup",
        "عربي right to left \u202e reversed",
        "ＦＵＬＬＷＩＤＴＨ ｎａｍｅ",
        "RgShellPageTitle looks like the token",
    )

    def write_sources(self, pages_dir: Path, language: str) -> list[Path]:
        (pages_dir / "people").mkdir(parents=True, exist_ok=True)
        (pages_dir / "index.md").write_text("# Home\n\n[first](people/p0.md)\n", "utf-8")
        written = [pages_dir / "index.md"]
        for number, title in enumerate(self.TITLES):
            page = pages_dir / "people" / f"p{number}.md"
            quoted = title.replace("'", "''")
            body = f"---\ntitle: '{quoted}'\n---\n# {title}\n\n## Part {language}\n\ntext\n"
            # A carriage return (from data, say) reads back as a new line.
            text = body + "[home](../index.md) [next](p1.md#part)\rlast\r\nline\n"
            page.write_text(text, "utf-8")
            # Most pages are told as they are written, as the page writer tells them; one
            # is not, and one is told, then written again otherwise (another text of the
            # same length): both are read back.
            if number == 2:
                announce(page, text.replace("text", "TEXT"))
            elif number != 3:
                announce(page, text)
            written.append(page)
        return written

    def write_assets(self, pages_dir: Path, language: str) -> list[Path]:
        return []

    def write_downloads(self, site_dir: Path) -> list[Path]:
        return []


@pytest.mark.parametrize("workers", ["1", "2", "2 ahead"])
def test_odd_titles_are_placed_as_mkdocs_places_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: str
) -> None:
    """The same with the pages converted here and by two worker processes (in chunks of
    three, so that the order of the chunks counts), started by the first language or
    ahead of the build (as a build of many models starts them, and then converts each
    page as it is told; a page not told, or changed since, is read back)."""
    monkeypatch.setenv("REPORTGEN_DRAW_WORKERS", workers.split()[0])
    monkeypatch.setattr(shell_convert, "POOL_MIN", 1)
    monkeypatch.setattr(shell_convert, "CHUNK", 3)
    config = load_build_config(CONFIG, date(2026, 7, 1))
    taken: list[shell_pages.ShellGroup] = []

    groups = shell_convert.PageTaker.groups

    def noted(self: shell_convert.PageTaker) -> list[shell_pages.ShellGroup]:
        taken.extend(groups(self))
        return taken

    monkeypatch.setattr(shell_convert.PageTaker, "groups", noted)
    built = {}
    for shells in (True, False):
        staging = tmp_path / f"staging-{shells}"
        staging.mkdir()
        ahead = shell_convert.start_workers(2) if shells and "ahead" in workers else None
        try:
            built[shells] = _stage(
                _OddTitles(), config, THEME, staging, shells=shells, workers=ahead
            )
        finally:
            if ahead is not None:
                ahead.shutdown()
    # Every page of the folder in both languages came from the shell, none from MkDocs.
    assert sorted((g.language, len(g.pages)) for g in taken) == [("en", 8), ("pt-BR", 8)]
    only_one, changed = site_differences(built[True], built[False])
    assert only_one == set()
    assert changed == []
    page = (built[True] / "people" / "p5.html").read_text("utf-8")
    assert "\u202e reversed - " in page  # the window title, as MkDocs printed it


@pytest.fixture(scope="module")
def converter() -> PageConverter:
    return PageConverter(*MARKDOWN)


PAGES = frozenset({"index.md", "models/a.md", "models/b.md", "compare.md"})


def test_a_link_to_a_page_becomes_a_link_to_its_html(converter: PageConverter) -> None:
    source = "---\ntitle: A\n---\n# A\n\n[c](../compare.md?a=1&b=2#x) [b](b.md) [svg](x.svg)\n"
    page = converter.convert("models/a.md", source, PAGES)
    assert page is not None
    assert 'href="../compare.html?a=1&amp;b=2#x"' in page.content
    assert 'href="b.html"' in page.content
    assert 'href="x.svg"' in page.content


@pytest.mark.parametrize(
    ("relative", "source"),
    [
        ("models/a.md", "---\ntitle: A\n---\n# A\n\n[gone](../missing.md)\n"),
        ("models/a.md", "---\ntitle: A\n---\n# A\n\n[folder](../data/)\n"),
        ("models/a.md", "---\ntitle: A\n---\n# A\n\n[untidy](./b.html)\n"),
        ("models/a.md", "---\ntitle: A\n---\n# A\n\n[spaced](../a%20b.svg)\n"),
        ("models/a.md", "---\ntitle: A\nhide: [toc]\n---\n# A\n"),
        ("models/a.md", "# A without front matter\n"),
        ("models/a.md", "---\ntitle: A\n---\n## No first-level heading\n"),
        ("models/a b.md", "---\ntitle: A\n---\n# A\n"),
    ],
    ids=["missing page", "folder", "untidy", "quoted", "more meta", "no meta", "no h1", "stem"],
)
def test_pages_mkdocs_would_print_otherwise_are_left_to_it(
    converter: PageConverter, relative: str, source: str
) -> None:
    assert converter.convert(relative, source, PAGES) is None


def test_a_page_told_before_its_language_is_whole_keeps_its_links_checked(
    tmp_path: Path,
) -> None:
    """A page converted as it is written cannot know yet which pages its links name: it
    is taken only if they exist once its language is whole, else MkDocs prints it."""
    docs = tmp_path / "docs"
    converters = {language: PageConverter(*MARKDOWN) for language in ("pt-BR", "en")}
    folders = {"pt-BR": "", "en": "en/"}
    taker = shell_convert.PageTaker(docs, ["index.md"], converters, folders)
    sources = {
        "a": "[b](b.md)",
        "b": "[a](a.md) [later](later.md)",  # written after this page: exists
        "c": "[gone](gone.md)",  # never written: left to MkDocs
        "later": "[index](../index.md)",
    }
    with listening(taker.page_written):
        for language in ("pt-BR", "en"):
            (docs / language / "models").mkdir(parents=True)
            (docs / language / "index.md").write_text("# Home\n", "utf-8")
            for stem, body in sources.items():
                page = docs / language / "models" / f"{stem}.md"
                text = f"---\ntitle: {stem}\n---\n# {stem}\n\n{body}\n"
                page.write_text(text, "utf-8")
                announce(page, text)
            taker.add_language(language)
    groups = taker.groups()
    assert [(g.language, [p.stem for p in g.pages]) for g in groups] == [
        ("pt-BR", ["a", "b", "later"]),
        ("en", ["a", "b", "later"]),
    ]
    b_page = groups[0].pages[1]
    assert b_page.links == {"models/a.md", "models/later.md"}
    assert 'href="later.html"' in b_page.content


def test_the_converter_forgets_the_previous_page(converter: PageConverter) -> None:
    """One Markdown object converts every page: a heading's anchor is not numbered on."""
    first = converter.convert("models/a.md", "---\ntitle: A\n---\n# Same\n\n## Part\n", PAGES)
    second = converter.convert("models/b.md", "---\ntitle: B\n---\n# Same\n\n## Part\n", PAGES)
    assert first is not None
    assert second is not None
    assert first.content == second.content
    assert 'id="part"' in second.content


SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset>
    <url>
        <loc>https://example.org/a/models/rg-shell-page.html</loc>
    </url>
    <url>
        <loc>https://example.org/index.html</loc>
    </url>
    <url>
        <loc>https://example.org/models/rg-shell-page.html</loc>
    </url>
</urlset>
"""


def _group(folder: str, *stems: str) -> shell_pages.ShellGroup:
    pages = tuple(shell_pages.ShellPage(stem, stem, "", TableOfContents([])) for stem in stems)
    return shell_pages.ShellGroup("pt-BR", folder, pages)


def test_the_sitemap_lists_each_folder_s_pages_in_place_of_its_shell(tmp_path: Path) -> None:
    """A folder whose path ends in another's ("a/models", "models") keeps its own pages."""
    sitemap = tmp_path / "sitemap.xml"
    sitemap.write_text(SITEMAP, "utf-8")
    groups = [_group("models", "m1", "m2"), _group("a/models", "n1")]
    shell_pages._expand_sitemap(sitemap, groups)
    locations = re.findall(r"<loc>(.*)</loc>", sitemap.read_text("utf-8"))
    assert locations == [
        "https://example.org/a/models/n1.html",
        "https://example.org/index.html",
        "https://example.org/models/m1.html",
        "https://example.org/models/m2.html",
    ]
