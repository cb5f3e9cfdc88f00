"""What the app shows when its database has no account yet: how to create the first one.

A login form would be useless there (no name and password can match), so the page says
which commands to run instead, with the database the app was started on.
"""

from __future__ import annotations

import os
import shlex

import streamlit as st
from sqlalchemy import func, select
from sqlalchemy.exc import SQLAlchemyError

from reportgen.errors import ReportgenError
from review_app.core.db import accounts
from review_app.core.storage import database_url, shown_url
from review_app.core.web import DB_URL_VARIABLE
from review_app.pages.common import engine, t


def _has_accounts() -> bool:
    with engine().connect() as connection:
        return bool(connection.execute(select(func.count()).select_from(accounts)).scalar_one())


def show_setup_help() -> bool:
    """Say how to create the first account when there is none; returns whether it did
    (then the page shows no login form). A database that cannot be read is left to the
    login form, which says what went wrong."""
    try:
        if _has_accounts():
            return False
    except (ReportgenError, SQLAlchemyError):
        return False
    database = shlex.quote(shown_url(os.environ.get(DB_URL_VARIABLE) or database_url()))
    st.title(t("app_title"))
    st.info(t("setup_no_accounts"))
    st.code(
        f"reportgen review init --db {database}\n"
        f"reportgen review add-reviewer NAME --role admin --db {database}",
        language="bash",
    )
    st.caption(t("setup_then_reload"))
    return True
