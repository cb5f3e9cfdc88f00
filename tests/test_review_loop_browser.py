"""The keypress race in a real browser (issue 9, point 4), and outputs shown as text (point 7).

A reviewer presses a choice key, then the same key again 150-300 ms later, before or after
the next sample reached the screen. Each press may judge only a sample that was on screen
when it was made: before the fix, the second press judged the next sample unseen.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from sqlalchemy import Engine, select, update

from review_app.core.db import accounts, assignments, judgments, make_engine, samples
from review_app.rounds.sampling import create_batch
from tests.factories import memory_review_round
from tests.review.helpers import PASSWORD, add_and_login, new_database, release_all
from tests.support.browser import CHROMIUM, launched_chromium
from tests.support.review_server import served_review_app
from tests.support.streamlit_page import IDLE_JS, ScriptRuns

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]
# The 150-300 ms, plus shorter gaps: on a fast, idle machine the app may show the
# next sample within 150 ms, and the test means something only if some press races.
GAPS_MS = (20, 50, 100, 150, 200, 250, 300, 20, 50, 150)
CODE = re.compile(r"SISTEMA-[A-Z0-9]+")
# Read the sample heading in the page itself: one round trip, no waiting.
HEADING_JS = (
    "() => { const h = Array.from(document.querySelectorAll('h3'))"
    ".find(e => e.innerText.includes('SISTEMA-')); return h ? h.innerText : ''; }"
)
# What was on screen when each key went down, recorded by the page itself as the key event
# is dispatched (a read by the test after the press can come after the app moved on, on a
# loaded machine): the sample headings at each keydown since the last reset.
PRESS_LOG_JS = (
    "() => { if (!window.__pressLog) { window.__pressLog = [];"
    " document.addEventListener('keydown', () => window.__pressLog.push(("
    + HEADING_JS
    + ")()), true); } const seen = window.__pressLog.slice(); window.__pressLog.length = 0;"
    " return seen; }"
)
MARKDOWN_OUTPUT = "**Sim.** A resposta _tachada_\n# não é título"


@dataclass(frozen=True)
class Served:
    address: str
    engine: Engine


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
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
    with engine.begin() as connection:  # one output written in Markdown
        connection.execute(update(samples).values(output_text=MARKDOWN_OUTPUT))
    engine.dispose()
    reader = make_engine(url)
    try:
        with served_review_app(url, tmp_path) as address:
            yield Served(address, reader)
    finally:
        reader.dispose()


def _judged_by_ana(engine: Engine) -> frozenset[str]:
    with engine.connect() as connection:
        return frozenset(
            connection.execute(
                select(samples.c.code)
                .select_from(judgments)
                .join(assignments, assignments.c.assignment_id == judgments.c.assignment_id)
                .join(samples, samples.c.sample_id == assignments.c.sample_id)
                .join(accounts, accounts.c.account_id == assignments.c.reviewer_id)
                .where(accounts.c.name == "ana")
            ).scalars()
        )


def _code_on_screen(page: Page) -> str:
    match = CODE.search(str(page.evaluate(HEADING_JS)))
    return match.group(0) if match else ""


def _settle(
    page: Page, runs: ScriptRuns, engine: Engine, recorded: frozenset[str] = frozenset()
) -> None:
    """Wait until the server and the page are at rest: every sample of `recorded` (the
    presses whose target is certain) judged in the database, a script run finished after
    the last request the page sent (no press still on its way), Streamlit's script idle,
    the progress showing what is recorded, and all of it unchanged for 1.5 s."""
    progress = page.get_by_text(re.compile(r"\d+ de 24 julgadas"))
    deadline = time.monotonic() + 120
    last: tuple[object, ...] = ()
    stable_since = time.monotonic()
    while time.monotonic() < deadline:
        judged = _judged_by_ana(engine)
        state = (judged, _code_on_screen(page), progress.inner_text(), page.evaluate(IDLE_JS))
        if state != last:
            last, stable_since = state, time.monotonic()
        elif (
            runs.answered()
            and recorded <= judged
            and state[3] is True
            and time.monotonic() - stable_since > 1.5
            and state[2] == f"{len(judged)} de 24 julgadas"
        ):
            return
        time.sleep(0.1)
    pytest.fail(f"the page did not settle: {last}")


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_a_second_keypress_judges_only_the_sample_on_screen(served: Served) -> None:
    from playwright.sync_api import expect

    with launched_chromium() as browser:
        page = browser.new_page()
        runs = ScriptRuns(page)
        page.set_default_timeout(60_000)
        page.goto(served.address)
        page.get_by_label("Nome").fill("ana")
        page.get_by_label("Senha").fill(PASSWORD)
        page.get_by_role("button", name="Entrar").click()
        expect(page.get_by_text(re.compile(r"\d+ de 24 julgadas"))).to_have_text("0 de 24 julgadas")
        _outputs_are_literal_and_apart(page)
        # A slow laptop's browser: the next sample takes a while to reach the screen,
        # so that the second press races it even against a fast server.
        page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": 4})
        _settle(page, runs, served.engine)  # each double press then ends at rest
        races = [_press_twice(page, runs, served.engine, gap_ms) for gap_ms in GAPS_MS]
    raced = sum(races)
    print(f"\nkeypress race: {len(GAPS_MS)} double presses, {raced} while the first sample")
    print("was still on screen; each judged only the sample on screen")
    # The race must have happened for the test to mean anything.
    assert raced > 0, "every second press came after the next sample was on screen"


def _press_twice(page: Page, runs: ScriptRuns, engine: Engine, gap_ms: int) -> bool:
    """Press "1", then "1" again `gap_ms` later; True when the second press came while
    the first sample was still on screen (the race). The page is at rest (`_settle`)."""
    before = _judged_by_ana(engine)
    first = _code_on_screen(page)
    page.evaluate(PRESS_LOG_JS)  # listening, and nothing recorded yet
    page.get_by_role("heading", name=re.compile("Amostra SISTEMA-")).click()  # keys to the page
    page.keyboard.press("1")
    page.wait_for_timeout(gap_ms)  # house-rule: input timing (the race is the test)
    seen_before = _code_on_screen(page)
    page.keyboard.press("1")
    seen_after = _code_on_screen(page)
    # The first press judges `first`. The second may judge the sample on screen or
    # nothing: Streamlit draws the next sample's heading before its buttons, and a key
    # pressed in between finds no button of that sample to click (or the stale one of
    # `first`). So only `first` is certain; the quiet spell covers the second press.
    _settle(page, runs, engine, frozenset({first}))
    new = _judged_by_ana(engine) - before
    headings_at_presses: list[str] = page.evaluate(PRESS_LOG_JS)
    assert len(headings_at_presses) == 2, headings_at_presses  # the page saw both keys
    at_presses = {m.group(0) for heading in headings_at_presses if (m := CODE.search(heading))}
    on_screen = {first, seen_before, seen_after} | at_presses
    # The first press judged `first`: newly, or again when the page at rest still showed a
    # sample judged a moment before (the last double press's second key, on `first`).
    assert first in new or first in before, (first, new)
    assert new <= on_screen, f"judged {sorted(new - on_screen)}, never on screen at a press"
    raced = seen_before == seen_after == first
    if raced:  # both keys pressed on `first`: nothing else judged
        assert new <= {first}, new
    return raced


def _outputs_are_literal_and_apart(page: Page) -> None:
    """The Markdown of an output shows as typed, in a box apart from the question's."""
    code = _code_on_screen(page)
    question = page.locator(f".st-key-prompt_{code}")
    answer = page.locator(f".st-key-output_{code}")
    assert "**Sim.** A resposta _tachada_" in answer.inner_text()
    assert answer.locator("strong, em, h1").count() == 0
    assert "Pergunta" in question.inner_text()
    assert "**Sim.**" not in question.inner_text()
    question_box = question.bounding_box()
    answer_box = answer.bounding_box()
    assert question_box is not None
    assert answer_box is not None
    assert question_box["y"] + question_box["height"] <= answer_box["y"]
