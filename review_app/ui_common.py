"""What every page of the app shares: the engine, the language and error display."""

from __future__ import annotations

import os

import streamlit as st
from sqlalchemy import Engine

from reportgen.errors import ReportgenError
from review_app.db import create_schema, default_url, make_engine
from review_app.errors import ReviewError
from review_app.i18n import DEFAULT_LANGUAGE, LANGUAGES, translate

DB_URL_VARIABLE = "REVIEW_DB_URL"


@st.cache_resource
def _engine_for(url: str) -> Engine:
    engine = make_engine(url)
    create_schema(engine)
    return engine


def engine() -> Engine:
    return _engine_for(os.environ.get(DB_URL_VARIABLE) or default_url())


def language() -> str:
    chosen = st.session_state.get("language", DEFAULT_LANGUAGE)
    return chosen if chosen in LANGUAGES else DEFAULT_LANGUAGE


def t(key: str, **params: object) -> str:
    return translate(language(), key, **params)


def show_error(error: ReportgenError) -> None:
    """A clear message in the reader's language (the archive's own errors are English)."""
    st.error(error.message(language()) if isinstance(error, ReviewError) else str(error))


def token() -> str | None:
    value = st.session_state.get("token")
    return value if isinstance(value, str) else None
