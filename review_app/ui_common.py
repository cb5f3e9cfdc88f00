"""What every page of the app shares: the engine, the language, error display and the
session cookie that keeps a person logged in across a reload or a new tab."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

import streamlit as st
from sqlalchemy import Engine

from reportgen.errors import ReportgenError
from review_app.auth import SESSION_LIFETIME
from review_app.errors import ReviewError
from review_app.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate
from review_app.storage import database_url, open_database
from review_app.ui_text import escape_markdown, escaped_params

DB_URL_VARIABLE = "REVIEW_DB_URL"  # set by `reportgen review serve` for the app's process
SESSION_COOKIE = "reportgen_review_session"
# What auth.login's tokens look like (secrets.token_urlsafe(32)); anything else in the
# cookie is ignored, and nothing else is ever written into the cookie string.
_TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
_COOKIE_ACTION = "cookie_action"  # session-state key: the cookie to write on this run
_SIGNED_OUT = "signed_out"  # session-state key: this tab logged out; ignore its old cookie
_SAVED = "saved_code"  # session-state key: the sample whose judgment was just saved

# Streamlit reads cookies (st.context.cookies) but has no API to write them. This
# components-v2 component runs in the page itself (no iframe), so its document.cookie is
# the app's. JavaScript cannot set HttpOnly; the cookie holds only the opaque token, whose
# SHA-256 the server stores, checks (expiry, revocation, disabled account) on every run.
_COOKIE_JS = """
export default function(component) {
    const { data } = component;
    if (!data || !data.name) { return; }
    const secure = window.location.protocol === "https:" ? "; Secure" : "";
    document.cookie = data.name + "=" + data.value + "; Max-Age=" + data.max_age
        + "; Path=/; SameSite=Strict" + secure;
}
"""
_cookie_writer = st.components.v2.component("reportgen_review_session_cookie", js=_COOKIE_JS)

# The document's language is the page's (Streamlit writes lang="en" whatever the text is),
# so that a screen reader reads pt-BR as Portuguese; texts in another language carry their
# own `lang` (ui_rubric.show_in_language).
_LANG_JS = """
export default function(component) {
    const { data } = component;
    if (data && data.lang) { document.documentElement.lang = data.lang; }
}
"""
_page_language = st.components.v2.component("reportgen_review_page_language", js=_LANG_JS)
# Streamlit's captions are grey text of contrast 3.9:1 (WCAG AA asks 4.5:1 for body
# text): the theme's own text colour, slightly faded, in light and dark themes alike.
_CAPTION_STYLE = (
    "<style>[data-testid='stCaptionContainer'], [data-testid='stCaptionContainer'] p"
    " { color: inherit !important; opacity: 0.82; }</style>"
)


@st.cache_resource
def _engine_for(url: str) -> Engine:
    return open_database(url)


def engine() -> Engine:
    return _engine_for(os.environ.get(DB_URL_VARIABLE) or database_url())


def language() -> str:
    chosen = st.session_state.get("language", DEFAULT_LANGUAGE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def t(key: str, **params: object) -> str:
    return translate(language(), key, **params)


def t_md(key: str, **params: object) -> str:
    """`t` for an element that renders Markdown (an alert, a caption, a title, a label, a
    table cell): the parameters (names, codes, notes, file names) show as typed."""
    return translate(language(), key, **escaped_params(params))


def show_error(error: ReportgenError) -> None:
    """A clear message in the reader's language (the archive's own errors are English);
    what it quotes (a typed code, a file name) shows as typed, never as Markdown."""
    if isinstance(error, ReviewError):
        st.error(translate(language(), error.key, **escaped_params(error.params)))
    else:
        st.error(escape_markdown(str(error)))


def token() -> str | None:
    value = st.session_state.get("token")
    return value if isinstance(value, str) else None


def client_address() -> str:
    """Where the request comes from, for login throttling ("" when Streamlit does not say)."""
    address = st.context.ip_address
    return address if isinstance(address, str) else ""  # AppTest has no real client


def browser_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when this tab connected."""
    return st.context.cookies


def cookie_token() -> str | None:
    """The session token in the browser's cookie, unless this tab has logged out."""
    if st.session_state.get(_SIGNED_OUT):
        return None
    cookies = browser_cookies()
    value = cookies.get(SESSION_COOKIE) if isinstance(cookies, Mapping) else None
    return value if isinstance(value, str) and _TOKEN_SHAPE.fullmatch(value) else None


def remember_session(session: str) -> None:
    """Write the session cookie on this run (after a login)."""
    st.session_state.pop(_SIGNED_OUT, None)
    st.session_state[_COOKIE_ACTION] = {
        "name": SESSION_COOKIE,
        "value": session,
        "max_age": int(SESSION_LIFETIME.total_seconds()),
    }


def forget_session() -> None:
    """Delete the session cookie on this run (after a logout, or when it went stale)."""
    st.session_state[_SIGNED_OUT] = True
    st.session_state[_COOKIE_ACTION] = {"name": SESSION_COOKIE, "value": "", "max_age": 0}


def page_setup() -> None:
    """What every run sends besides the page: its language and the captions' contrast."""
    st.html(_CAPTION_STYLE)
    _page_language(data={"lang": language()}, key="document_language", height=0)


def write_cookie() -> None:
    """Send the pending cookie write, if any, to the browser."""
    action = st.session_state.pop(_COOKIE_ACTION, None)
    if isinstance(action, dict):
        _cookie_writer(data=action, key="session_cookie", height=0)


def announce_saved(code: str) -> None:
    """Ask for a short "saved" confirmation on the next run (a page reruns after saving)."""
    st.session_state[_SAVED] = code


def show_saved() -> None:
    code = st.session_state.pop(_SAVED, None)
    if isinstance(code, str):
        st.toast(t("saved", code=code), icon=":material/check:")
