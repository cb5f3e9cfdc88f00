"""The administrator's counterfactual page: the calibration's progress and the mask audit.

Every figure comes from the kind's data layer (`reportgen.kinds.counterfactual.review`:
`admin`, `mask_audit`), which checks the admin role again. The flagged masked inputs are
shown as typed (`st.text`): they are data. Each flagged sample is decided here: mask held, or mask
leaked (its judge score void for the analysis). Mounted through the kind's review part
(`part.REVIEW.pages`).
"""

from __future__ import annotations

import streamlit as st

from reportgen.kinds.counterfactual.review.admin import (
    MaskFlag,
    calibration_progress,
    counterfactual_rounds,
    mask_flag_list,
)
from reportgen.kinds.counterfactual.review.mask_audit import (
    DECISIONS,
    LEAKED,
    decide_mask,
    mask_decision_map,
)
from review_app.pages.common import engine, t, t_md, token


def cf_calibration_page() -> None:
    st.title(t("cf_admin_title"))
    round_ids = counterfactual_rounds(engine(), token())
    if not round_ids:
        st.info(t("cf_no_rounds"))
        return
    round_id = (
        round_ids[0]
        if len(round_ids) == 1
        else str(st.selectbox(t("cf_round"), round_ids, key="cf_round"))
    )
    st.subheader(t("cf_progress_heading"))
    for progress in calibration_progress(engine(), token(), round_id):
        st.text(
            t(
                "cf_progress",
                batch_id=progress.batch_id,
                scored=progress.scored,
                drawn=progress.drawn,
                flagged=progress.flagged,
                min_items=progress.min_items,
            )
        )
    st.subheader(t("cf_mask_audit_heading"))
    st.caption(t("cf_mask_audit_intro"))
    flags = mask_flag_list(engine(), token(), round_id)
    if not flags:
        st.info(t("cf_mask_audit_empty"))
        return
    decided = mask_decision_map(engine(), token(), round_id)
    voided = sum(1 for decision in decided.values() if decision == LEAKED)
    st.text(t("cf_mask_audit_tally", decided=len(decided), voided=voided))
    for flag in flags:
        _flag_box(flag, round_id, decided.get(flag.code))


def _flag_box(flag: MaskFlag, round_id: str, decision: str | None) -> None:
    with st.container(border=True, key=f"cf_flag_{flag.code}_{flag.reviewer}"):
        st.caption(
            t_md(
                "cf_mask_flag_row",
                code=flag.code,
                variable=flag.variable_id,
                model=flag.model_id,
                item=flag.item_id,
                run=flag.run,
                reviewer=flag.reviewer,
                date=flag.flagged_at.date().isoformat(),
            )
        )
        st.text(flag.text)
        st.text(t(f"cf_mask_decision_{decision}") if decision else t("cf_mask_undecided"))
        for choice, column in zip(DECISIONS, st.columns(len(DECISIONS)), strict=True):
            key = f"cf_mask_{choice}_{flag.code}_{flag.reviewer}"
            if column.button(t(f"cf_mask_decide_{choice}"), key=key, disabled=choice == decision):
                decide_mask(engine(), token(), round_id, flag.code, choice)
                st.rerun()
