"""The reviewer's rubric page in a real browser (Debian's Chromium, Playwright), on the
tiny multidomain round, in both languages: scored by keyboard alone, its Chinese
statement and answer marked `lang="zh"`, no serious or critical axe-core violation at
390 px and 1280 px, and no participant or judge named in its DOM."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from reportgen.kinds.multidomain.model import Round
from review_app.core.auth import add_account
from review_app.core.db import assignments, make_engine, samples
from review_app.i18n import translate
from review_app.tasks.rubric_scores import rubric_scores
from tests.review.helpers import PASSWORD, new_database
from tests.review.md_walk import leaks
from tests.review.rubric import rubric_batch, tiny_round
from tests.support.browser import CHROMIUM, DESKTOP, PHONE
from tests.support.review_server import served_review_app
from tests.support.streamlit_page import tab_into, wait_for_window_flag, wait_until_idle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING = ("serious", "critical")
RUN_AXE = """async () => {
  const results = await axe.run(document, {resultTypes: ['violations']});
  return results.violations.map(v =>
    `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')}`);
}"""
FOCUSED = (
    "() => { const e = document.activeElement;"
    " return e ? [e.tagName, e.getAttribute('type') || '', e.innerText || ''] : []; }"
)
REVIEWER = {"pt-BR": "ana", "en": "bob"}  # each scores every audited response
SCORES = (4, 0)  # correctness by arrows from nothing, clarity by Space


@dataclass(frozen=True)
class Served:
    address: str
    engine: Engine
    round_: Round


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    folder = tmp_path_factory.mktemp("rubric-browser")
    url = f"sqlite:///{folder / 'review.db'}"
    engine = new_database(url)
    for language, name in REVIEWER.items():
        add_account(engine, name, "reviewer", PASSWORD, language=language)
    round_ = tiny_round(folder / "tiny")
    rubric_batch(engine, round_, "audit", list(REVIEWER.values()), overlap=2)
    with engine.begin() as connection:  # the Chinese item (i7) first in every queue
        zh = select(samples.c.sample_id).where(samples.c.language == "zh")
        connection.execute(
            update(assignments)
            .where(assignments.c.sample_id.in_(zh))
            .values(position=assignments.c.position - 100)
        )
    engine.dispose()
    reader = make_engine(url)
    try:
        with served_review_app(url, folder) as address:
            yield Served(address, reader, round_)
    finally:
        reader.dispose()


@pytest.fixture(scope="module")
def browser(served: Served, browser: Any) -> Any:
    """The shared module browser (tests/support/browser.py), launched after the app serves."""
    return browser


def _rubric_page(browser: Any, served: Served, language: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(60_000)
    page.goto(served.address)
    page.get_by_label("Nome").fill(REVIEWER[language])
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    submit = page.get_by_role("button", name=translate(language, "rubric_submit"))
    playwright_sync.expect(submit).to_be_visible()
    # The login ends in a fresh page load (the server sets the cookie): wait until the
    # page's components have run, which is when the document takes the page's language.
    playwright_sync.expect(page.locator("html")).to_have_attribute("lang", language)
    # Keys typed before the run ends, or before the digit listener is installed, are lost:
    # the cause of a flaky keyboard test, fixed by waiting for both states the page shows.
    wait_until_idle(page)
    wait_for_window_flag(page, "reportgenRubricDigits")
    return page


def _code_on(page: Any) -> str:
    heading = page.get_by_role("heading", name=re.compile("SISTEMA-")).first.inner_text()
    found = re.search(r"SISTEMA-[A-Z0-9]+", heading)
    assert found is not None, heading
    return found.group()


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390px", "1280px"])
@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_rubric_page_is_accessible_and_marks_chinese(
    served: Served, browser: Any, language: str, viewport: dict[str, int]
) -> None:
    page = _rubric_page(browser, served, language, viewport)
    code = _code_on(page)
    # The statement and the answer, each in its box, in an element of their language.
    for box in (f".st-key-st_{code}", f".st-key-an_{code}"):
        chinese = page.locator(f'{box} [lang="zh"]')
        playwright_sync.expect(chinese).to_have_count(1)
        assert re.search(r"[\u4e00-\u9fff]", chinese.inner_text())
    assert page.locator("html").get_attribute("lang") == language
    page.add_script_tag(path=str(AXE))
    violations: list[str] = page.evaluate(RUN_AXE)
    blocking = [v for v in violations if re.match(rf"\S+ \(({'|'.join(BLOCKING)})\)", v)]
    assert blocking == [], blocking
    page.close()


def _gone(page: Any, code: str) -> None:
    """Wait until sample `code` has left the screen (Streamlit may show the last run's
    elements beside the new ones for a moment)."""
    shown = page.get_by_role("heading", name=re.compile(re.escape(code)))
    playwright_sync.expect(shown).to_have_count(0)


def _checked(page: Any, code: str, criterion_id: str) -> Any:
    return page.locator(f".st-key-score_{code}_{criterion_id} input[type=radio]:checked")


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_rubric_is_scored_by_keyboard_alone(
    served: Served, browser: Any, language: str
) -> None:
    page = _rubric_page(browser, served, language, DESKTOP)
    code = _code_on(page)
    page.get_by_role("heading", name=re.compile(code)).click()  # the keys go to the page
    tab_into(page, f".st-key-score_{code}_correcao")  # past the note, to correctness
    assert page.evaluate(FOCUSED)[:2] == ["INPUT", "radio"]
    page.keyboard.press("4")  # a digit picks the score
    playwright_sync.expect(_checked(page, code, "correcao")).to_have_count(1)
    assert (
        _checked(page, code, "correcao").locator("xpath=ancestor::label").inner_text().strip()
        == "4"
    )
    page.keyboard.press("Tab")  # clarity: from nothing, each right arrow moves one up
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    playwright_sync.expect(_checked(page, code, "clareza")).to_have_count(1)
    assert (
        _checked(page, code, "clareza").locator("xpath=ancestor::label").inner_text().strip() == "2"
    )
    assert code in _code_on(page)  # neither key left the sample
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)[2].strip() == translate(language, "rubric_submit")
    page.keyboard.press("Enter")
    _gone(page, code)  # on to the next sample
    with served.engine.connect() as connection:
        (mine,) = [
            j
            for j in rubric_scores(connection, "tiny-2026-11", "audit")
            if (j.code == code and j.reviewer_name == REVIEWER[language])
        ]
    assert dict(mine.scores) == {"correcao": 4, "clareza": 2}
    page.close()


@pytest.mark.parametrize("language", ["pt-BR", "en"])
def test_the_rubric_page_names_no_participant_or_judge(
    served: Served, browser: Any, language: str
) -> None:
    names = {
        value
        for model in served.round_.models
        for value in (model.api_identifier, model.snapshot, model.organization)
    } | {judge.display_name for judge in served.round_.judges}
    forbidden = tuple(sorted(name for name in names if name))
    page = _rubric_page(browser, served, language, DESKTOP)
    for _ in range(3):
        # No run under way replaces this sample's heading or button before the click lands.
        wait_until_idle(page)
        code = _code_on(page)
        assert not leaks(page.content(), forbidden, code)
        page.locator(f".st-key-next_{code} button").click()
        _gone(page, code)
    page.close()
