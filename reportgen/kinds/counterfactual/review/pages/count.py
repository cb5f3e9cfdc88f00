"""The reviewer's page of a count in the counterfactual extraction check (issue 21): the
view of the `count` task shape, which the kind's review part declares (`part.REVIEW.shapes`).

The reviewer reads the counted variable's question (both languages) and the text the
model extractor read (its masked input), and types the number they count: a whole
number >= 0 in an integer field, saved with Enter or the save button, or "Cannot tell"
(`na`). Nothing else is loaded: not the extracted value (it stays in the
administrator-only key), no group, name nor system (`review_app.tasks.reviewing.load_sample`
reads none). Counts made by a code extractor are never sampled (the page says so):
`reportgen.kinds.counterfactual.extraction_check` explains why.

The answer is stored as a judgment whose choice is the canonical number ("0", "17") or
`na` (`review_app.tasks.reviewing.submit_judgment` refuses anything else); the export writes
it as the check's `human_value`.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.model import NA
from review_app.core.errors import ReviewInputError
from review_app.pages.common import engine, language, saved_and_next, t, t_md, token
from review_app.pages.rubric import show_in_language
from review_app.tasks.reviewing import ReviewSample, submit_judgment


def count_view(
    sample: ReviewSample, note_field: Callable[[ReviewSample], str]
) -> ReportgenError | None:
    """The question, the answer, the note and the count form; the error of a refused
    submission (the page shows it), else None."""
    reader = language()
    criterion = sample.criteria[0]
    with st.container(border=True, key=f"cf_count_{sample.code}"):
        st.caption(t_md("cf_count_heading", variable=criterion.name(reader)))
        st.text(sample.prompt_text)
    show_in_language(
        t("cf_count_answer_label"), sample.output_text, sample.language, key=f"an_{sample.code}"
    )
    st.caption(t("cf_count_blind_help"))
    if sample.choice is not None:
        st.info(t_md("your_judgment", choice=sample.task.label(reader, sample.choice)))
    return _count_form(sample, note_field(sample))


def _count_form(sample: ReviewSample, note: str) -> ReportgenError | None:
    stored = int(sample.choice) if sample.choice and sample.choice.isdecimal() else None
    with st.form(key=f"cf_count_form_{sample.code}", border=False):
        typed = st.number_input(
            t("cf_count_label"),
            min_value=0,
            step=1,
            value=stored,
            format="%d",
            key=f"count_{sample.code}",
            disabled=sample.closed,
        )
        # Enter in the field submits the form with its first button: the count.
        save = st.form_submit_button(t("cf_count_submit"), type="primary", disabled=sample.closed)
        cannot_tell = st.form_submit_button(t("cf_count_cannot_tell"), disabled=sample.closed)
    if cannot_tell:
        choice = NA
    elif not save:
        return None
    elif typed is None:
        return ReviewInputError("cf_error_count_required")
    else:
        choice = str(int(typed))
    try:
        submit_judgment(engine(), token(), sample.code, choice, note or None, seen=sample.version)
    except ReportgenError as error:
        return error
    saved_and_next(sample.code)
