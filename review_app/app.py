"""The Streamlit entry point: login, then the pages the account's role allows.

Run with `reportgen review serve`. Every page function calls the data layer with the
session token; the data layer checks the role again, so hiding a page here is a
convenience, not the protection. A reload or a new tab finds the token again in the
session cookie (ui_common); the server decides on every run whether it is still good.
"""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from reportgen.errors import ReportgenError
from review_app.auth import Identity, login, logout, require
from review_app.errors import ReviewError, SessionExpired
from review_app.i18n import LANGUAGE_NAMES, LANGUAGES, translate
from review_app.ui_accounts import accounts_page
from review_app.ui_admin import batches_page, calibration_page, disagreements_page
from review_app.ui_cf_admin import cf_calibration_page
from review_app.ui_common import (
    client_address,
    cookie_token,
    engine,
    forget_session,
    language,
    page_setup,
    remember_session,
    show_error,
    show_saved,
    t,
    t_md,
    token,
    write_cookie,
)
from review_app.ui_contest import contest_page, decide_page
from review_app.ui_md_admin import md_audit_page, md_calibration_page, md_contamination_page
from review_app.ui_reviewer import guidelines_page, review_page
from review_app.ui_setup import show_setup_help

PAGES: dict[str, dict[str, Callable[[], None]]] = {
    "reviewer": {
        "page_review": review_page,
        "page_contest": contest_page,
        "page_guidelines": guidelines_page,
    },
    "admin": {
        "page_calibration": calibration_page,
        "page_disagreements": disagreements_page,
        "page_contestations": decide_page,
        "page_batches": batches_page,
        "md_page_audit": md_audit_page,
        "md_page_calibration": md_calibration_page,
        "md_page_contamination": md_contamination_page,
        "cf_page_calibration": cf_calibration_page,
        "page_accounts": accounts_page,
    },
    "participant": {"page_contest": contest_page, "page_guidelines": guidelines_page},
}


def _language_picker() -> None:
    st.sidebar.selectbox(
        t("language"),
        LANGUAGES,
        format_func=lambda code: LANGUAGE_NAMES[code],
        key="language",
    )


def _login_form() -> None:
    st.title(t("app_title"))
    with st.form("login"):
        name = st.text_input(t("name"), key="login_name")
        password = st.text_input(t("password"), type="password", key="login_password")
        submitted = st.form_submit_button(t("login"))
    if submitted:
        try:
            session = login(engine(), name, password, client=client_address())
            st.session_state["token"] = session
            remember_session(session)
            # The picker's widget already exists in this run, so its key cannot change
            # now; main() applies the account's preferred language on the rerun.
            st.session_state["account_language"] = require(engine(), session).language
        except ReportgenError as error:
            show_error(error)
            return
        except SQLAlchemyError as error:
            st.error(t("error_database", kind=type(error).__name__))
            return
        finally:
            # The password must not linger in the session state.
            st.session_state.pop("login_password", None)
        st.rerun()


def _identity() -> Identity | None:
    """Who is logged in: the tab's token, else the one its session cookie brings back."""
    session = token()
    restored = session is None
    if restored:
        session = cookie_token()
        if session is None:
            return None
    try:
        me = require(engine(), session)
    except SessionExpired as error:
        show_error(error)
        st.session_state.pop("token", None)
        forget_session()  # a stale cookie would be tried again on every run
        return None
    if restored:
        st.session_state["token"] = session
        st.session_state["account_language"] = me.language
    return me


def _logout() -> None:
    logout(engine(), str(token()))
    for key in list(st.session_state):
        if key != "language":
            del st.session_state[key]
    forget_session()
    st.rerun()


def main() -> None:
    st.set_page_config(page_title="Estigmas · revisão", layout="wide")
    # No traceback reaches anyone, whatever config the app was started with.
    st.set_option("client.showErrorDetails", "none")
    if "language" not in st.session_state:
        st.session_state["language"] = "pt-BR"
    try:
        me = _identity()
    except ReviewError as error:  # e.g. a control character in a forged cookie
        show_error(error)
        me = None
    account_language = st.session_state.pop("account_language", None)
    if account_language in LANGUAGES:
        st.session_state["language"] = account_language
    _language_picker()
    page_setup()
    write_cookie()
    if me is None:
        if not show_setup_help():  # no account yet: how to make one, not a login form
            _login_form()
        return
    show_saved()
    pages = PAGES[me.role]
    st.sidebar.caption(t_md("signed_in_as", name=me.name))
    # The format function captures the language: AppTest calls it outside the session.
    reader = language()
    choice = st.sidebar.radio(
        t("navigation"),
        list(pages),
        format_func=lambda key: translate(reader, key),
        key="page",
    )
    if st.sidebar.button(t("logout"), key="logout"):
        _logout()
    try:
        pages[str(choice)]()
    except ReportgenError as error:
        show_error(error)
    except SQLAlchemyError as error:  # its text would show the SQL and the table's columns
        st.error(t("error_database", kind=type(error).__name__))


main()
