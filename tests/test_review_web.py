"""The review app's server as a browser or a stranger meets it over HTTP (issue 23, points 8,
9 and 11): `reportgen review serve` on a free localhost port, asked with real requests.

The session route sets an HttpOnly, SameSite=Strict cookie for a ticket redeemed once by
the browser that asked for it; a forwarded address counts only from a configured proxy;
every response carries the anti-framing and no-sniff headers; `/_stcore/metrics` is not
served.
"""

from __future__ import annotations

import http.client
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from sqlalchemy import Engine

from review_app.core.auth import add_account, client_fingerprint, require
from review_app.core.errors import SessionExpired
from review_app.core.web import (
    SECURITY_HEADERS,
    SESSION_COOKIE,
    ReviewGate,
    parse_proxies,
    with_real_client,
)
from review_app.core.web_sessions import issue_ticket
from tests.review.helpers import PASSWORD, new_database
from tests.support.review_server import served_review_app

pytestmark = pytest.mark.slow
BROWSER = "Mozilla/5.0 (X11; Linux x86_64) TestBrowser/1.0"


@dataclass(frozen=True)
class Served:
    address: str
    engine: Engine

    def request(
        self, method: str, path: str, body: str = "", headers: dict[str, str] | None = None
    ) -> http.client.HTTPResponse:
        parts = urlsplit(self.address)
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=30)
        sent = {"User-Agent": BROWSER, "Origin": self.address, **(headers or {})}
        if body:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=sent)
        answer = connection.getresponse()
        answer.read()
        connection.close()
        return answer

    def post_ticket(self, ticket: str, **headers: str) -> http.client.HTTPResponse:
        return self.request("POST", "/_review/session", urlencode({"ticket": ticket}), headers)

    def ticket(self, user_agent: str = BROWSER, address: str = "") -> str:
        fingerprint = client_fingerprint(user_agent, address)
        return issue_ticket(self.engine, "ana", PASSWORD, fingerprint=fingerprint)


def _serve(tmp_path: Path, *options: str) -> Iterator[Served]:
    url = f"sqlite:///{tmp_path / 'review.db'}"
    engine = new_database(url)
    add_account(engine, "ana", "reviewer", PASSWORD)
    try:
        with served_review_app(url, tmp_path, *options) as address:
            yield Served(address, engine)
    finally:
        engine.dispose()


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve(tmp_path_factory.mktemp("served"))


@pytest.fixture(scope="module")
def behind_proxy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    yield from _serve(tmp_path_factory.mktemp("proxied"), "--trusted-proxy", "127.0.0.1")


def _session_cookie(answer: http.client.HTTPResponse) -> SimpleCookie:
    cookie: SimpleCookie = SimpleCookie()
    for header in answer.headers.get_all("set-cookie") or []:
        if header.startswith(SESSION_COOKIE + "="):
            cookie.load(header)
    return cookie


# -- point 11: headers and metrics --------------------------------------------------------


@pytest.mark.parametrize(
    ("method", "path"),
    [("GET", "/"), ("GET", "/_stcore/health"), ("GET", "/no/such/page"),
     ("POST", "/_review/session"), ("GET", "/_stcore/metrics")],
)  # fmt: skip
def test_every_response_forbids_framing_and_sniffing(
    served: Served, method: str, path: str
) -> None:
    answer = served.request(method, path)
    assert answer.headers["X-Frame-Options"] == "DENY"
    assert answer.headers["Content-Security-Policy"] == "frame-ancestors 'none'"
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "no-referrer"


def test_metrics_are_not_public(served: Served) -> None:
    assert served.request("GET", "/_stcore/metrics").status == 404
    assert served.request("GET", "/_stcore/metrics?families=session_state").status == 404
    assert served.request("GET", "/_stcore/health").status == 200


# -- point 8: the session cookie, set by the server ------------------------------------------


def test_a_ticket_becomes_an_http_only_strict_cookie_once(served: Served) -> None:
    ticket = served.ticket()
    answer = served.post_ticket(ticket)
    assert answer.status == 303
    assert answer.headers["Location"] == "/"
    morsel = _session_cookie(answer)[SESSION_COOKIE]
    assert morsel["httponly"] is True
    assert morsel["samesite"] == "strict"
    assert morsel["path"] == "/"
    assert morsel["secure"] == ""  # plain http on localhost, and not configured
    token = morsel.value
    assert require(served.engine, token, fingerprint=client_fingerprint(BROWSER, "")).name == "ana"
    # Replayed from another browser, the token opens nothing.
    with pytest.raises(SessionExpired):
        require(served.engine, token, fingerprint=client_fingerprint("Other/2.0", ""))
    # The ticket was good once.
    assert not _session_cookie(served.post_ticket(ticket))


def test_a_ticket_is_redeemed_only_by_the_browser_that_asked(served: Served) -> None:
    ticket = served.ticket(user_agent="Someone else's browser")
    assert not _session_cookie(served.post_ticket(ticket))


def test_each_login_rotates_the_token(served: Served) -> None:
    first = _session_cookie(served.post_ticket(served.ticket()))[SESSION_COOKIE].value
    again = served.post_ticket(served.ticket(), Cookie=f"{SESSION_COOKIE}={first}")
    second = _session_cookie(again)[SESSION_COOKIE].value
    assert second != first
    fingerprint = client_fingerprint(BROWSER, "")
    with pytest.raises(SessionExpired):
        require(served.engine, first, fingerprint=fingerprint)
    assert require(served.engine, second, fingerprint=fingerprint)


def test_a_cross_site_post_is_refused(served: Served) -> None:
    ticket = served.ticket()
    elsewhere = "http://127.0.0.1:1"  # a page on another port is another origin
    assert served.post_ticket(ticket, Origin=elsewhere).status == 403
    assert served.post_ticket(ticket, **{"Sec-Fetch-Site": "same-site"}).status == 403
    # A GET (a link, an image) reaches only the app's page: nothing is redeemed.
    assert not _session_cookie(served.request("GET", f"/_review/session?ticket={ticket}"))
    # None of that spent it.
    assert _session_cookie(served.post_ticket(ticket))


def test_logout_revokes_and_deletes_the_cookie(served: Served) -> None:
    token = _session_cookie(served.post_ticket(served.ticket()))[SESSION_COOKIE].value
    answer = served.request(
        "POST", "/_review/logout", headers={"Cookie": f"{SESSION_COOKIE}={token}"}
    )
    assert answer.status == 303
    morsel = _session_cookie(answer)[SESSION_COOKIE]
    assert (morsel.value, morsel["max-age"]) == ("", "0")
    with pytest.raises(SessionExpired):
        require(served.engine, token)


# -- point 9: forwarded addresses ---------------------------------------------------------


def test_a_forwarded_address_from_an_untrusted_client_is_ignored(served: Served) -> None:
    """The fingerprint the route computes shows which address it believed: this machine."""
    claimed = served.ticket(address="203.0.113.7")
    assert not _session_cookie(served.post_ticket(claimed, **{"X-Forwarded-For": "203.0.113.7"}))
    honest = served.ticket(address="")
    assert _session_cookie(served.post_ticket(honest, **{"X-Forwarded-For": "203.0.113.7"}))


def test_a_forwarded_address_from_a_configured_proxy_is_used(behind_proxy: Served) -> None:
    ticket = behind_proxy.ticket(address="203.0.113.7")
    answer = behind_proxy.post_ticket(
        ticket, **{"X-Forwarded-For": "203.0.113.7", "X-Forwarded-Proto": "https"}
    )
    morsel = _session_cookie(answer)[SESSION_COOKIE]
    assert morsel["secure"] is True  # the proxy says the browser speaks https


def _scope(peer: str, *headers: tuple[str, str]) -> dict[str, object]:
    encoded = [(name.encode(), value.encode()) for name, value in headers]
    return {"type": "http", "client": (peer, 5000), "headers": encoded, "scheme": "http"}


def test_the_client_is_the_nearest_untrusted_hop() -> None:
    proxies = parse_proxies("10.0.0.0/24, fd00::1")
    chain = ("X-Forwarded-For", "198.51.100.1, 203.0.113.9, 10.0.0.7")
    assert with_real_client(_scope("10.0.0.5", chain), proxies)["client"] == ("203.0.113.9", 0)
    # The same header from a client that is not a proxy changes nothing.
    assert with_real_client(_scope("192.0.2.1", chain), proxies)["client"] == ("192.0.2.1", 5000)
    assert with_real_client(_scope("10.0.0.5", chain), ())["client"] == ("10.0.0.5", 5000)
    real_ip = ("X-Real-IP", "2001:db8::5")
    assert with_real_client(_scope("fd00::1", real_ip), proxies)["client"] == ("2001:db8::5", 0)
    garbage = ("X-Forwarded-For", "not-an-address")
    assert with_real_client(_scope("10.0.0.5", garbage), proxies)["client"] == ("10.0.0.5", 5000)


def test_security_headers_replace_any_the_app_sent() -> None:
    import asyncio

    async def app(scope: object, receive: object, send: object) -> None:
        await send({"type": "http.response.start", "status": 200,  # type: ignore[operator]
                    "headers": [(b"x-frame-options", b"SAMEORIGIN")]})  # fmt: skip

    sent: list[dict[str, object]] = []

    async def send(message: dict[str, object]) -> None:
        sent.append(message)

    async def receive() -> dict[str, object]:
        return {"type": "http.request"}

    scope = {**_scope("127.0.0.1"), "path": "/"}
    asyncio.run(ReviewGate(app, ())(scope, receive, send))  # type: ignore[arg-type]
    headers = sent[0]["headers"]
    assert isinstance(headers, list)
    assert [value for name, value in headers if name == b"x-frame-options"] == [b"DENY"]
    assert set(SECURITY_HEADERS) <= set(headers)
