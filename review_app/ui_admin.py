"""The administrator's pages: progress and calibration, disagreements, batches."""

from __future__ import annotations

import math

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.admin import (
    PARSER_LABELS,
    adjudicate,
    calibrate,
    close_batch,
    disagreement_queue,
    judged_samples,
    list_batches,
    reviewer_progress,
)
from review_app.db import CHOICES
from review_app.i18n import translate
from review_app.ui_common import engine, language, show_error, t, token

QUEUE_PAGE_SIZE = 25


def _number(value: float) -> str:
    return "—" if math.isnan(value) else f"{value:.3f}"


def calibration_page() -> None:
    st.title(t("calibration_title"))
    st.subheader(t("progress_heading"))
    progress = reviewer_progress(engine(), token())
    if not progress:
        st.info(t("no_assignments"))
    for entry in progress:
        share = entry.judged / entry.assigned if entry.assigned else 0.0
        st.progress(share, text=f"{entry.name}: {entry.judged}/{entry.assigned}")
    calibration = calibrate(judged_samples(engine(), token()))
    st.subheader(t("agreement_heading"))
    first, second, third = st.columns(3)
    first.metric(t("judged_samples"), calibration.judged_samples)
    second.metric(t("kappa_majority"), _number(calibration.kappa_majority))
    third.metric(t("alpha_reviewers"), _number(calibration.alpha_reviewers))
    st.caption(t("kappa_help"))
    st.table(
        [
            {t("reviewer"): name, t("kappa"): _number(kappa)}
            for name, kappa in calibration.kappa_by_reviewer.items()
        ]
    )
    st.subheader(t("confusion_heading"))
    st.table(
        [
            {t("reviewer_choice"): t(f"choice_{choice}")}
            | {t(f"parser_{label}"): count for label, count in zip(PARSER_LABELS, row, strict=True)}
            for choice, row in zip(CHOICES, calibration.confusion, strict=True)
        ]
    )
    st.subheader(t("agreement_by_model_heading"))
    st.table(
        [
            {t("model"): model, t("agreement"): _number(rate)}
            for model, rate in calibration.agreement_by_model.items()
        ]
    )


def disagreements_page() -> None:
    st.title(t("disagreements_title"))
    queue = disagreement_queue(engine(), token())
    reader = language()  # captured by the format function, which AppTest calls outside
    st.caption(t("disagreements_count", count=len(queue)))
    for sample in queue[:QUEUE_PAGE_SIZE]:
        with st.expander(f"{sample.code} · {t(f'why_{sample.disagreement}')}"):
            st.text(
                "\n".join(
                    [
                        f"{t('model')}: {sample.model_id}",
                        f"{t('item')}: {sample.item_id}",
                        f"{t('parser_label')}: {sample.parser_label}",
                        *(
                            f"{name}: {choice}"
                            + (f" — {sample.notes[name]}" if name in sample.notes else "")
                            for name, choice in sample.choices.items()
                        ),
                    ]
                )
            )
            choice = st.selectbox(
                t("adjudication"),
                CHOICES,
                format_func=lambda c: translate(reader, f"choice_{c}"),
                key=f"adjudicate_choice_{sample.sample_id}",
            )
            note = st.text_input(t("note_label"), key=f"adjudicate_note_{sample.sample_id}")
            if st.button(t("adjudicate"), key=f"adjudicate_{sample.sample_id}"):
                try:
                    adjudicate(engine(), token(), sample.sample_id, choice, note)
                except ReportgenError as error:
                    show_error(error)
                    return
                st.rerun()


def batches_page() -> None:
    st.title(t("batches_title"))
    for batch in list_batches(engine(), token()):
        status = t("closed") if batch.closed else t("open")
        left, right = st.columns([3, 1])
        left.text(
            t(
                "batch_line",
                batch=batch.batch_id,
                round=batch.round_id,
                samples=batch.samples,
                status=status,
            )
        )
        if not batch.closed and right.button(t("close_batch"), key=f"close_{batch.batch_id}"):
            try:
                close_batch(engine(), token(), batch.batch_id)
            except ReportgenError as error:
                show_error(error)
                return
            st.rerun()
