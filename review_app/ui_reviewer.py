"""The reviewer's pages: the review queue and the guidelines.

Texts are shown with `st.text` (never Markdown or HTML): a model's output is data, and
markup in it must not render. Only codes, the reviewer's own choices and notes ever
reach the session state.
"""

from __future__ import annotations

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.db import NOTE_MAX_CHARS
from review_app.guidelines import guidelines_text
from review_app.reviewing import QueueEntry, load_sample, my_queue, next_code, submit_judgment
from review_app.ui_common import announce_saved, engine, language, show_error, t, token

CURRENT = "current_code"


def review_page() -> None:
    st.title(t("review_title"))
    with st.expander(t("guidelines_title")):
        st.markdown(guidelines_text(language()))
    queue = my_queue(engine(), token())
    judged = sum(1 for entry in queue if entry.choice is not None)
    total = len(queue)
    st.progress(judged / total if total else 0.0, text=t("progress", done=judged, total=total))
    if not queue:
        st.info(t("queue_empty"))
        return
    codes = [entry.code for entry in queue]
    current = st.session_state.get(CURRENT)
    if current not in codes:
        current = next_code(queue) or codes[0]
        st.session_state[CURRENT] = current
    if next_code(queue) is None:
        st.success(t("queue_done"))
    _sample_view(queue, str(current))


def _sample_view(queue: list[QueueEntry], code: str) -> None:
    sample = load_sample(engine(), token(), code)
    codes = [entry.code for entry in queue]
    position = codes.index(code)
    st.subheader(t("sample_heading", code=sample.code, position=position + 1, total=len(codes)))
    if sample.closed:
        st.info(t("batch_closed_info"))
    st.caption(t("prompt_label"))
    st.text(sample.prompt_text)
    st.caption(t("output_label"))
    st.text(sample.output_text)
    if sample.choice is not None:
        st.info(t("your_judgment", choice=sample.task.label(language(), sample.choice)))
    note = st.text_area(
        t("note_label"),
        value=sample.note,
        key=f"note_{sample.code}",
        max_chars=NOTE_MAX_CHARS,
        help=t("note_help"),
        disabled=sample.closed,
    )
    choices = sample.task.choices
    columns = st.columns(len(choices))
    for number, (column, choice) in enumerate(zip(columns, choices, strict=True), 1):
        # Streamlit shows the shortcut key on the button itself.
        if column.button(
            sample.task.label(language(), choice),
            key=f"choose_{choice}",
            shortcut=str(number),
            disabled=sample.closed,
            type="primary" if sample.choice == choice else "secondary",
        ):
            try:
                submit_judgment(engine(), token(), sample.code, choice, note or None)
            except ReportgenError as error:
                show_error(error)
                return
            announce_saved(sample.code)
            after = next_code(my_queue(engine(), token()), sample.code)
            st.session_state[CURRENT] = after or sample.code
            st.rerun()
    back, forward = st.columns(2)
    if back.button(t("previous"), key="previous", shortcut="left", disabled=position == 0):
        st.session_state[CURRENT] = codes[position - 1]
        st.rerun()
    if forward.button(t("next"), key="next", shortcut="right", disabled=position == len(codes) - 1):
        st.session_state[CURRENT] = codes[position + 1]
        st.rerun()
    st.caption(t("shortcuts_help"))


def guidelines_page() -> None:
    st.markdown(guidelines_text(language()))
