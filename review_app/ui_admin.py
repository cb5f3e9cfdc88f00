"""The administrator's pages: progress and calibration, disagreements, batches."""

from __future__ import annotations

import math

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.admin import (
    JudgedSample,
    adjudicate,
    calibrate,
    close_batch,
    disagreement_queue,
    judged_samples,
    list_batches,
    reviewer_progress,
)
from review_app.ui_common import engine, language, show_error, t, token
from review_app.ui_text import show_note

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
    judged = judged_samples(engine(), token())
    if judged:
        _round_calibration(judged)


def _round_calibration(judged: list[JudgedSample]) -> None:
    """Agreement of one round (its kind's task decides the comparison): the only round,
    or the one the administrator picks."""
    round_ids = sorted({s.round_id for s in judged})
    round_id = (
        round_ids[0] if len(round_ids) == 1 else st.selectbox(t("round"), round_ids, key="round")
    )
    judged = [s for s in judged if s.round_id == round_id]
    task = judged[0].task
    calibration = calibrate(judged, task)
    reader = language()
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
            {t("reviewer_choice"): task.label(reader, choice)}
            | {
                t("parser_column", label=task.label(reader, value)): count
                for value, count in zip(task.automatic_values, row, strict=True)
            }
            for choice, row in zip(task.choices, calibration.confusion, strict=True)
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
                        f"{t('parser_label')}: {sample.automatic}",
                        *(f"{name}: {choice}" for name, choice in sample.choices.items()),
                    ]
                )
            )
            _show_notes(sample)
            labels = {c: sample.task.label(reader, c) for c in sample.task.choices}
            choice: str = st.selectbox(
                t("adjudication"),
                list(labels),
                format_func=labels.__getitem__,
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


def _show_notes(sample: JudgedSample) -> None:
    """Each note in its own box, quoted: no line of a note can pass for a vote."""
    for number, (name, note) in enumerate(sample.notes.items()):
        if note:
            show_note(t("note_of", name=name), note, key=f"note_{sample.sample_id}_{number}")


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
