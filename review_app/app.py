"""The Streamlit entry point: login, then the pages the account's role allows.

Run with `reportgen review serve` (review_app.server). Every page function calls the data
layer with the session token; the data layer checks the role again, so hiding a page here
is a convenience, not the protection. The token lives in an HttpOnly cookie that only the
server's routes write (review_app.core.web): the login form issues a one-time ticket and sends
the page to the route that redeems it; every run reads the cookie the page's connection
brought and checks it, with the browser's fingerprint, on the server.
"""

from __future__ import annotations

import streamlit as st
from sqlalchemy.exc import SQLAlchemyError

from reportgen.errors import ReportgenError
from review_app.core.auth import Identity, logout, require
from review_app.core.errors import ReviewError, SessionExpired
from review_app.core.web import LOGOUT_ROUTE, SESSION_ROUTE
from review_app.core.web_sessions import issue_ticket, redeem_ticket
from review_app.i18n import LANGUAGE_NAMES, LANGUAGES, translate
from review_app.pages.common import (
    browser_fingerprint,
    cookie_token,
    engine,
    ignore_cookie,
    language,
    page_setup,
    post_to_server,
    show_error,
    show_saved,
    t,
    t_md,
    token,
    without_browser,
)
from review_app.pages.navigation import pages_of
from review_app.pages.setup import show_setup_help


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
    if not submitted:
        return
    try:
        ticket = issue_ticket(engine(), name, password, fingerprint=browser_fingerprint())
    except ReportgenError as error:
        show_error(error)
        return
    except SQLAlchemyError as error:
        st.error(t("error_database", kind=type(error).__name__))
        return
    finally:
        # The password must not linger in the session state.
        st.session_state.pop("login_password", None)
    if without_browser():
        # AppTest only: no browser, no route; the session lives in this session state.
        st.session_state["token"] = redeem_ticket(
            engine(), ticket, fingerprint=browser_fingerprint()
        )
        st.rerun()
    # The server redeems the ticket, sets the cookie and brings the page back, logged in.
    st.caption(t("login_redirecting"))
    post_to_server(SESSION_ROUTE, {"ticket": ticket})


def _identity() -> Identity | None:
    """Who is logged in: the session the cookie names (in AppTest, the session state's),
    if it is live and was opened by this browser."""
    session = token() if without_browser() else cookie_token()
    if session is None:
        st.session_state.pop("token", None)
        return None
    try:
        me = require(engine(), session, fingerprint=browser_fingerprint())
    except SessionExpired as error:
        show_error(error)
        st.session_state.pop("token", None)
        ignore_cookie()  # the login form replaces it with a new one
        return None
    st.session_state["token"] = session  # what the pages pass to the data layer
    if st.session_state.get("signed_in_as") != me.account_id:
        # A new login: the account's preferred language, once (the picker rules after).
        st.session_state["signed_in_as"] = me.account_id
        st.session_state["account_language"] = me.language
    return me


def _logout() -> None:
    logout(engine(), str(token()))
    for key in list(st.session_state):
        if key != "language":
            del st.session_state[key]
    ignore_cookie()
    if without_browser():
        st.rerun()
    # The server deletes the cookie (the session is revoked already) and shows the login.
    post_to_server(LOGOUT_ROUTE, {})
    st.stop()


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
    if me is None:
        if not show_setup_help():  # no account yet: how to make one, not a login form
            _login_form()
        return
    show_saved()
    pages = pages_of(me.role)
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
