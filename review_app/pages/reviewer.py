"""The reviewer's pages: the review queue and the guidelines.

Texts are shown with `st.text` (never Markdown or HTML): a model's output is data, and
markup in it must not render. Only codes, the reviewer's own choices and notes ever
reach the session state.

Every control of a sample is keyed by the sample's code. A keypress meant for the sample
on screen that reaches the server after it moved on (a second "1" 200 ms after the first)
names a control this run does not draw, so Streamlit drops it instead of judging the next
sample unseen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.core.db import NOTE_MAX_CHARS
from review_app.guidelines import guidelines_text
from review_app.pages.common import (
    CURRENT,
    DRAFTS,
    engine,
    language,
    saved_and_next,
    show_error,
    t,
    t_md,
    token,
)
from review_app.pages.text import show_literal
from review_app.pages.versions import seen_version
from review_app.tasks.reviewing import (
    QueueEntry,
    ReviewSample,
    awaiting_release,
    last_judgment,
    load_sample,
    my_queue,
    next_code,
    submit_judgment,
    undo_last_judgment,
)

NoteField = Callable[[ReviewSample], str]
# A task shape's view (`TaskShape.view`): shows the sample, returns a refused answer's error.
SampleView = Callable[[ReviewSample, NoteField], ReportgenError | None]

UNDONE = "undone_code"  # the sample whose judgment the last run took back


def review_page() -> None:
    st.title(t("review_title"))
    with st.expander(t("guidelines_title")):
        st.markdown(guidelines_text(language()))
    queue = my_queue(engine(), token())
    judged = sum(1 for entry in queue if entry.choice is not None)
    total = len(queue)
    st.progress(judged / total if total else 0.0, text=t("progress", done=judged, total=total))
    waiting = awaiting_release(engine(), token())  # held for the administrator's leak review
    if not queue:
        st.info(t("queue_awaiting_release", count=waiting) if waiting else t("queue_empty"))
        return
    if waiting:
        st.caption(t("more_awaiting_release", count=waiting))
    codes = [entry.code for entry in queue]
    current = st.session_state.get(CURRENT)
    if current not in codes:
        current = next_code(queue) or codes[0]
        st.session_state[CURRENT] = current
    if next_code(queue) is None:
        # Nothing left to judge: because the reviewer finished, or because a batch closed.
        left_unjudged = sum(1 for entry in queue if entry.closed and entry.choice is None)
        if left_unjudged:
            st.warning(t("queue_closed", count=left_unjudged))
        else:
            st.success(t("queue_done"))
    undone = st.session_state.pop(UNDONE, None)
    if undone is not None:
        st.info(t("undone", code=undone))
    _sample_view(queue, str(current))


def _sample_view(queue: list[QueueEntry], code: str) -> None:
    sample = load_sample(engine(), token(), code)
    # A save in this run names the version the screen showed before it, not this one.
    sample = replace(sample, version=seen_version(sample))
    codes = [entry.code for entry in queue]
    position = codes.index(code)
    st.subheader(t("sample_heading", code=sample.code, position=position + 1, total=len(codes)))
    if sample.closed:
        st.info(t("batch_closed_info"))
    # The sample's task shape (review_app.tasks.shapes) shows it and takes its answer:
    # buttons for a choice, one score per criterion for a rubric, or a kind's own view.
    shape = sample.shape
    view: SampleView = shape.load_view()
    error = view(sample, _note_field)
    if error is not None:
        # Shown under the buttons; the note, the navigation and its keys stay.
        show_error(error)
    _navigation(codes, position)
    _undo_button()
    # Each shape says what its keys do (a rubric's digits pick a criterion's score; a
    # count's are typed into the field).
    st.caption(t(shape.shortcuts))


def choice_view(sample: ReviewSample, note_field: NoteField) -> ReportgenError | None:
    """The `choice` shape: the prompt, the output, the note and one button per choice."""
    show_literal(t("prompt_label"), sample.prompt_text, key=f"prompt_{sample.code}")
    show_literal(t("output_label"), sample.output_text, key=f"output_{sample.code}")
    if sample.choice is not None:
        st.info(t_md("your_judgment", choice=sample.task.label(language(), sample.choice)))
    note = note_field(sample)
    return _choice_buttons(sample, note)


def _drafts() -> dict[str, str]:
    drafts = st.session_state.get(DRAFTS)
    if not isinstance(drafts, dict):
        drafts = {}
        st.session_state[DRAFTS] = drafts
    return drafts


def _note_field(sample: ReviewSample) -> str:
    """The note box; what is typed stays a draft of this sample until it is recorded."""
    drafts = _drafts()
    note = st.text_area(
        t("note_label"),
        value=drafts.get(sample.code, sample.note),
        key=f"note_{sample.code}",
        max_chars=NOTE_MAX_CHARS,
        help=t("note_help"),
        disabled=sample.closed,
    )
    # The widget forgets its text when another sample is shown; the draft does not.
    if note != sample.note:
        drafts[sample.code] = note
        st.caption(t("note_draft"))
    else:
        drafts.pop(sample.code, None)
    return note


def _choice_buttons(sample: ReviewSample, note: str) -> ReportgenError | None:
    """One button per choice; a click records the judgment and moves on, else the error."""
    choices = sample.task.choices
    columns = st.columns(len(choices))
    for number, (column, choice) in enumerate(zip(columns, choices, strict=True), 1):
        # Streamlit shows the shortcut key on the button itself.
        if column.button(
            sample.task.label(language(), choice),
            key=f"choose_{sample.code}_{choice}",
            shortcut=str(number),
            disabled=sample.closed,
            type="primary" if sample.choice == choice else "secondary",
        ):
            try:
                submit_judgment(
                    engine(), token(), sample.code, choice, note or None, seen=sample.version
                )
            except ReportgenError as error:
                return error
            saved_and_next(sample.code)
    return None


def _navigation(codes: list[str], position: int) -> None:
    code = codes[position]
    back, forward = st.columns(2)
    if back.button(t("previous"), key=f"previous_{code}", shortcut="left", disabled=position == 0):
        st.session_state[CURRENT] = codes[position - 1]
        st.rerun()
    if forward.button(
        t("next"), key=f"next_{code}", shortcut="right", disabled=position == len(codes) - 1
    ):
        st.session_state[CURRENT] = codes[position + 1]
        st.rerun()


def _undo_button() -> None:
    """Take back the last judgment (until its batch closes) and show its sample again.

    The button is keyed by the change it undoes: a press made before a newer judgment
    reached the screen undoes nothing.
    """
    last = last_judgment(engine(), token())
    label = (
        t_md("undo", code=last.code, choice=_label_of(last.code, last.choice))
        if last is not None
        else t("undo_nothing")
    )
    if st.button(
        label,
        key=f"undo_{last.change_id if last is not None else 'none'}",
        shortcut="u",
        disabled=last is None,
        help=t("undo_help"),
    ):
        undone = undo_last_judgment(engine(), token(), last.change_id if last is not None else None)
        if undone is not None:
            if undone.note:
                _drafts()[undone.code] = undone.note  # the note typed is not lost
            st.session_state[CURRENT] = undone.code
            st.session_state[UNDONE] = undone.code
        st.rerun()


def _label_of(code: str, choice: str) -> str:
    return load_sample(engine(), token(), code).task.label(language(), choice)


def guidelines_page() -> None:
    st.markdown(guidelines_text(language()))
