"""Contestation pages: submitting one (reviewer, participant) and deciding (admin)."""

from __future__ import annotations

import streamlit as st
from sqlalchemy import select

from reportgen.errors import ReportgenError
from review_app.contest import (
    JUSTIFICATION_MAX_CHARS,
    decide,
    list_contestations,
    submit_contestation,
)
from review_app.db import rounds
from review_app.ui_common import engine, show_error, t, token


def _published_rounds() -> list[str]:
    with engine().connect() as connection:
        return list(
            connection.execute(
                select(rounds.c.round_id)
                .where(rounds.c.published_on.is_not(None))
                .order_by(rounds.c.round_id)
            ).scalars()
        )


def contest_page() -> None:
    st.title(t("contest_title"))
    st.caption(t("contest_help"))
    round_ids = _published_rounds()
    if not round_ids:
        st.info(t("no_published_rounds"))
    else:
        with st.form("contest", clear_on_submit=True):
            round_id = st.selectbox(t("round"), round_ids)
            reference = st.text_input(t("contest_reference"))
            justification = st.text_area(
                t("contest_justification"), max_chars=JUSTIFICATION_MAX_CHARS
            )
            if st.form_submit_button(t("contest_submit")):
                try:
                    contest_id = submit_contestation(
                        engine(), token(), str(round_id), reference, justification
                    )
                except ReportgenError as error:
                    show_error(error)
                else:
                    st.success(t("contest_received", contest_id=contest_id))
    st.subheader(t("my_contestations"))
    for entry in list_contestations(engine(), token()):
        st.text(
            f"{entry.contest_id} · {t(f'status_{entry.status}')}"
            + (f"\n{entry.reply}" if entry.reply else "")
        )


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
                f"{t('submitted_by')}: {entry.account} · {entry.submitted_at:%Y-%m-%d}\n\n"
                f"{entry.justification}"
            )
            if entry.status != "pending":
                st.text(entry.reply)
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
                    show_error(error)
                    return
                st.rerun()
