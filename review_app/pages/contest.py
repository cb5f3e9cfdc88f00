"""Contestation pages: submitting one (reviewer, participant) and deciding (admin)."""

from __future__ import annotations

import streamlit as st
from sqlalchemy import or_, select

from reportgen.errors import ReportgenError
from review_app.core.db import rounds
from review_app.pages.common import engine, show_error, t, token
from review_app.pages.text import show_note
from review_app.rounds.contest import (
    JUSTIFICATION_MAX_CHARS,
    decide,
    list_contestations,
    own_window_kinds,
    submit_contestation,
)

FORM_GENERATION = "contest_form_generation"  # bumped when a contestation is accepted
SENT = "contest_sent"  # the code of the contestation just received, to confirm it


def _published_rounds() -> list[str]:
    """Rounds open to contestation: published ones, and multidomain rounds (whose test
    items' window follows their embargo, not a publication)."""
    with engine().connect() as connection:
        return list(
            connection.execute(
                select(rounds.c.round_id)
                .where(
                    or_(rounds.c.published_on.is_not(None), rounds.c.kind.in_(own_window_kinds()))
                )
                .order_by(rounds.c.round_id)
            ).scalars()
        )


def contest_page() -> None:
    st.title(t("contest_title"))
    st.caption(t("contest_help"))
    sent = st.session_state.pop(SENT, None)
    if sent is not None:
        st.success(t("contest_received", contest_id=sent))
    round_ids = _published_rounds()
    if not round_ids:
        st.info(t("no_published_rounds"))
    else:
        _contest_form(round_ids)
    st.subheader(t("my_contestations"))
    for entry in list_contestations(engine(), token()):
        st.text(f"{entry.contest_id} · {t(f'status_{entry.status}')}")
        if entry.reply:
            show_note(t("contest_reply"), entry.reply, key=f"reply_{entry.contest_id}")


def _contest_form(round_ids: list[str]) -> None:
    """The contestation form. A refused submit keeps everything typed, to be corrected;
    an accepted one starts a fresh, empty form (new keys) and says it was received."""
    generation = int(st.session_state.get(FORM_GENERATION, 0))
    with st.form(f"contest_{generation}"):
        round_id = st.selectbox(t("round"), round_ids, key=f"contest_round_{generation}")
        reference = st.text_input(t("contest_reference"), key=f"contest_reference_{generation}")
        justification = st.text_area(
            t("contest_justification"),
            max_chars=JUSTIFICATION_MAX_CHARS,
            key=f"contest_justification_{generation}",
        )
        submitted = st.form_submit_button(t("contest_submit"))
    if not submitted:
        return
    try:
        contest_id = submit_contestation(engine(), token(), str(round_id), reference, justification)
    except ReportgenError as error:
        show_error(error)
        return
    st.session_state[FORM_GENERATION] = generation + 1
    st.session_state[SENT] = contest_id
    st.rerun()


def decide_page() -> None:
    st.title(t("contestations_title"))
    entries = list_contestations(engine(), token())
    if not entries:
        st.info(t("no_contestations"))
    for entry in entries:
        flag = f" · {t('overdue')}" if entry.overdue else ""
        with st.expander(f"{entry.contest_id} · {t(f'status_{entry.status}')}{flag}"):
            st.text(
                f"{t('round')}: {entry.round_id}\n{t('item')}: {entry.item_id}\n"
                f"{t('submitted_by')}: {entry.account} · {entry.submitted_at:%Y-%m-%d}"
            )
            show_note(
                t("contest_justification"),
                entry.justification,
                key=f"justification_{entry.contest_id}",
            )
            if entry.status != "pending":
                show_note(t("contest_reply"), entry.reply, key=f"reply_{entry.contest_id}")
                continue
            reply_pt = st.text_area(t("reply_pt"), key=f"reply_pt_{entry.contest_id}")
            reply_en = st.text_area(t("reply_en"), key=f"reply_en_{entry.contest_id}")
            accept, reject = st.columns(2)
            verdict: bool | None = None
            if accept.button(t("accept"), key=f"accept_{entry.contest_id}"):
                verdict = True
            if reject.button(t("reject"), key=f"reject_{entry.contest_id}"):
                verdict = False
            if verdict is not None:
                try:
                    decide(
                        engine(),
                        token(),
                        entry.contest_id,
                        accept=verdict,
                        reply={"pt-BR": reply_pt, "en": reply_en},
                    )
                except ReportgenError as error:
                    # The other contestations (and what is typed in them) stay on the page.
                    show_error(error)
                    continue
                st.rerun()
