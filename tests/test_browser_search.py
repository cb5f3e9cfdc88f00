"""Search in a real browser (Debian's Chromium via Playwright, localhost only): each language
searches its own index, so an English query lists English pages and a Portuguese one lists
Portuguese pages (issue 11, point 5). Before, both loaded one index of every page, and an
English search returned the Portuguese pages first.

The other browser tests walk pages without the search's documents
(tests/support/browser.py `keep_to_localhost`); the last test here shows that the page
they see is the reader's."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from tests.support.browser import (
    CHROMIUM,
    WAIT_MS,
    Served,
    keep_to_localhost,
    open_page,
    serve_directory,
)
from tests.support.shared_builds import tiny_site

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.is_file(), reason="Debian's chromium is not installed"),
]

playwright_sync = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from serve_directory(tiny_site(tmp_path_factory))


@pytest.fixture(scope="module")
def base_url(served: Served) -> str:
    return served.base


def search_results(browser: object, base_url: str, path: str, query: str) -> list[str]:
    """The addresses of the results Material's search lists for `query` on page `path`."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})  # type: ignore[attr-defined]
    keep_to_localhost(page, base_url)
    page.goto(base_url + path, wait_until="networkidle")
    field = page.locator("input.md-search__input")
    field.click()
    field.press_sequentially(query, delay=20)  # Material searches on key presses
    # The result count replaces the "type to start searching" line once the index answered.
    page.wait_for_function(
        "() => /\\d|No matching|Nenhum/.test("
        "document.querySelector('.md-search-result__meta')?.textContent || '')",
        timeout=WAIT_MS,
    )
    links = page.locator(".md-search-result__item > a")
    found = [links.nth(i).evaluate("a => a.href") for i in range(links.count())]
    page.close()
    return found


def test_english_search_lists_english_pages(browser: object, base_url: str) -> None:
    found = search_results(browser, base_url, "en/ranking.html", "Alfa")
    assert found
    assert all(url.startswith(base_url + "en/") for url in found), found


def test_portuguese_search_lists_portuguese_pages(browser: object, base_url: str) -> None:
    found = search_results(browser, base_url, "ranking.html", "Alfa")
    assert found
    assert not any(url.startswith(base_url + "en/") for url in found), found


def test_a_portuguese_word_finds_nothing_in_english(browser: object, base_url: str) -> None:
    """ "Classificação" titles the Portuguese ranking page; the English index has no such word."""
    assert search_results(browser, base_url, "ranking.html", "Classificação")
    assert search_results(browser, base_url, "en/ranking.html", "Classificação") == []


# The search box's status line, as the built page has it before the search is ready.
_STATUS = re.compile(r'class="md-search-result__meta">\s*([^<]*?)\s*<')


@pytest.mark.parametrize("path", ["ranking.html", "en/models/alfa-1.html"])
def test_a_walk_without_the_search_documents_sees_the_readers_page(
    browser: object, served: Served, path: str
) -> None:
    """Once the search is ready ("type to start searching" in place of "initializing"), the
    page with its search index and the page a walk opens, with an index of no documents,
    are the same document."""
    found = _STATUS.search((served.root / path).read_text(encoding="utf-8"))
    assert found is not None
    documents = []
    for search in (True, False):
        page = open_page(browser, served, path, search=search)
        page.wait_for_function(
            "initial => { const status = document.querySelector('.md-search-result__meta');"
            " return status !== null && status.textContent.trim() !== initial; }",
            arg=found.group(1),
            timeout=WAIT_MS,
        )
        documents.append(page.evaluate("document.documentElement.outerHTML"))
        page.close()
    assert documents[0] == documents[1]
