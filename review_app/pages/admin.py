"""The administrator's pages: progress and calibration, disagreements, batches."""

from __future__ import annotations

import math

import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from reportgen.audit_export import Agreement, Estimate
from reportgen.errors import ReportgenError
from reportgen.i18n import MISSING, exact_text
from review_app.pages.batch_release import auto_release_toggles, release_section
from review_app.pages.common import engine, language, show_error, t, token
from review_app.pages.tables import paged_table
from review_app.pages.text import escape_markdown as plain
from review_app.pages.text import show_note
from review_app.rounds.admin import (
    JudgedSample,
    adjudicate,
    calibrate,
    close_batch,
    disagreement_queue,
    judged_samples,
    list_batches,
    reviewer_progress,
)
from review_app.rounds.agreement import agreement
from review_app.rounds.batches import (
    SampleLeaks,
    hold_sample,
    leak_report,
    reassign,
    release_sample,
    reopen_batch,
    reviewer_loads,
    reviewer_names,
)

QUEUE_PAGE_SIZE = 25


def _number(value: float) -> str:
    """A statistic with 3 decimals, written as the report writes numbers (half-up, the
    reader's decimal separator, `reportgen.i18n.exact_text`); an undefined one as a dash."""
    return MISSING if math.isnan(value) else exact_text(value, 3, language())


def calibration_page() -> None:
    st.title(t("calibration_title"))
    st.subheader(t("progress_heading"))
    progress = reviewer_progress(engine(), token())
    if not progress:
        st.info(t("no_assignments"))
    for entry in progress:
        share = entry.judged / entry.assigned if entry.assigned else 0.0
        st.progress(share, text=f"{plain(entry.name)}: {entry.judged}/{entry.assigned}")
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
    detail = agreement(judged, task)
    reader = language()
    st.subheader(t("agreement_heading"))
    first, second, third = st.columns(3)
    first.metric(t("judged_samples"), calibration.judged_samples)
    second.metric(t("kappa_majority"), _number(calibration.kappa_majority))
    third.metric(t("alpha_reviewers"), _number(calibration.alpha_reviewers))
    st.caption(t("kappa_help"))
    _agreement_tables(detail, str(round_id))
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
            {t("model"): plain(model), t("agreement"): _number(rate)}
            for model, rate in calibration.agreement_by_model.items()
        ]
    )


def _estimate_row(figure: str, estimate: Estimate, level: float) -> dict[str, str | int]:
    interval = (
        MISSING
        if estimate.low is None or estimate.high is None
        else f"[{_number(estimate.low)}; {_number(estimate.high)}]"
    )
    return {
        t("figure"): figure,
        t("value"): _optional(estimate.value),
        t("interval", level=round(level * 100)): interval,
        t("n_column"): estimate.n,
    }


def _agreement_tables(detail: Agreement, round_id: str) -> None:
    """Each coefficient with its interval and its n; splits stated; pairs; days."""
    level = detail.bootstrap.level
    consensus = detail.consensus_vs_automatic
    rows = [
        _estimate_row(t("kappa_majority"), consensus, level),
        _estimate_row(t("judgments_kappa"), detail.judgments_vs_automatic, level),
        _estimate_row(t("alpha_reviewers"), detail.alpha_reviewers, level),
        *(
            _estimate_row(f"{t('kappa')} · {plain(name)}", estimate, level)
            for name, estimate in detail.kappa_by_reviewer.items()
        ),
    ]
    st.table(rows)
    st.caption(
        t(
            "consensus_caption",
            used=consensus.n,
            judged=detail.samples_judged,
            splits=detail.splits_left_out,
            adjudicated=detail.consensus_adjudicated,
        )
    )
    seed = detail.bootstrap.seed
    st.caption(t("bootstrap_caption", replicates=detail.bootstrap.replicates, seed=seed))
    st.subheader(t("pairwise_heading"))
    st.table(
        [
            {
                t("pair"): f"{plain(pair.first)} × {plain(pair.second)}",
                t("kappa"): _optional(pair.kappa),
                t("n_column"): pair.n,
            }
            for pair in detail.kappa_pairwise
        ]
    )
    st.subheader(t("over_time_heading"))
    # One row per reviewer and day: it grows with the round, so a page at a time.
    paged_table(
        [
            {
                t("reviewer"): point.reviewer,
                t("day"): point.day.isoformat(),
                t("agreement"): _optional(point.agreement),
                t("n_column"): point.n,
            }
            for point in detail.over_time
        ],
        key="agreement_over_time",
        file_name=f"agreement-over-time-{round_id}.csv",
    )


def _optional(value: float | None) -> str:
    return MISSING if value is None else _number(value)


def disagreements_page() -> None:
    st.title(t("disagreements_title"))
    queue = disagreement_queue(engine(), token())
    st.caption(t("disagreements_count", count=len(queue)))
    for sample in queue[:QUEUE_PAGE_SIZE]:
        with st.expander(f"{sample.code} · {t(f'why_{sample.disagreement}')}"):
            _adjudication_form(sample)


def _adjudication_form(sample: JudgedSample) -> None:
    """The texts the reviewers read beside their votes, then a decision with no default."""
    reader = language()  # captured by the format function, which AppTest calls outside
    label = sample.task.label
    texts, votes = st.columns(2)
    texts.caption(t("prompt_label"))
    texts.text(sample.prompt_text)
    texts.caption(t("output_label"))
    texts.text(sample.output_text)
    votes.caption(t("votes_heading"))
    votes.text(
        "\n".join(
            [
                f"{t('model')}: {sample.model_id}",
                f"{t('item')}: {sample.item_id}",
                t("automatic_line", label=t("parser_label"), value=label(reader, sample.automatic)),
                *(
                    t("vote_line", name=name, choice=label(reader, choice))
                    for name, choice in sample.choices.items()
                ),
            ]
        )
    )
    with votes:
        _show_notes(sample)  # each note quoted in its own box: it cannot pass for a vote
    labels = {c: label(reader, c) for c in sample.task.choices}
    choice: str | None = st.selectbox(
        t("adjudication"),
        list(labels),
        index=None,
        placeholder=t("decision_placeholder"),
        format_func=labels.__getitem__,
        key=f"adjudicate_choice_{sample.sample_id}",
    )
    note = st.text_input(t("note_label"), key=f"adjudicate_note_{sample.sample_id}")
    if st.button(t("adjudicate"), key=f"adjudicate_{sample.sample_id}"):
        if choice is None:
            st.error(t("error_decision_required"))
            return
        try:
            adjudicate(engine(), token(), sample.sample_id, choice, note)
        except ReportgenError as error:
            show_error(error)
            return
        st.rerun()


CONFIRMING = "confirm_close_batch"


def _show_notes(sample: JudgedSample) -> None:
    """Each note in its own box, quoted: no line of a note can pass for a vote."""
    for number, (name, note) in enumerate(sample.notes.items()):
        if note:
            show_note(t("note_of", name=name), note, key=f"note_{sample.sample_id}_{number}")


def batches_page() -> None:
    st.title(t("batches_title"))
    listed = list_batches(engine(), token())
    auto_release_toggles(sorted({batch.round_id for batch in listed}))
    for batch in listed:
        status = t("closed") if batch.closed else t("open")
        status += " · " + t("batch_held" if batch.held else "batch_released")
        left, right = st.columns([3, 1])
        samples = t("batch_samples", count=batch.samples)
        left.text(
            t(
                "batch_line",
                batch=batch.batch_id,
                round=batch.round_id,
                samples=samples,
                status=status,
            )
        )
        try:
            if batch.closed:
                if right.button(t("reopen_batch"), key=f"reopen_{batch.batch_id}"):
                    reopen_batch(engine(), token(), batch.batch_id)
                    st.rerun()
                continue
            _close_with_confirmation(batch.batch_id, right)
            with st.expander(t("reviewers_heading")):
                _reviewers(batch.batch_id)
            report = leak_report(engine(), token(), batch.batch_id)
            if batch.held:
                release_section(batch, report)
            # A held batch's report is open: the administrator decides with it in view.
            with st.expander(t("leak_heading"), expanded=batch.held):
                _leak_report(report)
        except ReportgenError as error:
            show_error(error)
            return


def _close_with_confirmation(batch_id: int, place: DeltaGenerator) -> None:
    """Closing is final for the reviewers: it asks first."""
    if st.session_state.get(CONFIRMING) != batch_id:
        if place.button(t("close_batch"), key=f"close_{batch_id}"):
            st.session_state[CONFIRMING] = batch_id
            st.rerun()
        return
    st.warning(t("close_confirm", batch=batch_id))
    yes, no = st.columns(2)
    if yes.button(t("confirm_close"), key=f"confirm_close_{batch_id}", type="primary"):
        st.session_state.pop(CONFIRMING, None)
        close_batch(engine(), token(), batch_id)
        st.rerun()
    if no.button(t("cancel"), key=f"cancel_close_{batch_id}"):
        st.session_state.pop(CONFIRMING, None)
        st.rerun()


def _reviewers(batch_id: int) -> None:
    """Each reviewer's load, and moving one's unjudged samples to another (or nobody)."""
    loads = reviewer_loads(engine(), token(), batch_id)
    for load in loads:
        st.text(t("reviewer_load", name=load.name, judged=load.judged, assigned=load.assigned))
    names = [load.name for load in loads]
    if not names:
        return
    source, target = st.columns(2)
    from_name = source.selectbox(t("reassign_from"), names, key=f"from_{batch_id}")
    nobody = t("unassign_option")
    to_name = target.selectbox(
        t("reassign_to"), [nobody, *reviewer_names(engine(), token())], key=f"to_{batch_id}"
    )
    if st.button(t("reassign"), key=f"reassign_{batch_id}"):
        moved = reassign(
            engine(), token(), batch_id, str(from_name), None if to_name == nobody else to_name
        )
        st.success(t("reassigned", count=moved))


def _leak_report(report: list[SampleLeaks]) -> None:
    """What still looks suspicious in each sample, with a button to hold it back."""
    st.caption(t("leak_help"))
    if not report:
        st.info(t("leak_none"))
    for entry in report:
        heading = entry.code + (f" · {t('held')}" if entry.held else "")
        st.markdown(f"**{heading}**")
        st.text(
            "\n".join(
                t(
                    "leak_line",
                    where=t("leak_in_prompt" if s.text_index == 0 else "leak_in_output"),
                    fragment=s.fragment,
                    reason=t(f"leak_reason_{s.reason}"),
                )
                for s in entry.suspicions
            )
        )
        if entry.held:
            if st.button(t("release"), key=f"release_{entry.sample_id}"):
                release_sample(engine(), token(), entry.sample_id)
                st.rerun()
        elif st.button(t("hold"), key=f"hold_{entry.sample_id}"):
            hold_sample(engine(), token(), entry.sample_id)
            st.rerun()
