"""What the browser tests share: a built site served on localhost (the demonstration site
among them), Debian's Chromium through Playwright, pages opened with every request that
leaves localhost blocked.

The demonstration site is built once per test session (the first module that asks builds it
under pytest's base temporary folder; the next one finds it there).
"""

from __future__ import annotations

import functools
import http.server
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from filelock import FileLock

from reportgen.build import build_site
from tests.factories import CONFIG, PAGES, THEME, demonstration_rounds
from tests.support.shared_builds import run_folder

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


def demo_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demonstration site, built on the test run's first call.

    Parallel workers (pytest-xdist) each have their own temporary folder under a shared
    one: the site is built there once, under a file lock, and the other workers wait for
    it rather than build it again."""
    work = run_folder(tmp_path_factory) / "browser-demo-site"
    site = work / "site"
    work.mkdir(parents=True, exist_ok=True)
    with FileLock(work.with_suffix(".lock")):
        if not (site / "index.html").is_file():
            _build_demo_site(work, site)
    return site


def _build_demo_site(work: Path, site: Path) -> None:
    (work / "rounds").mkdir(parents=True, exist_ok=True)
    build_site(
        demonstration_rounds(work),
        site,
        config_path=CONFIG,
        theme_dir=THEME,
        cache_dir=work / "cache",
    )


def site_pages(root: Path, prefixes: tuple[str, ...] = LANGUAGE_PREFIXES) -> list[str]:
    """Every kind of page of the site in these languages (a 404 page where the site has one)."""
    paths = []
    for prefix in prefixes:
        paths += [f"{prefix}{stem}.html" for stem in (*PAGES, *MODEL_PAGES)]
        if (root / prefix / "404.html").is_file():
            paths.append(f"{prefix}404.html")
    return paths


@contextmanager
def launched_chromium(*, expect_timeout_ms: int | None = None) -> Iterator[Browser]:
    """Debian's Chromium (not one Playwright downloads), closed when the block ends.

    `expect_timeout_ms` lengthens how long Playwright's `expect` waits (5 s by default)
    while the block runs, for pages that take longer to reach the state a test waits for."""
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        if expect_timeout_ms is not None:
            expect.set_options(timeout=expect_timeout_ms)
        try:
            yield browser
        finally:
            if expect_timeout_ms is not None:
                expect.set_options(timeout=5_000)
            browser.close()


def keep_to_localhost(page: Page, base: str, blocked: list[str] | None = None) -> None:
    """Let `page` load what `base` serves and data: URLs only; every other request is
    aborted, and its address added to `blocked` when given (tests expect none)."""

    def route(route: Route) -> None:
        url = route.request.url
        if url.startswith((base, "data:")):
            route.continue_()
        else:
            if blocked is not None:
                blocked.append(url)
            route.abort()

    page.route("**/*", route)


def open_page(browser: Any, served: Served, path: str, viewport: dict[str, int] = DESKTOP) -> Any:
    """A new page at `path`, loaded, its live charts drawn; requests off localhost blocked."""
    page = browser.new_page(viewport=viewport)
    keep_to_localhost(page, served.base, served.blocked)
    page.goto(served.base + path, wait_until="load")
    page.wait_for_load_state("networkidle")
    charts = page.locator(".rg-vega").count()
    if charts:
        page.wait_for_function(
            f"document.querySelectorAll('.rg-vega[data-rendered=\"true\"] svg').length >= {charts}",
            timeout=15000,
        )
    return page
