"""The administrator's accounts page: create, disable, reset a password, end sessions,
unlock a name that failed logins hold back, set the preferred language.

A generated password appears once, on the run that made it, and is kept nowhere (not even
in the session state): whoever hands it over copies it then. Names are shown with
`st.text`: a name is data, and Markdown in it must not render.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from reportgen.errors import ReportgenError
from review_app.core.accounts import (
    AccountRow,
    create_account,
    list_accounts,
    reset_password,
    revoke_sessions,
    set_disabled,
    set_language,
    unlock_logins,
)
from review_app.core.db import ROLES
from review_app.i18n import LANGUAGE_NAMES, LANGUAGES, translate
from review_app.pages.common import engine, language, show_error, t, t_md, token

NOTICE = "accounts_notice"  # session-state key: what the last action did, shown after a rerun


def accounts_page() -> None:
    st.title(t("accounts_title"))
    notice = st.session_state.pop(NOTICE, None)
    if isinstance(notice, str):
        st.success(notice)
    _new_account_form()
    for account in list_accounts(engine(), token()):
        _account_panel(account)


def _new_account_form() -> None:
    reader = language()  # the format functions run outside the session in AppTest
    with st.form("new_account"):
        st.subheader(t("account_new"))
        name = st.text_input(t("name"), key="new_account_name", max_chars=80)
        role = st.selectbox(
            t("role"),
            ROLES,
            format_func=lambda code: translate(reader, f"role_{code}"),
            key="new_account_role",
        )
        preferred = st.selectbox(
            t("preferred_language"),
            LANGUAGES,
            format_func=lambda code: LANGUAGE_NAMES[code],
            key="new_account_language",
        )
        submitted = st.form_submit_button(t("create_account"))
    if not submitted:
        return
    try:
        _, password = create_account(engine(), token(), name, str(role), str(preferred))
    except ReportgenError as error:
        show_error(error)
        return
    st.success(t_md("account_created", name=name.strip()))
    st.code(password, language=None)


def _account_panel(account: AccountRow) -> None:
    reader = language()
    number = account.account_id
    status = t("account_disabled") if account.disabled else t("account_active")
    with st.container(border=True):
        role = translate(reader, f"role_{account.role}")
        st.text(t("account_heading", name=account.name, role=role, status=status))
        st.caption(t("open_sessions", count=account.live_sessions))
        if account.locked:
            st.caption(t("account_locked"))
            if st.button(t("unlock_account"), key=f"unlock_{number}"):
                _act(account, lambda: unlock_logins(engine(), token(), number))
        toggle, reset, revoke = st.columns(3)
        toggle_label = t("enable_account") if account.disabled else t("disable_account")
        if toggle.button(toggle_label, key=f"toggle_{number}"):
            _act(account, lambda: set_disabled(engine(), token(), number, not account.disabled))
        if revoke.button(t("revoke_sessions"), key=f"revoke_{number}"):
            _act(account, lambda: revoke_sessions(engine(), token(), number))
        if reset.button(t("reset_password"), key=f"reset_{number}"):
            try:
                password = reset_password(engine(), token(), number)
            except ReportgenError as error:
                show_error(error)
            else:
                st.success(t_md("password_reset_done", name=account.name))
                st.code(password, language=None)
        choice, save = st.columns([3, 1])
        preferred = choice.selectbox(
            t("preferred_language"),
            LANGUAGES,
            index=LANGUAGES.index(account.language) if account.language in LANGUAGES else 0,
            format_func=lambda code: LANGUAGE_NAMES[code],
            key=f"language_{number}",
        )
        if save.button(t("save_language"), key=f"save_language_{number}"):
            _act(account, lambda: set_language(engine(), token(), number, str(preferred)))


def _act(account: AccountRow, action: Callable[[], object]) -> None:
    """Run an account action; on success show the refreshed list with a notice."""
    try:
        action()
    except ReportgenError as error:
        show_error(error)
        return
    st.session_state[NOTICE] = t_md("account_updated", name=account.name)
    st.rerun()
