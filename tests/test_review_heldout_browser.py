"""Blindness in a real browser on the held-out corpus (issue 23's "Done when").

A reviewer walks the review app (Debian's Chromium, Playwright) over answers of the
held-out corpus (tests/data/anonymiser/heldout/self_identifying.jsonl), and what their
browser holds must be exactly what the anonymiser's measurement says:

- the page adds no leak of its own: none of an answer's names that the scrubber removed
  can be read in anything the browser holds of the page (its shown text, its text nodes
  hidden ones included, its attribute values, its title, its storage and cookies, and the
  messages the server sent it; tests/review/page_forms.py);
- the page leaks what the scrubber leaks: the names still readable in the page's text
  are exactly those still readable in `Scrubber(round_names(models))(text)`, as the
  corpus's independent checker (tests/support/anonymiser_corpus.py) reads them; and so
  the number of answers with every name removed on the page is the scrubber's own count.

The answers walked: the first entry (in file order) of each (class, language) pair of
the corpus. The round: one item per answer, the demonstration rounds' models (as
bench/bench_anonymiser_corpus.py measures them; the review app builds its scrubber from
the round's models), the first of which gives the answers; the others answer neutrally.
Its samples come first in the reviewer's queue, so the first samples walked are the
answers, each once. No figure of the anonymiser is fixed here: it is improved apart, and
its floor on the whole corpus is a test of its own.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, select, update

from review_app.anonymiser.anonymise import Scrubber, round_names
from review_app.core.auth import add_account
from review_app.core.db import assignments, make_engine, samples
from review_app.core.unblinding import sample_keys
from review_app.rounds.sampling import create_batch
from tests.review.heldout_round import (
    corpus_round,
    distinct_models,
    first_of_each_pair,
    item_id,
)
from tests.review.helpers import PASSWORD, new_database, released
from tests.review.page_forms import ServerMessages, page_forms, readable
from tests.support.anonymiser_corpus import Entry, demonstration_models, read_corpus
from tests.support.browser import CHROMIUM, launched_chromium
from tests.support.review_server import served_review_app
from tests.support.streamlit_page import wait_until_idle

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed"),
]
playwright_sync = pytest.importorskip("playwright.sync_api")

REPO = Path(__file__).resolve().parents[1]
HELDOUT = REPO / "tests" / "data" / "anonymiser" / "heldout"
REVIEWER = "revisora"
SHOWN = ("shown text", "text nodes")  # the forms that show the answer itself
HEADING = re.compile("Amostra SISTEMA-")


@dataclass(frozen=True)
class Served:
    address: str
    reader: Engine  # the administrator's side: which item a code stands for
    entries: tuple[Entry, ...]
    answering_model: str  # the model whose outputs are the corpus answers
    queue_length: int
    scrub: Scrubber


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    entries = first_of_each_pair(read_corpus(HELDOUT).self_identifying)
    every_model = demonstration_models(REPO)
    models = distinct_models(every_model)
    # The round masks exactly what the measurement's scrubber masks.
    assert round_names(models) == round_names(every_model)
    round_ = corpus_round(tmp_path / "heldout-round", entries, models)
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_account(engine, REVIEWER, "reviewer", PASSWORD)
    batch_id = create_batch(
        engine, round_, fraction=1.0, min_per_stratum=1, overlap=1, seed=23, reviewers=[REVIEWER]
    )
    released(engine, batch_id)
    answering = models[0].model_id
    with engine.begin() as connection:  # the corpus answers first in the queue
        theirs = select(sample_keys.c.sample_id).where(sample_keys.c.model_id == answering)
        connection.execute(
            update(assignments)
            .where(assignments.c.sample_id.in_(theirs))
            .values(position=assignments.c.position - 1_000_000)
        )
    engine.dispose()
    reader = make_engine(url)
    scrub = Scrubber(round_names(round_.models))  # as create_batch builds it
    try:
        with served_review_app(url, tmp_path) as address:
            yield Served(
                address, reader, tuple(entries), answering, len(entries) * len(models), scrub
            )
    finally:
        reader.dispose()


def _log_in(page: Any, address: str) -> None:
    page.goto(address)
    page.get_by_label("Nome").fill(REVIEWER)
    page.get_by_label("Senha").fill(PASSWORD)
    page.get_by_role("button", name="Entrar").click()
    playwright_sync.expect(page.get_by_role("heading", name=HEADING)).to_be_visible()
    # The login ends in a fresh page load (the server sets the cookie): wait until the
    # page's components have run, which is when the document takes the page's language,
    # and until the script's run is over (a key sent earlier may be lost).
    playwright_sync.expect(page.locator("html")).to_have_attribute("lang", "pt-BR")
    wait_until_idle(page)


def _code_on(page: Any) -> str:
    heading = page.get_by_role("heading", name=HEADING).first.inner_text()
    found = re.search(r"SISTEMA-[A-Z0-9]+", heading)
    assert found is not None, "no sample code in the heading"
    return found.group()


def _item_of(served: Served, code: str) -> tuple[str, str]:
    """(item id, model id) of the sample `code`: read on the administrator's side."""
    with served.reader.connect() as connection:
        row = connection.execute(
            select(sample_keys.c.item_id, sample_keys.c.model_id)
            .join(samples, samples.c.sample_id == sample_keys.c.sample_id)
            .where(samples.c.code == code)
        ).one()
    return str(row.item_id), str(row.model_id)


def _judge(page: Any, code: str, judged: int, total: int) -> None:
    """Judge the sample on screen by keyboard ("1") and wait for the next one."""
    heading = page.get_by_role("heading", name=HEADING)
    heading.first.click()  # the key goes to the page, not to the note
    page.keyboard.press("1")
    progress = page.get_by_text(f"{judged} de {total} julgadas")
    playwright_sync.expect(progress.first).to_be_visible()
    playwright_sync.expect(page.get_by_role("heading", name=re.compile(code))).to_have_count(0)
    wait_until_idle(page)


def _check_entry(served: Served, entry: Entry, forms: dict[str, str]) -> frozenset[str]:
    """The names of `entry` readable on the page, after checking them against the
    scrubber's. Failure messages name the entry and the form, never the corpus's text."""
    left_by_scrubber = readable(entry.names, served.scrub(entry.text))
    assert forms["server messages"], "no message from the server seen: nothing was checked"
    on_page: frozenset[str] = frozenset()
    for form, text in forms.items():
        found = readable(entry.names, text)
        added = found - left_by_scrubber
        if added:
            pytest.fail(
                f"entry {entry.entry_id}: {len(added)} name(s) the scrubber removed can be"
                f" read in the page's {form}"
            )
        on_page |= found
    shown = frozenset().union(*(readable(entry.names, forms[form]) for form in SHOWN))
    if shown != left_by_scrubber:
        pytest.fail(
            f"entry {entry.entry_id}: the page shows {len(shown)} name(s) readable, the"
            f" scrubber's output {len(left_by_scrubber)}"
        )
    return on_page


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
def test_the_reviewer_page_leaks_exactly_what_the_scrubber_leaks(served: Served) -> None:
    index_of = {item_id(index): index for index in range(len(served.entries))}
    walked: dict[str, frozenset[str]] = {}  # entry id -> names readable on the page
    with launched_chromium() as browser:
        page = browser.new_page()
        page.set_default_timeout(60_000)
        messages = ServerMessages(page)
        _log_in(page, served.address)
        for judged in range(1, len(served.entries) + 1):
            code = _code_on(page)
            its_item, model_id = _item_of(served, code)
            assert model_id == served.answering_model, f"sample {judged}: not an answer"
            entry = served.entries[index_of[its_item]]
            assert entry.entry_id not in walked, f"entry {entry.entry_id} met twice"
            walked[entry.entry_id] = _check_entry(served, entry, page_forms(page, messages))
            _judge(page, code, judged, served.queue_length)
    assert len(walked) == len(served.entries)
    on_page = sum(1 for names in walked.values() if not names)
    by_scrubber = sum(
        1 for entry in served.entries if not readable(entry.names, served.scrub(entry.text))
    )
    print(
        f"\nheld-out corpus, {len(walked)} answers walked in the browser: every name removed"
        f" on the page {on_page}, by the scrubber alone {by_scrubber}"
    )
    assert on_page == by_scrubber
