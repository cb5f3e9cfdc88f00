"""The administrator's counterfactual page: the calibration's progress and the mask audit.

Every figure comes from the data layer (`review_app.cf_admin`), which checks the admin
role again. The flagged masked inputs are shown as typed (`st.text`): they are data.
"""

from __future__ import annotations

import streamlit as st

from review_app.cf_admin import calibration_progress, counterfactual_rounds, mask_flag_list
from review_app.ui_common import engine, t, t_md, token


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
    for flag in flags:
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
