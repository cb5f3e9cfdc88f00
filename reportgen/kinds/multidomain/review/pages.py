"""The administrator's multidomain pages: the Art. 26 audit, the Art. 22 calibration and
the Art. 33–34 contamination queue. Every figure comes from the kind's review modules
(`audit`, `calibration`, `contamination`), which check the admin role again.

The review app mounts them through the kind's review part (`part.REVIEW.pages`, each
named as "module:function"); no module imports this one."""

from __future__ import annotations

import streamlit as st

from reportgen.errors import ReportgenError
from reportgen.kinds.multidomain.review.audit import (
    AuditView,
    audit_view,
    invalidate_item,
    multidomain_rounds,
)
from reportgen.kinds.multidomain.review.calibration import calibration_view
from reportgen.kinds.multidomain.review.contamination import (
    Finding,
    contamination_queue,
    record_outcome,
)
from reportgen.kinds.multidomain.review.format import DASH, decimal_text, rate_text
from review_app.i18n import translate
from review_app.pages.common import engine, language, show_error, t, t_md, token
from review_app.pages.tables import paged_table

_FLASH = "md_flash"


def _round_id() -> str | None:
    """The multidomain round shown: the only one, or the one the administrator picks."""
    round_ids = multidomain_rounds(engine(), token())
    if not round_ids:
        st.info(t("md_no_rounds"))
        return None
    if len(round_ids) == 1:
        return round_ids[0]
    return str(st.selectbox(t("md_round"), round_ids, key="md_round"))


def _flash() -> None:
    """The confirmation of the last action (the page reruns after one)."""
    message = st.session_state.pop(_FLASH, None)
    if isinstance(message, str):
        st.success(message)


def md_audit_page() -> None:
    st.title(t("md_audit_title"))
    _flash()
    round_id = _round_id()
    if round_id is None:
        return
    view = audit_view(engine(), token(), round_id)
    reader = language()
    threshold = decimal_text(view.threshold, 2, reader)
    st.caption(t("md_audit_intro", threshold=threshold))
    if not view.responses:
        st.info(t("md_audit_empty"))
    else:
        _divergence_table(view, reader, round_id)
    for item_id in view.items_above:
        trigger = view.trigger(item_id)
        assert trigger is not None  # the item is above because a response is
        text = t_md(
            "md_item_above",
            item_id=item_id,
            divergence=decimal_text(trigger.divergence, 2, reader),
            threshold=threshold,
            audit_id=trigger.audit_id,
        )
        if item_id in view.annulled:
            st.info(f"{text} — {t_md('md_item_annulled', source=view.annulled[item_id])}")
        else:
            st.warning(text)
    _invalidate_form(round_id)


def _divergence_table(view: AuditView, reader: str, round_id: str) -> None:
    """Every audited response, a page at a time (paged_table), and all of them as CSV."""
    threshold = decimal_text(view.threshold, 2, reader)
    rows = [
        {
            t("md_col_audit_id"): r.audit_id,
            t("md_col_item"): r.item_id,
            t("md_col_participant"): r.model_id,
            t("md_col_run"): str(r.run),
            t("md_col_reviewer"): r.reviewer,
            t("md_col_human"): decimal_text(r.human, 2, reader),
            t("md_col_final"): decimal_text(r.final, 2, reader),
            t("md_col_difference"): decimal_text(r.difference, 2, reader),
            t("md_col_flag"): t("md_flag_above", threshold=threshold) if view.above(r) else DASH,
            t("md_col_status"): t("md_item_annulled", source=view.annulled[r.item_id])
            if r.item_id in view.annulled
            else DASH,
        }
        # The responses that decide (above the threshold, then the largest differences)
        # first: an audit holds thousands of rows, and the first page shows these.
        for r in sorted(
            view.responses,
            key=lambda r: (not view.above(r), -abs(r.difference), r.item_id),
        )
    ]
    paged_table(rows, key="md_audit_rows", file_name=f"audit-{round_id}.csv")


def _invalidate_form(round_id: str) -> None:
    st.subheader(t("md_invalidate_heading"))
    item_id = st.text_input(t("md_invalidate_item_label"), key="md_invalidate_item")
    if st.button(t("md_invalidate"), key="md_invalidate"):
        try:
            audit_id = invalidate_item(engine(), token(), round_id, item_id.strip())
        except ReportgenError as error:
            show_error(error)
            return
        st.session_state[_FLASH] = t_md(
            "md_invalidated", item_id=item_id.strip(), audit_id=audit_id
        )
        st.rerun()


def md_calibration_page() -> None:
    st.title(t("md_calibration_title"))
    round_id = _round_id()
    if round_id is None:
        return
    st.caption(t("md_calibration_intro"))
    shown = calibration_view(engine(), token(), round_id)
    reader = language()
    st.subheader(t("md_hit_rates"))
    paged_table(
        [
            {
                t("md_col_item"): entry.item_id,
                t("md_col_language"): entry.language,
                t("md_col_responses"): str(entry.responses),
                t("md_col_hit_rate"): rate_text(entry.hit_rate.fraction, reader),
                t("md_col_band"): t("md_revise") if entry.flagged else DASH,
            }
            for entry in shown.items
        ],
        key="md_hit_rates",
        file_name=f"calibration-{round_id}.csv",
    )
    st.subheader(t("md_parity"))
    st.table(
        [
            {
                t("md_col_language"): entry.language,
                t("md_col_responses"): str(entry.responses),
                t("md_col_hit_rate"): rate_text(entry.hit_rate.fraction, reader),
            }
            for entry in shown.languages
        ]
    )
    gap = None if shown.parity_gap is None else shown.parity_gap.fraction
    difference = None if shown.mean_abs_jury_human is None else shown.mean_abs_jury_human.fraction
    st.markdown(
        "\n".join(
            [
                f"- {t('md_gap', gap=rate_text(gap, reader))}",
                f"- {t('md_alpha', alpha=decimal_text(shown.alpha, 3, reader))}",
                f"- {t('md_mean_diff', diff=decimal_text(difference, 2, reader))}",
            ]
        )
    )


def md_contamination_page() -> None:
    st.title(t("md_contamination_title"))
    _flash()
    round_id = _round_id()
    if round_id is None:
        return
    queue = contamination_queue(engine(), token(), round_id)
    if not queue:
        st.info(t("md_contamination_empty"))
        return
    reader = language()
    paged_table(
        [_finding_row(finding, reader) for finding in queue],
        key="md_findings",
        file_name=f"contamination-{round_id}.csv",
    )
    pending = [f.finding_id for f in queue if f.outcome is None]
    if pending:
        _outcome_form(round_id, pending)


def _finding_row(finding: Finding, reader: str) -> dict[str, str]:
    evidence = (
        decimal_text(finding.containment, 2, reader)
        if finding.containment is not None
        else t("md_evidence_chars", count=finding.common_chars)
    )
    return {
        t("md_col_finding"): finding.finding_id,
        t("md_col_check"): t(f"md_check_{finding.finding}"),
        t("md_col_item"): finding.item_id,
        t("md_col_participant"): finding.model_id,
        t("md_col_run"): str(finding.run),
        t("md_col_evidence"): evidence,
        t("md_col_outcome"): t(f"md_outcome_{finding.outcome or 'pending'}"),
        t("md_col_note"): finding.note or DASH,
    }


def _outcome_form(round_id: str, pending: list[str]) -> None:
    st.subheader(t("md_decide_heading"))
    finding_id = st.selectbox(t("md_col_finding"), pending, key="md_finding")
    # The format function captures the language: AppTest calls it outside the session.
    reader = language()
    outcome = st.radio(
        t("md_outcome_label"),
        ["confirmed", "dismissed"],
        format_func=lambda value: translate(reader, f"md_outcome_{value}"),
        key="md_outcome",
    )
    note = st.text_area(t("md_note_label"), key="md_outcome_note")
    if st.button(t("md_record"), key="md_record"):
        try:
            ref = record_outcome(engine(), token(), round_id, str(finding_id), str(outcome), note)
        except ReportgenError as error:
            show_error(error)
            return
        key = "md_recorded_line" if ref else "md_recorded"
        st.session_state[_FLASH] = t_md(key, finding_id=finding_id, ref=ref)
        st.rerun()
