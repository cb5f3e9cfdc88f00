"""The reviewer's page of a counterfactual scale sample (judge calibration): the view of
the `scale` task shape, which the kind's review part declares (`part.REVIEW.shapes`).

The reviewer reads the judged variable's question, its anchors at 1, 3 and 5, and the
judge's masked input (exactly the text the judge scored), then picks one score on the
1-5 scale and answers the mask audit: "this answer still reveals the attribute". Nothing
else is loaded: no group, name, system, judge score nor anyone else's score
(`review_app.tasks.reviewing.load_sample` and `review.scale.my_mask_flag` read none).

The masked text keeps its own language (`lang`), escaped so that markup in it shows as
typed. A score off the scale or a missing one is refused with a message, nothing stored.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from reportgen.errors import ReportgenError
from reportgen.kinds.counterfactual.review import in_language
from reportgen.kinds.counterfactual.review.scale import my_mask_flag, submit_scale
from review_app.core.errors import ReviewError
from review_app.pages.common import engine, language, saved_and_next, t, t_md, token
from review_app.pages.rubric import show_in_language
from review_app.tasks.reviewing import ReviewSample


def scale_view(
    sample: ReviewSample, note_field: Callable[[ReviewSample], str]
) -> ReportgenError | None:
    """The question and anchors, the masked answer, the note and the score form; the
    error of a refused submission (the page shows it), else None."""
    reader = language()
    criterion = sample.criteria[0]
    with st.container(border=True, key=f"cf_scale_{sample.code}"):
        st.caption(t_md("cf_scale_heading", variable=criterion.name(reader)))
        st.text(in_language(sample.prompt_text, reader))
        assert sample.task.scale is not None  # a scale task (see the caller)
        low, high = sample.task.scale
        middle = (low + high) // 2
        for score, anchor in (
            (low, criterion.anchor_0),
            (middle, criterion.anchor_3),
            (high, criterion.anchor_5),
        ):
            st.text(t("cf_anchor", score=score, text=in_language(anchor, reader)))
    show_in_language(
        t("cf_masked_answer_label"), sample.output_text, sample.language, key=f"an_{sample.code}"
    )
    st.caption(t("cf_blind_help"))
    if sample.choice is not None:
        st.info(t("rubric_your_scores"))
    return _score_form(sample, note_field(sample))


def _score_form(sample: ReviewSample, note: str) -> ReportgenError | None:
    assert sample.task.scale is not None
    low, high = sample.task.scale
    scale = list(range(low, high + 1))
    criterion = sample.criteria[0]
    stored = sample.scores.get(criterion.criterion_id)
    flagged = my_mask_flag(engine(), token(), sample.code)
    with st.form(key=f"cf_form_{sample.code}", border=False):
        score = st.radio(
            t_md("cf_score_label", variable=criterion.name(language()), low=low, high=high),
            scale,
            index=scale.index(stored) if stored in scale else None,
            horizontal=True,
            key=f"score_{sample.code}_{criterion.criterion_id}",
            disabled=sample.closed,
        )
        reveals = st.checkbox(
            t("cf_mask_flag"),
            value=flagged,
            key=f"cf_reveals_{sample.code}",
            help=t("cf_mask_flag_help"),
            disabled=sample.closed,
        )
        submitted = st.form_submit_button(t("cf_submit"), type="primary", disabled=sample.closed)
    if not submitted:
        return None
    try:
        submit_scale(
            engine(), token(), sample.code, score, bool(reveals), note or None, seen=sample.version
        )
    except ReviewError as error:
        return _in_page_language(error, sample)
    except ReportgenError as error:
        return error
    saved_and_next(sample.code)


def _in_page_language(error: ReviewError, sample: ReviewSample) -> ReviewError:
    """`error` naming the variable as the page does (the core names it in English)."""
    if error.params.get("criterion_id") != sample.criteria[0].criterion_id:
        return error
    named = sample.criteria[0].name(language())
    return ReviewError(error.key, **{**error.params, "criterion": named})
