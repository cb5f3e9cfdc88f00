"""The Art. 26 audit walked end to end in the app (AppTest) on the demonstration round, on
SQLite and on PostgreSQL, each language on each database (the reviewer in one, the admin
in the other): the CLI draws the sample, a reviewer scores a response on the rubric page
so that it diverges, the admin sees the divergence on the audit page and invalidates the
item, the CLI exports and freezes; no score of the frozen round counts the item
(tests/review/md_walk.py).

The site built from the frozen round is read after the same walk on SQLite in a real
browser (tests/test_review_md_browser.py: `check_site`, the ledger table naming the item in
both languages, the items' page marking it annulled), so it is not built again here: a
build reads the frozen archive, whichever database and language order it came from, and
these walks prove that archive and its scores (`check_results`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from sqlalchemy import Engine
from streamlit.testing.v1 import AppTest

from reportgen.kinds.multidomain.review.format import decimal_text
from reportgen.kinds.rounds import read_round
from review_app.core.db import make_engine
from review_app.i18n import translate
from review_app.pages.common import _engine_for
from review_app.pages.tables import PAGE_SIZE
from review_app.tasks.rubric_scores import rubric_scores
from tests.review.app_login import logged_in
from tests.review.md_prepared import postgres_audit, sqlite_audit
from tests.review.md_walk import (
    ROUND_ID,
    Walked,
    app_text,
    check_results,
    freeze_export,
    leaks,
)

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
pytestmark = pytest.mark.slow
# (database, the reviewer's language, the admin's language)
WALKS = [("sqlite", "pt-BR", "en"), ("postgresql", "en", "pt-BR")]


def _logged_in(name: str, language: str) -> AppTest:
    return logged_in(name, language, timeout=120)


def _reviewer_scores(walked: Walked, language: str) -> None:
    at = _logged_in(walked.reviewer, language)
    assert at.session_state["current_code"] == walked.code  # the one response left
    seen = app_text(at)
    assert not leaks(seen, walked.forbidden, walked.code)
    assert walked.model_id not in seen  # nor the unit's key, in elements or state
    assert f"{walked.item_id}|{walked.model_id}|{walked.run}" not in seen
    for criterion_id in walked.criteria:
        at.radio(key=f"score_{walked.code}_{criterion_id}").set_value(walked.score)
    submit = translate(language, "rubric_submit")
    next(button for button in at.button if button.label == submit).click().run()
    assert not at.exception, at.exception
    assert not at.error


def _admin_invalidates(walked: Walked, language: str) -> str:
    at = _logged_in("admin", language)
    at.sidebar.radio(key="page").set_value("md_page_audit").run()
    assert not at.exception, at.exception
    (warning,) = at.warning  # the one item above 1.0
    assert walked.item_id in warning.value
    _pages_of_the_audit(at, walked, language)
    at.text_input(key="md_invalidate_item").input(walked.item_id)
    at.button(key="md_invalidate").click().run()
    assert not at.exception, at.exception
    (success,) = at.success
    found = re.search(r"AUD-[A-Z0-9]+", success.value)
    assert found is not None, success.value
    return found.group()


def _pages_of_the_audit(at: AppTest, walked: Walked, language: str) -> None:
    """The audit's thousands of rows come a page at a time (review_app/pages/tables.py):
    the first page holds the rows that decide (above the threshold, the walked response
    among them), the second the next largest differences, and no row twice."""
    difference = translate(language, "md_col_difference")
    audit_id = translate(language, "md_col_audit_id")
    flag = translate(language, "md_col_flag")
    (first,) = at.table
    assert len(first.value) == PAGE_SIZE
    assert decimal_text(walked.score - walked.final, 2, language) in list(first.value[difference])
    above = translate(language, "md_flag_above", threshold=decimal_text(1.0, 2, language))
    flags = list(first.value[flag])
    assert flags[0] == above
    assert flags == sorted(flags, key=lambda shown: shown != above)  # the flagged ones first
    at.number_input(key="md_audit_rows_page").set_value(2).run()
    assert not at.exception, at.exception
    (second,) = at.table
    assert len(second.value) == PAGE_SIZE
    assert above not in list(second.value[flag])
    assert not set(second.value[audit_id]) & set(first.value[audit_id])
    largest_next = max(_size(text, language) for text in second.value[difference])
    assert largest_next <= min(
        _size(text, language)
        for text, shown in zip(first.value[difference], flags, strict=True)
        if shown != above
    )
    shown = translate(language, "table_rows_shown", count=2, first="51", last="100", total="TOTAL")
    pattern = re.escape(shown).replace("TOTAL", r"[0-9.,]+")
    assert any(re.fullmatch(pattern, caption.value) for caption in at.caption)


def _size(text: str, language: str) -> float:
    """|h − F| from the page's text ("−1,50" / "−1.50")."""
    plain = text.replace("\u2212", "")
    return abs(float(plain.replace(",", ".") if language == "pt-BR" else plain))


@pytest.mark.timeout(1200)  # a hang guard, not a speed bound: generous for loaded machines
@pytest.mark.parametrize(("kind", "reviewer_language", "admin_language"), WALKS)
def test_the_audit_walked_from_sample_to_site(
    kind: str,
    reviewer_language: str,
    admin_language: str,
    tmp_path: Path,
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The run's one preparation on SQLite, copied (tests/review/md_prepared.py).
    if kind == "sqlite":
        round_dir, url, walked = sqlite_audit(tmp_path_factory, tmp_path)
        engine = make_engine(url)
    else:
        round_dir, url, walked, engine = postgres_audit(tmp_path_factory, tmp_path)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    try:
        _walk(engine, url, round_dir, walked, (reviewer_language, admin_language))
    finally:
        engine.dispose()
        _engine_for(url).dispose()  # the app's own engine, cached for this database
        st.cache_resource.clear()


def _walk(
    engine: Engine, url: str, round_dir: Path, walked: Walked, languages: tuple[str, str]
) -> None:
    reviewer_language, admin_language = languages
    _reviewer_scores(walked, reviewer_language)
    with engine.connect() as connection:
        (mine,) = [j for j in rubric_scores(connection, ROUND_ID, "audit") if j.code == walked.code]
    assert set(mine.scores.values()) == {walked.score}
    audit_id = _admin_invalidates(walked, admin_language)
    (line,) = read_round(round_dir, with_text=False, tolerate=lambda _: True).annulments
    assert (line.item_id, line.source, line.ref) == (walked.item_id, "audit", audit_id)
    # The export, frozen; its pages are those the browser's walk builds from SQLite's.
    folder = round_dir.parents[1]
    freeze_export(round_dir, url, folder)
    check_results(round_dir, walked, folder)
