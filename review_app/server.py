"""The review app's server: Streamlit's app (review_app/app.py) as an st.App, behind the
session routes and the gate of review_app.core.web. `reportgen review serve` runs this module;
so may a service manager: `python -m review_app.server --port 8501 --address 127.0.0.1`
with REVIEW_DB_URL (and, behind a reverse proxy, REVIEW_TRUSTED_PROXIES) set.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import streamlit as st
from starlette.middleware import Middleware
from starlette.routing import Route

from review_app.core.web import LOGOUT_ROUTE, SESSION_ROUTE, ReviewGate, end_session, start_session

APP_SCRIPT = Path(__file__).with_name("app.py")


def build_app() -> st.App:
    return st.App(
        APP_SCRIPT,
        routes=[
            Route(SESSION_ROUTE, start_session, methods=["POST"]),
            Route(LOGOUT_ROUTE, end_session, methods=["POST"]),
        ],
        middleware=[Middleware(ReviewGate)],
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m review_app.server")
    parser.add_argument("--port", type=int, default=8501)
    parser.add_argument("--address", default="127.0.0.1")
    options = parser.parse_args(argv)
    # uvicorn would otherwise take X-Forwarded-For from any local client (its default
    # trusts 127.0.0.1) before ReviewGate sees the request: ReviewGate alone decides.
    os.environ["FORWARDED_ALLOW_IPS"] = ""
    build_app().run(
        config={
            "server.port": options.port,
            "server.address": options.address,
            "server.headless": True,
            "server.baseUrlPath": "",  # the session routes live at the root
            "browser.gatherUsageStats": False,
            "client.toolbarMode": "minimal",
            "client.showErrorDetails": "none",  # no traceback reaches a visitor
            "global.appTest": False,  # the app's test-only login stays off (pages.common)
        }
    )


if __name__ == "__main__":
    main()
