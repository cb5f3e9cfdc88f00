"""One real-browser session: Debian's Chromium (Playwright) against `reportgen review serve`.

A reviewer logs in, judges three samples with the keyboard and sees the progress move,
while no model or provider name of the round appears anywhere on the page.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from review_app.rounds.sampling import create_batch
from tests.factories import memory_review_round, review_model_names
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all
from tests.support.browser import CHROMIUM, launched_chromium
from tests.support.review_server import served_review_app
from tests.support.streamlit_page import wait_until_idle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_and_login(engine, "ana")
    add_and_login(engine, "bruno")
    create_batch(
        engine,
        memory_review_round(tmp_path / "r-demo"),
        fraction=0.2,
        min_per_stratum=1,
        overlap=2,
        seed=9,
    )
    release_all(engine)
    engine.dispose()
    with served_review_app(url, tmp_path) as address:
        yield address


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_reviewer_judges_three_samples_with_the_keyboard(server: str) -> None:
    from playwright.sync_api import expect

    with launched_chromium() as browser:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        page.goto(server)
        page.get_by_label("Nome").fill("ana")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        # Streamlit may briefly keep the previous run's element beside the new one
        # while it reruns: wait for the text itself, not for a single element.
        expect(page.get_by_text("0 de 24 julgadas").first).to_be_visible()
        for done, key in enumerate(["1", "2", "3"], 1):
            # A key sent while the last judgment's run is still under way can be lost
            # (the flaky failure of this test): wait until the page is at rest.
            wait_until_idle(page)
            code = page.get_by_role("heading", name=re.compile("Amostra SISTEMA-")).inner_text()
            # Keys go to the page, not to a text field.
            page.get_by_role("heading", name=re.compile("Amostra SISTEMA-")).click()
            page.keyboard.press(key)
            expect(page.get_by_text(f"{done} de 24 julgadas").first).to_be_visible()
            expect(page.get_by_role("heading", name=re.compile("Amostra"))).not_to_have_text(code)
        html = page.content().lower()
        text = page.inner_text("body").lower()
        for name in review_model_names():
            assert name.lower() not in html, name
            assert name.lower() not in text, name
