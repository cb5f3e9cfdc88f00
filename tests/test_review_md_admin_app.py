"""The administrator's multidomain pages in the app (AppTest), in both languages: the
audit's divergences, the invalidation of i7 and its ledger line, the refusals; the
calibration figures; the contamination queue and an outcome."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import DownloadButton

from reportgen.archive import LEDGER_FILE
from reportgen.kinds.multidomain.review.round import read_md_round
from reportgen.kinds.multidomain.review.sampling import create_rubric_batch
from review_app.i18n import translate
from tests.review.helpers import PASSWORD, add_and_login, new_database
from tests.review.multidomain import audit_batch, score_audit, tiny_before_audit

APP = str(Path(__file__).resolve().parents[1] / "review_app" / "app.py")
LANGUAGES = ["pt-BR", "en"]


@pytest.fixture
def round_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_and_login(engine, "admin", "admin")
    add_and_login(engine, "ana")
    add_and_login(engine, "bruno")
    add_and_login(engine, "lab", "participant")
    folder = tiny_before_audit(tmp_path / "rounds")
    audit_batch(engine, folder)
    create_rubric_batch(engine, read_md_round(folder), task_type="calibration", seed=9)
    score_audit(engine)
    monkeypatch.setenv("REVIEW_DB_URL", url)
    yield folder
    engine.dispose()
    st.cache_resource.clear()


def _admin_on(page: str, language: str, name: str = "admin") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["language"] = language
    at.run()
    at.text_input(key="login_name").input(name)
    at.text_input(key="login_password").input(PASSWORD)
    at.button[0].click()
    at.run()
    if at.session_state["language"] != language:
        at.sidebar.selectbox(key="language").set_value(language).run()
    at.sidebar.radio(key="page").set_value(page).run()
    assert not at.exception, at.exception
    return at


def _table_text(at: AppTest) -> str:
    return "\n".join(table.value.to_csv() for table in at.table)


def _invalidate(at: AppTest, item_id: str) -> AppTest:
    at.text_input(key="md_invalidate_item").input(item_id)
    at.button(key="md_invalidate").click()
    at.run()
    assert not at.exception, at.exception
    return at


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_audit_page_shows_h_minus_f_and_flags_i7(round_dir: Path, language: str) -> None:
    at = _admin_on("md_page_audit", language)
    assert at.title[0].value == translate(language, "md_audit_title")
    table = _table_text(at)
    separator = "," if language == "pt-BR" else "."
    assert f"\u22121{separator}50" in table  # i7 P1: h 5/2 − F 4
    assert f"0{separator}17" in table  # i3 P1: 9/2 − 13/3
    assert translate(language, "md_flag_above", threshold=f"1{separator}00") in table
    # The response that decides comes first, however many rows the audit holds.
    first = at.table[0].value.iloc[0]
    assert first[translate(language, "md_col_item")] == "i7"
    assert first[translate(language, "md_col_difference")] == f"\u22121{separator}50"
    (warning,) = at.warning
    assert "i7" in warning.value
    assert f"1{separator}50" in warning.value
    # The tiny round's audit fits one page: no page control, every row, and the CSV.
    assert not at.number_input
    rows = len(at.table[0].value)
    shown = translate(
        language, "table_rows_shown", count=rows, first="1", last=str(rows), total=str(rows)
    )
    assert shown in [caption.value for caption in at.main.caption]
    (download,) = at.get("download_button")
    assert isinstance(download, DownloadButton)
    assert download.label == translate(language, "table_download")


@pytest.mark.parametrize("language", LANGUAGES)
def test_invalidating_i7_from_the_page_appends_its_ledger_line(
    round_dir: Path, language: str
) -> None:
    at = _invalidate(_admin_on("md_page_audit", language), "i7")
    (success,) = at.success
    assert success.value.startswith(
        translate(language, "md_invalidated", item_id="i7", audit_id="")[:20]
    )
    (line,) = read_md_round(round_dir, with_text=False).annulments
    assert (line.item_id, line.source) == ("i7", "audit")
    assert line.ref in success.value
    assert translate(language, "md_item_annulled", source="audit") in _table_text(at)


@pytest.mark.parametrize(
    ("item_id", "key", "params"),
    [
        ("i4", "md_error_not_drawn", {"round_id": "tiny-2026-11"}),  # an mcq item
        ("i3", "md_error_not_above", {"divergence": "0.17", "threshold": "1.00"}),
    ],
)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_refused_invalidation_shows_why_and_changes_nothing(
    round_dir: Path, language: str, item_id: str, key: str, params: dict[str, str]
) -> None:
    at = _invalidate(_admin_on("md_page_audit", language), item_id)
    (error,) = at.error
    assert error.value == translate(language, key, item_id=item_id, **params)
    assert not at.success
    assert not (round_dir / LEDGER_FILE).exists()


@pytest.mark.parametrize("language", LANGUAGES)
def test_invalidating_i7_twice_is_refused(round_dir: Path, language: str) -> None:
    at = _invalidate(_admin_on("md_page_audit", language), "i7")
    before = (round_dir / LEDGER_FILE).read_bytes()
    at = _invalidate(at, "i7")
    (error,) = at.error
    assert error.value == translate(
        language, "md_error_already_annulled", item_id="i7", source="audit"
    )
    assert (round_dir / LEDGER_FILE).read_bytes() == before


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_calibration_page_shows_the_report_s_figures(round_dir: Path, language: str) -> None:
    at = _admin_on("md_page_calibration", language)
    table = _table_text(at)
    # Art. 16: the hit rate is the adjudicating judge's (9/10 on the tiny round), not the
    # jurors' mean (4/5), which the page must not show in its place.
    assert ("90,0%" if language == "pt-BR" else "90.0%") in table
    assert ("80,0%" if language == "pt-BR" else "80.0%") not in table
    gap = translate(language, "md_gap", gap="0,0%" if language == "pt-BR" else "0.0%")
    assert gap in at.markdown[-1].value


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_contamination_page_records_an_outcome(round_dir: Path, language: str) -> None:
    at = _admin_on("md_page_contamination", language)
    table = _table_text(at)
    assert "i3" in table
    assert translate(language, "md_outcome_pending") in table
    at.radio(key="md_outcome").set_value("confirmed")
    at.text_area(key="md_outcome_note").input("Copies the statement.")
    at.button(key="md_record").click()
    at.run()
    assert not at.exception, at.exception
    (line,) = read_md_round(round_dir, with_text=False).annulments
    assert (line.item_id, line.source) == ("i3", "contamination")
    assert line.ref in at.success[0].value
    assert translate(language, "md_outcome_confirmed") in _table_text(at)


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_participant_meets_the_multidomain_window(round_dir: Path, language: str) -> None:
    # Listed without a publication; today (before E = 2027-02-28) the window is not open.
    at = _admin_on("page_contest", language, name="lab")
    assert at.selectbox(key="contest_round_0").options == ["tiny-2026-11"]
    at.text_input(key="contest_reference_0").input("i3")
    at.text_area(key="contest_justification_0").input(
        "O enunciado admite duas leituras e a rubrica não decide entre elas."
    )
    (submit,) = [button for button in at.button if "FormSubmitter" in button.id]
    submit.click()
    at.run()
    (error,) = at.error
    assert error.value == translate(
        language, "md_error_window_not_open", round_id="tiny-2026-11", opens="2027-02-28"
    )
