"""The version of each judgment the reviewer's screen shows, for the save it makes next.

Streamlit reruns the page when a button is pressed and the page loads the sample again
in that run: the version loaded then is the stored one, not the one the reviewer was
looking at. So each run remembers, per sample, the version it showed; a save in the
next run names that one (`review_app.tasks.judgment_versions` refuses it when another tab or
window has changed the judgment in between).
"""

from __future__ import annotations

import streamlit as st

from review_app.tasks.reviewing import ReviewSample

SHOWN = "shown_versions"  # session-state key: sample code -> the judgment's version shown


def seen_version(sample: ReviewSample) -> str:
    """The version of `sample`'s judgment the screen showed before this run (what a save
    made in this run acts on); remembers the one this run shows for the next."""
    shown = st.session_state.get(SHOWN)
    if not isinstance(shown, dict):
        shown = {}
        st.session_state[SHOWN] = shown
    seen = shown.get(sample.code, sample.version)
    shown[sample.code] = sample.version
    return str(seen)
