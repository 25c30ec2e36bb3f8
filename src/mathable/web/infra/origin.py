"""Origin checks (issue 30, finding 1): the session cookie acts for pages of this site only.

``SameSite=Lax`` keeps the cookie off requests from other *sites*, but a site is a
registrable domain: a page on another port or subdomain of it (a sibling *origin*) still
sends the victim's cookie with its requests, and could join a rated seek for them, rename
them, or open their game's socket and read their rack. So :class:`OriginCheck`, one ASGI
middleware in front of every route and socket, refuses a request that carries the session
cookie and may change something (any method but GET, HEAD and OPTIONS; every WebSocket
handshake) unless it comes from the site itself:

- its ``Origin`` header, or missing that its ``Referer``, or missing both its
  ``Sec-Fetch-Site``, must name the site's own origin: ``MATHABLE_DOMAIN`` when it is set,
  else the request's ``Host`` with its scheme (as uvicorn has it: ``X-Forwarded-Proto``
  from a trusted proxy). A request with none of the three is not from a browser (every
  browser sends ``Origin`` with such requests and socket handshakes, ``null`` when a page
  hides where it is), so it passes, held by the second guard;
- a second guard, for browsers that name no origin: an HTTP change must be sent as JSON
  (``Content-Type: application/json``) or with the header ``X-Requested-With`` (any
  value). A page of another origin cannot send either without asking first (a CORS
  preflight, which this server never grants), so a body-less ``POST`` (joining a seek,
  resigning by cookie) cannot be forged by a form or a plain ``fetch``.

Refusals: 403 ``{"error": …}`` naming the header, in the reader's language; a socket is
closed with 1008 before it is accepted (nothing is sent on it). Requests without the
session cookie (API clients holding seat tokens) are never checked: there is no session to
borrow.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from urllib.parse import SplitResult, urlsplit

from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Receive, Scope, Send

from mathable.engine.validation import shown
from mathable.i18n import _

DOMAIN_SETTING = "MATHABLE_DOMAIN"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
"""Methods that change nothing: never checked."""
SCRIPT_HEADER = "X-Requested-With"
"""The custom header that, like a JSON body, only a page's own script can send."""
DEFAULT_PORTS = {"http": 80, "https": 443}
SOCKET_SCHEMES = {"ws": "http", "wss": "https"}
"""A socket's scheme as the page that opened it has it."""
MAX_CLOSE_REASON = 123
"""Bytes in a WebSocket close frame's reason (RFC 6455)."""
HOST_NAME = re.compile(r"[a-z0-9.:-]+")
"""A host as an ``Origin`` spells it: ASCII (IDNA), or an IPv6 address without brackets."""
SAME = frozenset({"same-origin", "none"})
"""The ``Sec-Fetch-Site`` values of the site's own requests (``none``: typed by the user)."""


@dataclass(frozen=True)
class Place:
    """An origin the site answers on: ``scheme`` None means ``https``, or the request's own
    (a proxy that forgets ``X-Forwarded-Proto`` does not lock the site out; a plain-HTTP
    page never acts for an HTTPS site); ``port`` None means the scheme's default."""

    host: str
    port: int | None = None
    scheme: str | None = None

    def admits(self, scheme: str, host: str, port: int | None, request_scheme: str) -> bool:
        """Whether a page at ``scheme://host:port`` is this place."""
        if host != self.host:
            return False
        if self.scheme is None:
            if scheme not in ("https", request_scheme):
                return False
        elif scheme != self.scheme:
            return False
        default = DEFAULT_PORTS[scheme]
        return (port or default) == (self.port or default)


def _ascii_host(host: str) -> str:
    """A host name in the form ``Origin`` headers carry it: lower case, IDNA."""
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return ""


def parse_domain(text: str) -> tuple[Place, ...]:
    """``MATHABLE_DOMAIN``: the site's names, separated by commas, each a host with an
    optional port (``mathable.example.org``, ``play.example.org:8443``) or an origin with
    its scheme (``http://192.168.1.20:8000``); ``()`` when empty. A value that names no
    origin raises :class:`ValueError` saying which (the server stops at start).

    >>> [(p.scheme, p.host, p.port) for p in parse_domain("Mathable.org, http://10.0.0.2:8000")]
    [(None, 'mathable.org', None), ('http', '10.0.0.2', 8000)]
    """
    places = []
    for item in (part.strip() for part in text.split(",")):
        if not item:
            continue
        problem = f"{DOMAIN_SETTING}={item!r}: a host name such as mathable.example.org"
        with_scheme = "://" in item
        try:
            parts = urlsplit(item if with_scheme else "//" + item)
            port = parts.port
        except ValueError:
            raise ValueError(problem) from None
        host = _ascii_host(parts.hostname or "")
        if with_scheme and parts.scheme not in DEFAULT_PORTS:
            raise ValueError(f"{DOMAIN_SETTING}={item!r}: http:// or https://")
        extra = parts.path not in ("", "/") or parts.query or parts.fragment or parts.username
        if extra or not host or not HOST_NAME.fullmatch(host):
            raise ValueError(problem)
        places.append(Place(host, port, parts.scheme if with_scheme else None))
    return tuple(places)


def domain_from_env() -> tuple[Place, ...]:
    """The site's own origins from ``MATHABLE_DOMAIN`` (``()``: the request's ``Host``)."""
    return parse_domain(os.environ.get(DOMAIN_SETTING, ""))


def _split(text: str) -> SplitResult | None:
    """An origin or URL's parts, or None when it names no http(s) host."""
    try:
        parts = urlsplit(text)
        parts.port  # noqa: B018 - a bad port raises here
    except ValueError:
        return None
    if parts.scheme not in DEFAULT_PORTS or not parts.hostname:
        return None
    return parts


def _request_place(headers: Headers) -> Place | None:
    """The origin the request was sent to: its ``Host`` header (None: none usable)."""
    try:
        parts = urlsplit("//" + headers.get("host", ""))
        port = parts.port
    except ValueError:
        return None
    return Place(parts.hostname, port) if parts.hostname else None


def _request_scheme(scope: Scope) -> str:
    scheme = str(scope.get("scheme", "http"))
    return SOCKET_SCHEMES.get(scheme, scheme)


def _cookie_names(headers: Headers) -> set[str]:
    """The names of the request's cookies, all of them (never cut short: cookies another
    subdomain sets for the whole site must not hide the session's)."""
    return set(cookie_parser("; ".join(headers.getlist("cookie"))))


def _is_scripted(headers: Headers) -> bool:
    """Sent as JSON or with :data:`SCRIPT_HEADER`: what no other origin's page can send
    without a CORS preflight."""
    kind = headers.get("content-type", "").partition(";")[0].strip().lower()
    as_json = kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )
    return as_json or SCRIPT_HEADER in headers


class OriginCheck:
    """Refuses a cookie-authenticated change or socket from another origin (ASGI
    middleware; see the module's docstring). ``domain``: the site's own origins
    (:func:`parse_domain`; empty: the request's ``Host``); ``cookie``: the session
    cookie's name."""

    def __init__(self, app: ASGIApp, domain: tuple[Place, ...], cookie: str) -> None:
        self.app = app
        self.domain = domain
        self.cookie = cookie

    def refusal(self, scope: Scope) -> str | None:
        """Why this request or socket is refused, in the current language; None: it
        passes."""
        if scope["type"] == "http" and scope["method"] in SAFE_METHODS:
            return None
        headers = Headers(scope=scope)
        if self.cookie not in _cookie_names(headers):
            return None  # no session to borrow
        for name in ("origin", "referer"):
            value = headers.get(name)
            if value is not None:
                if self.is_own(value, scope, headers):
                    break
                return self.foreign(name.capitalize(), value)
        else:
            site = headers.get("sec-fetch-site")
            if site is not None and site.lower() not in SAME:
                return self.foreign("Sec-Fetch-Site", site)
        if scope["type"] == "http" and not _is_scripted(headers):
            # TRANSLATORS: Content-Type, application/json and the header's name stay as
            # they are (what a program sends)
            return _(
                "header Content-Type: a change made with your session must be sent as "
                "application/json or with the header {header}",
                header=SCRIPT_HEADER,
            )
        return None

    def is_own(self, value: str, scope: Scope, headers: Headers) -> bool:
        """Whether the origin (or URL) ``value`` is one of the site's own."""
        parts = _split(value)
        if parts is None or parts.hostname is None:  # (None: _split saw to it)
            return False
        here = _request_place(headers)
        places = self.domain or (() if here is None else (here,))
        request_scheme = _request_scheme(scope)
        return any(
            place.admits(parts.scheme, parts.hostname, parts.port, request_scheme)
            for place in places
        )

    @staticmethod
    def foreign(header: str, value: str) -> str:
        # TRANSLATORS: header is Origin, Referer or Sec-Fetch-Site; where is the web page
        # that sent the request (https://other.example.org), as the browser said it
        return _(
            "header {header}: {where} is not this site: no change may be made with your "
            "session from there",
            header=header,
            where=shown(value, 80),
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        reason = self.refusal(scope)
        if reason is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            # before it is accepted: the handshake is answered 403, nothing is sent
            await receive()  # websocket.connect
            cut = reason.encode()[:MAX_CLOSE_REASON].decode(errors="ignore")
            await send({"type": "websocket.close", "code": 1008, "reason": cut})
        else:
            await JSONResponse({"error": reason}, status_code=403)(scope, receive, send)
