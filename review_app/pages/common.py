"""What every page of the app shares: the engine, the language, error display and the
session: the token in the HttpOnly cookie that the server sets (review_app.core.web), read
here from the request that opened the page's connection."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NoReturn

import streamlit as st
from sqlalchemy import Engine
from streamlit import config

from reportgen.errors import ReportgenError
from review_app.core.auth import client_fingerprint
from review_app.core.errors import ReviewError
from review_app.core.storage import database_url, open_database
from review_app.core.web import DB_URL_VARIABLE, SESSION_COOKIE, TOKEN_SHAPE, shown_address
from review_app.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate
from review_app.pages.text import escape_markdown, escaped_params
from review_app.tasks.reviewing import my_queue, next_code

_SIGNED_OUT = "signed_out"  # session-state key: this tab logged out; ignore its old cookie
_SAVED = "saved_code"  # session-state key: the sample whose judgment was just saved
CURRENT = "current_code"  # session-state key: the sample on the reviewer's screen
DRAFTS = "note_drafts"  # session-state key: sample code -> a note typed and not yet recorded

# Sends the browser to one of the server's routes with a POST form (a ticket to redeem, or
# a logout). It runs in the page itself (components v2, no iframe), so the navigation is
# the whole page's. It never sees the session token: only the server writes the cookie.
_POST_JS = """
export default function(component) {
    const { data } = component;
    if (!data || !data.action) { return; }
    const form = document.createElement("form");
    form.method = "POST";
    form.action = data.action;
    for (const [name, value] of Object.entries(data.fields || {})) {
        const field = document.createElement("input");
        field.type = "hidden";
        field.name = name;
        field.value = value;
        form.appendChild(field);
    }
    document.body.appendChild(form);
    form.submit();
}
"""
_post_to_server = st.components.v2.component("reportgen_review_post", js=_POST_JS)

# The document's language is the page's (Streamlit writes lang="en" whatever the text is),
# so that a screen reader reads pt-BR as Portuguese; texts in another language carry their
# own `lang` (pages.rubric.show_in_language).
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


def without_browser() -> bool:
    """Whether this run is an AppTest (streamlit.testing), which has no browser and no
    HTTP routes: the login then opens the session in the session state itself. A browser
    never reaches this: `reportgen review serve` forces global.appTest off."""
    return config.get_option("global.appTest") is True  # AppTest patches this one


def browser_cookies() -> Mapping[str, str]:
    """The cookies the browser sent when this tab connected."""
    return st.context.cookies


def browser_fingerprint() -> str:
    """The fingerprint of the browser behind this run (see auth.client_fingerprint), as
    review_app.core.web computes it for the route that opened the session."""
    user_agent = st.context.headers.get("User-Agent") or ""
    address = st.context.ip_address
    return client_fingerprint(
        user_agent, shown_address(address if isinstance(address, str) else None)
    )


def cookie_token() -> str | None:
    """The session token in the browser's cookie, unless this tab has logged out."""
    if st.session_state.get(_SIGNED_OUT):
        return None
    cookies = browser_cookies()
    value = cookies.get(SESSION_COOKIE) if isinstance(cookies, Mapping) else None
    return value if isinstance(value, str) and TOKEN_SHAPE.fullmatch(value) else None


def ignore_cookie() -> None:
    """This tab no longer uses the cookie it connected with (logged out, or it went stale)."""
    st.session_state[_SIGNED_OUT] = True


def post_to_server(action: str, fields: Mapping[str, str]) -> None:
    """Send the whole page to one of the server's routes (review_app.core.web) on this run."""
    _post_to_server(data={"action": action, "fields": dict(fields)}, key="post_to_server", height=0)


def page_setup() -> None:
    """What every run sends besides the page: its language and the captions' contrast."""
    st.html(_CAPTION_STYLE)
    _page_language(data={"lang": language()}, key="document_language", height=0)


def announce_saved(code: str) -> None:
    """Ask for a short "saved" confirmation on the next run (a page reruns after saving)."""
    st.session_state[_SAVED] = code


def saved_and_next(code: str) -> NoReturn:
    """After a judgment of `code` is recorded, whatever the task's shape: its draft note is
    dropped, a "saved" confirmation is asked for, and the reviewer's next sample in the
    queue comes on screen (the page reruns)."""
    drafts = st.session_state.get(DRAFTS)
    if isinstance(drafts, dict):
        drafts.pop(code, None)
    announce_saved(code)
    after = next_code(my_queue(engine(), token()), code)
    st.session_state[CURRENT] = after or code
    st.rerun()


def show_saved() -> None:
    code = st.session_state.pop(_SAVED, None)
    if isinstance(code, str):
        st.toast(t("saved", code=code), icon=":material/check:")
