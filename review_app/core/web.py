"""The review app's HTTP layer in front of Streamlit (served by review_app.server).

- `/_review/session` (POST, same origin): redeems a login ticket (review_app.core.web_sessions)
  and sets the session token as an HttpOnly, SameSite=Strict cookie; `/_review/logout`
  (POST, same origin) revokes the session and deletes the cookie. Only the server ever
  writes the cookie, so no script in any page can read it.
- `ReviewGate`, a middleware on every HTTP and WebSocket request: the client's address is
  the socket's peer unless that peer is a configured proxy (REVIEW_TRUSTED_PROXIES), only
  then X-Forwarded-For (or X-Real-IP) and X-Forwarded-Proto are believed; every response
  carries anti-framing, no-sniff and no-referrer headers; `/_stcore/metrics` is not served.
"""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Mapping, Sequence
from contextlib import suppress
from functools import cache
from typing import Any
from urllib.parse import parse_qs, urlsplit

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from review_app.core.auth import SESSION_LIFETIME, client_fingerprint, logout
from review_app.core.errors import ReviewError, ReviewInputError
from review_app.core.storage import database_url, open_database
from review_app.core.web_sessions import redeem_ticket

SESSION_COOKIE = "reportgen_review_session"
SESSION_ROUTE = "/_review/session"
LOGOUT_ROUTE = "/_review/logout"
DB_URL_VARIABLE = "REVIEW_DB_URL"  # set by `reportgen review serve`
TRUSTED_PROXIES_VARIABLE = "REVIEW_TRUSTED_PROXIES"  # comma-separated addresses or networks
SECURE_COOKIE_VARIABLE = "REVIEW_SECURE_COOKIE"  # "1": the cookie is Secure even over http
# What auth tokens and tickets look like (secrets.token_urlsafe(32)); anything else is
# refused before it reaches the database.
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{43}")
SECURITY_HEADERS: tuple[tuple[bytes, bytes], ...] = (
    (b"x-frame-options", b"DENY"),
    (b"content-security-policy", b"frame-ancestors 'none'"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
)
# Streamlit's Prometheus figures (sessions, memory, cache sizes) are nobody's business.
BLOCKED_PATHS = frozenset({"/_stcore/metrics"})
_FORM_LIMIT = 4096  # bytes: a ticket form is under 100

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_proxies(text: str) -> tuple[Network, ...]:
    """The trusted proxies in `text` (addresses or networks, comma-separated)."""
    networks: list[Network] = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        try:
            networks.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            raise ReviewInputError("error_trusted_proxy", value=item) from None
    return tuple(networks)


def shown_address(host: str | None) -> str:
    """The client address as both the routes and the page see it: "" for this machine
    (Streamlit's st.context.ip_address hides loopback addresses)."""
    return "" if host in (None, "", "127.0.0.1", "::1") else str(host)


def request_fingerprint(request: Request) -> str:
    client = request.client
    address = shown_address(client.host if client else None)
    return client_fingerprint(request.headers.get("user-agent", ""), address)


class ReviewGate:
    """Client address, security headers and blocked paths for every request."""

    def __init__(self, app: ASGIApp, trusted_proxies: Sequence[Network] | None = None) -> None:
        self.app = app
        self.trusted = (
            tuple(trusted_proxies)
            if trusted_proxies is not None
            else parse_proxies(os.environ.get(TRUSTED_PROXIES_VARIABLE, ""))
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        scope = with_real_client(scope, self.trusted)
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                names = {name for name, _ in SECURITY_HEADERS}
                kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
                message = {**message, "headers": kept + list(SECURITY_HEADERS)}
            await send(message)

        if scope["path"] in BLOCKED_PATHS:
            await PlainTextResponse("Not Found", 404)(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send_with_headers)


def with_real_client(scope: Scope, trusted: Sequence[Network]) -> Scope:
    """The scope with the client (and scheme) a configured proxy reports, if the socket's
    peer is one; otherwise unchanged: a forwarded header from anyone else is ignored."""
    client = scope.get("client")
    if not client or not _trusted(str(client[0]), trusted):
        return scope
    headers = _headers(scope)
    forwarded = ",".join(headers.get(b"x-forwarded-for", []))
    address = _forwarded_client(forwarded, trusted) if forwarded else None
    if address is None and b"x-real-ip" in headers:
        address = _ip(headers[b"x-real-ip"][-1])
    changed = dict(scope)
    if address is not None:
        changed["client"] = (address, 0)
    proto = (headers.get(b"x-forwarded-proto") or [""])[-1].strip().lower()
    if proto in ("http", "https"):
        secure = proto == "https"
        if scope["type"] == "websocket":
            changed["scheme"] = "wss" if secure else "ws"
        else:
            changed["scheme"] = proto
    return changed


def _headers(scope: Scope) -> dict[bytes, list[str]]:
    found: dict[bytes, list[str]] = {}
    for name, value in scope.get("headers", []):
        found.setdefault(bytes(name).lower(), []).append(bytes(value).decode("latin-1"))
    return found


def _forwarded_client(forwarded: str, trusted: Sequence[Network]) -> str | None:
    """The nearest address in X-Forwarded-For that is not a trusted proxy (each proxy
    appends the address it saw); None if an entry is not an address."""
    hops = [hop.strip() for hop in forwarded.split(",")]
    for hop in reversed(hops):
        address = _ip(hop)
        if address is None:
            return None
        if not _trusted(address, trusted):
            return address
    return _ip(hops[0])


def _ip(text: str) -> str | None:
    text = text.strip()
    if text.startswith("[") and "]" in text:  # [v6]:port
        text = text[1 : text.index("]")]
    elif text.count(":") == 1:  # v4:port
        text = text.split(":")[0]
    try:
        return str(ipaddress.ip_address(text))
    except ValueError:
        return None


def _trusted(host: str, trusted: Sequence[Network]) -> bool:
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return any(address in network for network in trusted)


# -- routes --------------------------------------------------------------------------------


@cache
def _engine(url: str) -> Engine:
    return open_database(url)


def route_engine() -> Engine:
    return _engine(os.environ.get(DB_URL_VARIABLE) or database_url())


async def start_session(request: Request) -> Response:
    """Redeem the posted ticket; set the session cookie; back to the app."""
    if not _same_origin(request):
        return PlainTextResponse("Forbidden", 403)
    fields = await _posted_form(request)
    if fields is None:
        return PlainTextResponse("Request too large", 413)
    ticket = fields.get("ticket", "")
    previous = request.cookies.get(SESSION_COOKIE, "")
    response = RedirectResponse("/", status_code=303)
    if not TOKEN_SHAPE.fullmatch(ticket):
        return response  # the login form shows again
    try:
        token = await run_in_threadpool(
            redeem_ticket,
            route_engine(),
            ticket,
            fingerprint=request_fingerprint(request),
            replaces=previous if TOKEN_SHAPE.fullmatch(previous) else None,
        )
    except (ReviewError, SQLAlchemyError):
        return response
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(SESSION_LIFETIME.total_seconds()),
        path="/",
        secure=_secure(request),
        httponly=True,
        samesite="strict",
    )
    return response


async def end_session(request: Request) -> Response:
    """Revoke the cookie's session and delete the cookie; back to the login form."""
    if not _same_origin(request):
        return PlainTextResponse("Forbidden", 403)
    token = request.cookies.get(SESSION_COOKIE, "")
    if TOKEN_SHAPE.fullmatch(token):
        # The page has revoked it already; the cookie goes all the same.
        with suppress(SQLAlchemyError):
            await run_in_threadpool(logout, route_engine(), token)
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(
        SESSION_COOKIE, path="/", secure=_secure(request), httponly=True, samesite="strict"
    )
    return response


def _same_origin(request: Request) -> bool:
    """A form posted by the app's own page; a cross-site form (login CSRF) is refused.

    Browsers send Sec-Fetch-Site with every request; one too old for it is asked for an
    Origin naming this host. (With Referrer-Policy no-referrer, Chromium sends
    "Origin: null" for the app's own forms, so Sec-Fetch-Site decides where it is sent.)
    """
    site = request.headers.get("sec-fetch-site")
    if site is not None:
        return site == "same-origin"
    origin = request.headers.get("origin")
    return origin is not None and urlsplit(origin).netloc == request.headers.get("host")


def _secure(request: Request) -> bool:
    return request.url.scheme == "https" or os.environ.get(SECURE_COOKIE_VARIABLE) == "1"


async def _posted_form(request: Request) -> Mapping[str, str] | None:
    """The urlencoded form's fields (the first value of each); None when too large."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > _FORM_LIMIT:
            return None
    try:
        parsed: dict[str, Any] = parse_qs(body.decode("latin-1"), max_num_fields=8)
    except ValueError:  # more fields than a ticket form has
        return {}
    return {name: str(values[0]) for name, values in parsed.items() if values}
