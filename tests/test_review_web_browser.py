"""The session cookie in a real browser (issue 23, point 8): after logging in through the
form, no script, on the app's page or on a page served from another port of the same host,
can read the token; the token replayed from another browser opens nothing; logging out
deletes the cookie."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from review_app.core.auth import add_account
from review_app.core.web import SESSION_COOKIE
from tests.review.helpers import PASSWORD, new_database
from tests.support.browser import CHROMIUM, launched_chromium, serve_directory
from tests.support.review_server import served_review_app

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture
def address(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_account(engine, "ana", "reviewer", PASSWORD)
    engine.dispose()
    with served_review_app(url, tmp_path) as served:
        yield served


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_no_page_script_reads_the_session_token(address: str, tmp_path: Path) -> None:
    from playwright.sync_api import expect

    other_site = tmp_path / "other"
    other_site.mkdir()
    (other_site / "index.html").write_text("<!doctype html><title>other</title>", "utf-8")
    with launched_chromium() as browser, contextmanager(serve_directory)(other_site) as other:
        context = browser.new_context()
        page = context.new_page()
        page.set_default_timeout(60_000)
        page.goto(address)
        page.get_by_label("Nome").fill("ana")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        expect(page.get_by_text("Conectado como ana")).to_be_visible()
        [cookie] = [c for c in context.cookies() if c["name"] == SESSION_COOKIE]
        assert cookie["httpOnly"] is True
        assert cookie["sameSite"] == "Strict"
        token = cookie["value"]
        assert token not in page.evaluate("document.cookie")
        # A page on another port of the same host shares the host's cookies, but not
        # an HttpOnly one with its scripts.
        stranger = context.new_page()
        stranger.goto(other.base)
        assert other.base.split(":")[2] != address.split(":")[2]
        assert token not in stranger.evaluate("document.cookie")
        # The token replayed from another browser (another User-Agent) opens nothing.
        thief = browser.new_context(user_agent="Mozilla/5.0 Another browser")
        thief.add_cookies(
            [{"name": SESSION_COOKIE, "value": token, "url": address, "httpOnly": True}]
        )
        stolen = thief.new_page()
        stolen.set_default_timeout(60_000)
        stolen.goto(address)
        expect(stolen.get_by_label("Senha")).to_be_visible()
        expect(stolen.get_by_text(re.compile("sessão expirou"))).to_be_visible()
        thief.close()
        # Logging out deletes the cookie and shows the login form.
        page.get_by_role("button", name="Sair").click()
        expect(page.get_by_label("Senha")).to_be_visible()
        assert not [c for c in context.cookies() if c["name"] == SESSION_COOKIE]
