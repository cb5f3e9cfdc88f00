"""The reviewer's page of a rubric sample (multidomain audit and calibration).

The reviewer reads the item's statement, the rubric's criteria with their anchors at 0,
3 and 5, and the anonymised answer, then gives each criterion an integer score. Nothing
else: no participant, run, jury or adjudicator score, nor anyone else's score, is ever
loaded (`review_app.tasks.reviewing.load_sample` reads none).

Each criterion is a horizontal radio group of the scale's integers: a click picks a
score; from the keyboard, Tab reaches the group, the arrow keys move the choice and a
digit picks that score (a small script in the page, `_DIGITS_JS`). The scores go out
together with the form's button, and `submit_scores` refuses a missing criterion or a
score off the scale with a message (nothing is stored).

The statement and the answer keep their own language: they are wrapped in an element
with `lang` (e.g. "zh"), their text escaped so that markup in them shows as typed.
"""

from __future__ import annotations

import html
import re
import string
from collections.abc import Callable

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.core.errors import ReviewError
from review_app.pages.common import engine, language, saved_and_next, t, t_md, token
from review_app.tasks.notes import visible_text
from review_app.tasks.reviewing import ReviewSample
from review_app.tasks.rubric import submit_scores

# A BCP-47 tag as items.parquet holds them ("pt-BR", "zh", "zh-Hans"): anything else is
# not written into the page's markup.
_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{2,8})*")
_ESCAPE_MARKDOWN = str.maketrans({mark: "\\" + mark for mark in string.punctuation})
# A digit typed while a score group has the focus picks that score (as a click on its
# label would). Only the score groups (keys "score_…") listen; the listener is installed
# once per page. Nothing is sent until the form's button.
_DIGITS_JS = """
export default function() {
    if (window.reportgenRubricDigits) { return; }
    window.reportgenRubricDigits = true;
    document.addEventListener("keydown", (event) => {
        const target = event.target;
        if (!/^[0-9]$/.test(event.key) || event.ctrlKey || event.altKey || event.metaKey) {
            return;
        }
        if (!(target instanceof HTMLInputElement) || target.type !== "radio") { return; }
        const box = target.closest("[class*='st-key-score_']");
        const group = target.closest("[role='radiogroup']");
        if (!box || !group) { return; }
        const label = Array.from(group.querySelectorAll("label"))
            .find((candidate) => candidate.innerText.trim() === event.key);
        if (!label) { return; }
        event.preventDefault();
        event.stopPropagation();
        label.click();
        const input = label.querySelector("input");
        if (input) { input.focus(); }
    }, true);
}
"""
_digit_keys = st.components.v2.component("reportgen_rubric_digit_keys", js=_DIGITS_JS)


def show_in_language(heading: str, text: str, text_language: str | None, *, key: str) -> None:
    """`text` as stored, in a box under `heading`, marked with its language (`lang`)."""
    with st.container(border=True, key=key):
        st.caption(visible_text(heading).translate(_ESCAPE_MARKDOWN))
        if text_language and _LANGUAGE_TAG.fullmatch(text_language):
            st.html(
                f'<div lang="{text_language}" style="white-space: pre-wrap">'
                f"{html.escape(text)}</div>"
            )
        else:
            st.text(text)


def rubric_view(
    sample: ReviewSample, note_field: Callable[[ReviewSample], str]
) -> ReportgenError | None:
    """The statement, the criteria, the answer, the note (`note_field` draws it) and the
    score form; the error of a refused submission (the page shows it), else None."""
    show_in_language(
        t("rubric_statement_label"), sample.prompt_text, sample.language, key=f"st_{sample.code}"
    )
    _criteria(sample)
    show_in_language(
        t("rubric_answer_label"), sample.output_text, sample.language, key=f"an_{sample.code}"
    )
    if sample.choice is not None:
        st.info(t("rubric_your_scores"))
    _digit_keys(key="rubric_digit_keys", height=0)
    return _score_form(sample, note_field(sample))


def _criteria(sample: ReviewSample) -> None:
    with st.container(border=True, key=f"criteria_{sample.code}"):
        st.caption(t("rubric_criteria_heading"))
        for criterion in sample.criteria:
            st.text(criterion.name(language()))
            for score, anchor in (
                (0, criterion.anchor_0),
                (3, criterion.anchor_3),
                (5, criterion.anchor_5),
            ):
                st.text(t("rubric_anchor", score=score, text=anchor))


def _score_form(sample: ReviewSample, note: str) -> ReportgenError | None:
    assert sample.task.scale is not None  # a rubric task (see the caller)
    low, high = sample.task.scale
    scale = list(range(low, high + 1))
    chosen: dict[str, object] = {}
    with st.form(key=f"rubric_{sample.code}", border=False):
        st.caption(t("rubric_help", low=low, high=high))
        for criterion in sample.criteria:
            stored = sample.scores.get(criterion.criterion_id)
            chosen[criterion.criterion_id] = st.radio(
                t_md(
                    "rubric_score_label", criterion=criterion.name(language()), low=low, high=high
                ),
                scale,
                index=scale.index(stored) if stored in scale else None,
                horizontal=True,
                key=f"score_{sample.code}_{criterion.criterion_id}",
                disabled=sample.closed,
            )
        submitted = st.form_submit_button(
            t("rubric_submit"), type="primary", disabled=sample.closed
        )
    if not submitted:
        return None
    try:
        submit_scores(
            engine(),
            token(),
            sample.code,
            {key: value for key, value in chosen.items() if value is not None},
            note or None,
            seen=sample.version,  # what the screen showed (pages.reviewer._sample_view)
        )
    except ReviewError as error:
        return _in_page_language(error, sample)
    except ReportgenError as error:
        return error
    saved_and_next(sample.code)


def _in_page_language(error: ReviewError, sample: ReviewSample) -> ReviewError:
    """`error` naming its criterion as the page does (the core names it in English)."""
    named = {c.criterion_id: c.name(language()) for c in sample.criteria}
    criterion_id = error.params.get("criterion_id")
    if not isinstance(criterion_id, str) or criterion_id not in named:
        return error
    return ReviewError(error.key, **{**error.params, "criterion": named[criterion_id]})
