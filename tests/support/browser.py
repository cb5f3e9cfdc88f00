"""What the browser tests share: a built site served on localhost (the demonstration site
among them), Debian's Chromium through Playwright, pages opened with every request that
leaves localhost blocked.

The demonstration site is built once per test run and shared (tests/support/shared_builds.py).
"""

from __future__ import annotations

import functools
import http.server
import json
import threading
import weakref
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests.factories import PAGES
from tests.support.shared_builds import demo_site as demo_site

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Route

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
LANGUAGE_PREFIXES = ("", "en/")  # pt-BR at the root, English under en/
# One model page per round kind: a full round's diagnostic case and a continuous round's model.
MODEL_PAGES = ("models/sabiazinho-4", "models/idje-avalia-2026-07/muse-spark-1-1")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@dataclass
class Served:
    base: str
    root: Path
    blocked: list[str] = field(default_factory=list)


def serve_directory(site: Path) -> Iterator[Served]:
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Served(f"http://127.0.0.1:{server.server_address[1]}/", site)
    finally:
        server.shutdown()
        server.server_close()


def site_pages(root: Path, prefixes: tuple[str, ...] = LANGUAGE_PREFIXES) -> list[str]:
    """Every kind of page of the site in these languages (a 404 page where the site has one)."""
    paths = []
    for prefix in prefixes:
        paths += [f"{prefix}{stem}.html" for stem in (*PAGES, *MODEL_PAGES)]
        if (root / prefix / "404.html").is_file():
            paths.append(f"{prefix}404.html")
    return paths


# How long Playwright's `expect` waits for a state (its own default is 5 s). It returns as
# soon as the state holds, so a long wait costs nothing on a fast machine; on a loaded one a
# login or a rerun of a Streamlit script took longer than 5 s and failed a correct test.
EXPECT_TIMEOUT_MS = 60_000
# The same bound for the waits a test writes itself (`wait_for_function`, `wait_for`):
# a hang guard, never a speed bound.
WAIT_MS = 60_000


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Iterator[Browser]:
    """One Chromium for the tests of a module (tests/conftest.py makes it every module's
    fixture), launched by its first test that asks and closed after its last. A module whose
    pages take longer to reach a state sets `EXPECT_TIMEOUT_MS` at its top."""
    timeout = getattr(request.module, "EXPECT_TIMEOUT_MS", EXPECT_TIMEOUT_MS)
    with launched_chromium(expect_timeout_ms=timeout) as chromium:
        yield chromium


@contextmanager
def launched_chromium(*, expect_timeout_ms: int = EXPECT_TIMEOUT_MS) -> Iterator[Browser]:
    """Debian's Chromium (not one Playwright downloads), closed when the block ends;
    Playwright's `expect` waits up to `expect_timeout_ms` for a state while the block runs."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        expect.set_options(timeout=expect_timeout_ms)
        try:
            yield browser
        finally:
            expect.set_options(timeout=5_000)
            browser.close()


def keep_to_localhost(
    page: Page, base: str, blocked: list[str] | None = None, *, root: Path | None = None
) -> None:
    """Let `page` load what `base` serves and data: URLs only; every other request is
    aborted, and its address added to `blocked` when given (tests expect none).

    With `root` (the served folder), the search index is answered with the site's own
    search configuration and no documents (`empty_search_index`): for walks that test
    no search."""

    def route(route: Route) -> None:
        url = route.request.url
        if root is not None and url.startswith(base) and url.endswith(SEARCH_INDEX):
            route.fulfill(
                body=empty_search_index(root / url[len(base) :]), content_type="application/json"
            )
        elif url.startswith((base, "data:")):
            route.continue_()
        else:
            if blocked is not None:
                blocked.append(url)
            route.abort()

    page.route("**/*", route)


# Material's search worker fetches the language's index and builds a lunr index of every
# page from it at each page load, before anyone searches: on the multidomain example site
# (a 1.1 MB index) that was about half of Chromium's CPU in a walk of its 32 report pages
# (22 against 12 CPU s, `perf stat`, 2026-12-03). A walk that tests no search (axe, the
# layout, the widths) gets an index with the site's configuration and no document: the
# worker starts and answers as usual, and nothing on the page differs until someone
# searches. The search itself, and every page's own index loading without an error, are
# test_browser_search.py's, test_browser_axe.py's search dialog and test_browser_site.py's.
SEARCH_INDEX = "/search/search_index.json"


@functools.cache
def empty_search_index(index: Path) -> bytes:
    """The search index at `index` without its documents (its `config` kept)."""
    config = json.loads(index.read_text(encoding="utf-8"))["config"]
    return json.dumps({"config": config, "docs": []}).encode()


def open_page(
    browser: Any,
    served: Served,
    path: str,
    viewport: dict[str, int] = DESKTOP,
    *,
    search: bool = False,
) -> Any:
    """A page at `path`, loaded, its live charts drawn; requests off localhost blocked;
    the search's documents left out unless `search` (`keep_to_localhost`: a test of the
    search asks for them).

    The page is lent (`LentPage`): its `close()` gives it back to the browser for the next
    `open_page` of the same site, which navigates it instead of opening a new one. A new
    page costs Chromium about 0.7 CPU s more than a navigation (`one_page`)."""
    key = (served.base, search)
    idle = _IDLE_PAGES.setdefault(browser, {}).setdefault(key, [])
    if idle:
        page = idle.pop()
        page.set_viewport_size(viewport)
    else:
        page = browser.new_page(viewport=viewport)
        keep_to_localhost(page, served.base, served.blocked, root=None if search else served.root)
    # The site's script (assets/rg/site.js) runs at DOMContentLoaded: tables and the
    # comparison are set up before "load"; only the charts finish later, and each marks
    # itself rendered. No "networkidle": it waits for 500 ms of quiet, on every page, and
    # reads nothing the page shows (test_browser_site.py keeps it as its check that no
    # page asks for anything off localhost, late requests included).
    visit(page, served, path)
    return LentPage(page, idle)


# The pages given back, by browser, then by site and search (`open_page`).
_IDLE_PAGES: weakref.WeakKeyDictionary[Any, dict[tuple[str, bool], list[Any]]] = (
    weakref.WeakKeyDictionary()
)


class LentPage:
    """A Playwright page lent by `open_page`; everything but `close` is the page's own.

    `close()` gives it back as a new page would be: the site's storage cleared and the
    page on about:blank, so the next test's navigation loads a new document (even to the
    same address) with nothing of this one's. A test that adds listeners or other state to
    its page opens a page of its own (`browser.new_page`) instead."""

    def __init__(self, page: Any, idle: list[Any]) -> None:
        self._page = page
        self._idle = idle

    def __getattr__(self, name: str) -> Any:
        return getattr(self._page, name)

    def close(self) -> None:
        self._page.evaluate("() => { localStorage.clear(); sessionStorage.clear(); }")
        self._page.goto("about:blank")
        self._idle.append(self._page)


@contextmanager
def one_page(
    browser: Any, served: Served, viewport: dict[str, int] = DESKTOP, *, search: bool = False
) -> Iterator[Any]:
    """One page, requests off localhost blocked, for a walk over many paths (`visit` each);
    the search's documents left out unless `search` (`keep_to_localhost`).

    A new page for every path costs Chromium about a CPU second more per path: 18 loads of
    the counterfactual example site took 30-33 CPU s with a new page each and 14 with one
    page on an idle machine (Debian's Chromium 156, `perf stat` over the whole browser,
    2026-12-03; more under load), whatever the renderer-process flags. A navigation starts a
    new document, so nothing of one path's page (scripts, axe) is left on the next; only the
    origin's storage is kept, as a reader's browser keeps it."""
    page = browser.new_page(viewport=viewport)
    keep_to_localhost(page, served.base, served.blocked, root=None if search else served.root)
    try:
        yield page
    finally:
        page.close()


def visit(page: Any, served: Served, path: str) -> None:
    """`page` (requests already kept to localhost) at `path`, loaded, its charts drawn."""
    page.goto(served.base + path, wait_until="load")
    charts = page.locator(".rg-vega").count()
    if charts:
        page.wait_for_function(
            f"document.querySelectorAll('.rg-vega[data-rendered=\"true\"] svg').length >= {charts}",
            timeout=WAIT_MS,
        )
