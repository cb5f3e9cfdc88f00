"""The batches page's leak review: the release of a held batch and the rounds' automatic
release of clean batches (review_app.rounds.batch_release)."""

from __future__ import annotations

import streamlit as st

from review_app.pages.common import engine, t, token
from review_app.rounds.admin import BatchInfo
from review_app.rounds.batch_release import release_batch, round_auto_release, set_auto_release
from review_app.rounds.batches import SampleLeaks


def auto_release_toggles(round_ids: list[str]) -> None:
    """One switch per round: release its clean batches automatically (audited)."""
    for round_id in round_ids:
        on = round_auto_release(engine(), token(), round_id)
        wanted = st.toggle(
            t("auto_release_label", round=round_id),
            value=on,
            key=f"auto_release_{round_id}",
            help=t("auto_release_help"),
        )
        if wanted != on:
            set_auto_release(engine(), token(), round_id, wanted)
            st.rerun()


def release_section(batch: BatchInfo, report: list[SampleLeaks]) -> None:
    """A held batch: what holding means, the leak report's figures and the release
    button; the page shows the report itself right below."""
    st.warning(t("release_held_info", batch=batch.batch_id))
    flagged = sum(1 for entry in report if entry.suspicions)
    held = sum(1 for entry in report if entry.held)
    st.caption(t("release_summary", flagged=flagged, samples=batch.samples, held=held))
    if st.button(t("release_batch"), key=f"release_batch_{batch.batch_id}", type="primary"):
        release_batch(engine(), token(), batch.batch_id)
        st.rerun()
