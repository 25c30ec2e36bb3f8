"""What one client may ask of the server (issue 13, "limits"), and the headers every
answer carries.

- Per-address rate limits on creating games, importing records, actions, analysis
  (hints too: both are searches; the master's depth also has its own) and log-ins (new
  accounts too), with the ``limits`` library's moving window; a refusal is 429 with
  ``Retry-After``. The client's address is the ASGI scope's: behind a reverse proxy,
  uvicorn takes it from ``X-Forwarded-For`` when the proxy is one of
  ``FORWARDED_ALLOW_IPS`` (127.0.0.1 and ::1 by default).
- A request body limit (256 KB; a record 1 MB), enforced before the body is read: a
  ``Content-Length`` over it is refused at once, and a body without one (chunked) is
  counted as it streams and refused as soon as it passes the limit; 413 with a reason.
- Security headers on every HTTP answer: a same-origin Content-Security-Policy (the page
  has no inline script or style), no framing, ``nosniff``, no referrer (links carry
  seat tokens), and a cache policy (API answers hold private racks: never stored).
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from starlette.datastructures import Headers, MutableHeaders
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mathable.i18n import Text, _, lazy, lazy_context, lazy_plural, ngettext

RATES = {
    "create": ("MATHABLE_RATE_CREATE", "30/minute"),
    "import": ("MATHABLE_RATE_IMPORT", "10/minute"),
    "action": ("MATHABLE_RATE_ACTION", "600/minute"),
    "analysis": ("MATHABLE_RATE_ANALYSIS", "30/minute"),
    "master_analysis": ("MATHABLE_RATE_MASTER_ANALYSIS", "6/minute"),
    "login": ("MATHABLE_RATE_LOGIN", "10/minute"),
    "seek": ("MATHABLE_RATE_SEEK", "20/minute"),
    "chat": ("MATHABLE_RATE_CHAT", "5/10 seconds"),
}
"""Each kind of request limited per client address: its variable and default."""

WHAT: dict[str, Text] = {
    # TRANSLATORS: what a client asked for too often: "too many new games from your address"
    "create": lazy("new games"),
    "import": lazy("uploaded records"),
    "action": lazy("actions"),
    "analysis": lazy("analyses and hints"),
    # TRANSLATORS: "too many analyses at the master's depth from your address"
    "master_analysis": lazy("analyses at the master's depth"),
    "login": lazy("log-ins and new accounts"),
    "seek": lazy("new seeks"),
    "chat": lazy("chat messages and reports"),
}

YOUR_ADDRESS = lazy("your address")
"""Whose requests a rate limit counts, by default (:meth:`RateLimiter.hit`)."""

OFF = frozenset({"", "0", "off", "none", "unlimited"})


def _size(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    if not text.isdigit() or int(text) <= 0:
        raise ValueError(f"{name}={text!r}: a number of bytes")
    return int(text)


@dataclass(frozen=True)
class Limits:
    """The HTTP limits, from the environment (defaults in brackets):

    - ``MATHABLE_RATE_CREATE`` (30/minute), ``MATHABLE_RATE_IMPORT`` (10/minute),
      ``MATHABLE_RATE_ACTION`` (600/minute), ``MATHABLE_RATE_ANALYSIS`` (30/minute),
      ``MATHABLE_RATE_MASTER_ANALYSIS`` (6/minute: analyses at the master's depth, ~10
      times the CPU, also counted as analyses),
      ``MATHABLE_RATE_CHAT`` (5/10 seconds: chat messages and reports, per address and
      per player), ``MATHABLE_RATE_LOGIN`` (10/minute: log-ins and new accounts, against password
      guessing), ``MATHABLE_RATE_SEEK`` (20/minute: seeks offered in the lobby): requests
      per client address, in the ``limits`` notation
      (``10/second;600/hour``); ``off`` lifts one (for a load benchmark). They count
      per server process.
    - ``MATHABLE_MAX_BODY`` (262144): bytes in a request body;
      ``MATHABLE_MAX_RECORD_BODY`` (1048576): in an uploaded record.
    """

    rates: dict[str, list[RateLimitItem]] = field(default_factory=dict)
    max_body: int = 256 * 1024
    max_record_body: int = 1024 * 1024

    @classmethod
    def from_env(cls) -> Limits:
        """The limits the environment sets (the defaults for the rest)."""
        rates: dict[str, list[RateLimitItem]] = {}
        for kind, (name, default) in RATES.items():
            text = os.environ.get(name, default).strip()
            if text.lower() in OFF:
                continue
            try:
                rates[kind] = parse_many(text)
            except ValueError:
                raise ValueError(f"{name}={text!r}: a rate such as 30/minute, or off") from None
        return cls(
            rates,
            _size("MATHABLE_MAX_BODY", cls.max_body),
            _size("MATHABLE_MAX_RECORD_BODY", cls.max_record_body),
        )


# -- rate limits -----------------------------------------------------------------------


class RateLimited(Exception):
    """Too many requests of one kind from one address: 429, retry after ``seconds``."""

    def __init__(self, message: str, seconds: int) -> None:
        super().__init__(message)
        self.message = message
        self.seconds = seconds


class RateLimiter:
    """Counts each kind of request per client address in a moving window, in memory
    (the synchronous storage: a count is a few dictionary operations, and its expiry
    runs on a timer thread rather than as tasks on the event loop)."""

    def __init__(self, limits: Limits) -> None:
        self.rates = limits.rates
        self.strategy = MovingWindowRateLimiter(MemoryStorage())

    def hit(self, kind: str, address: str, source: str | Text = YOUR_ADDRESS) -> None:
        """Count one request from ``address`` (any key: a player's too, ``source``
        naming it in the refusal); raises :class:`RateLimited` past a limit, its
        message in the request's language."""
        for item in self.rates.get(kind, ()):
            if not self.strategy.hit(item, kind, address):
                stats = self.strategy.get_window_stats(item, kind, address)
                seconds = max(1, math.ceil(stats.reset_time - time.time()))
                raise RateLimited(
                    # TRANSLATORS: "too many actions from your address (at most 600 per
                    # minute): try again in 12 s"; s is seconds
                    _(
                        "too many {what} from {source} (at most {amount} per {per}): "
                        "try again in {seconds} s",
                        what=WHAT[kind],
                        source=source,
                        amount=item.amount,
                        per=_per(item),
                        seconds=seconds,
                    ),
                    seconds,
                )


UNITS: dict[str, Text] = {
    # TRANSLATORS: a rate limit's window: "at most 30 per minute"
    "second": lazy_context("rate limit", "second"),
    "minute": lazy_context("rate limit", "minute"),
    "hour": lazy_context("rate limit", "hour"),
    "day": lazy_context("rate limit", "day"),
    "month": lazy_context("rate limit", "month"),
    "year": lazy_context("rate limit", "year"),
}
"""The window of a rate limit of one unit: "per minute"."""

COUNTED_UNITS: dict[str, Callable[[int], Text]] = {
    # TRANSLATORS: a rate limit's window: "at most 5 per 10 seconds"
    "second": lambda n: lazy_plural("{count} second", "{count} seconds", n),
    "minute": lambda n: lazy_plural("{count} minute", "{count} minutes", n),
    "hour": lambda n: lazy_plural("{count} hour", "{count} hours", n),
    "day": lambda n: lazy_plural("{count} day", "{count} days", n),
    "month": lambda n: lazy_plural("{count} month", "{count} months", n),
    "year": lambda n: lazy_plural("{count} year", "{count} years", n),
}
"""The window of a rate limit of several units: "per 10 seconds"."""


def _per(item: RateLimitItem) -> str | Text:
    unit = item.GRANULARITY.name
    if unit not in UNITS:
        return unit if item.multiples == 1 else f"{item.multiples} {unit}s"
    return UNITS[unit] if item.multiples == 1 else COUNTED_UNITS[unit](item.multiples)


def rate_limited(kind: str) -> Callable[[Request], Awaitable[None]]:
    """A route dependency counting the request against its address's ``kind`` limit."""

    async def check(request: Request) -> None:
        limiter: RateLimiter = request.app.state.rate_limiter
        limiter.hit(kind, request.client.host if request.client else "")

    return check


# -- the body limit --------------------------------------------------------------------


class BodyTooLarge(HTTPException):
    """A request body over its limit (413). An HTTPException, so that FastAPI's reading
    of a body passes it on unchanged to the app's handler."""

    def __init__(self, limit: int) -> None:
        super().__init__(
            413,
            ngettext(
                "the request body is larger than {count} byte: refused",
                "the request body is larger than {count} bytes: refused",
                limit,
            ),
        )
        self.limit = limit


class BodyLimit:
    """Refuses a request body over its limit before reading it all (ASGI middleware)."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits

    def limit_for(self, scope: Scope) -> int:
        """Records (``POST /api/records``) may be larger than any other body."""
        if scope["path"].rstrip("/") == "/api/records":
            return self.limits.max_record_body
        return self.limits.max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limit_for(scope)
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _too_large(limit, scope, receive, send)
            return
        received = 0
        started = False

        async def counted() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise BodyTooLarge(limit)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, counted, watched)
        except BodyTooLarge:
            if started:
                raise
            await _too_large(limit, scope, receive, send)


async def _too_large(limit: int, scope: Scope, receive: Receive, send: Send) -> None:
    response = JSONResponse({"error": BodyTooLarge(limit).detail}, status_code=413)
    response.headers["Connection"] = "close"
    await response(scope, receive, send)


# -- the headers -----------------------------------------------------------------------

PAGE_POLICY = "; ".join(
    [
        "default-src 'self'",
        "img-src 'self' data:",  # the page's icon is a data: URL
        "connect-src 'self'",  # the API and its WebSocket, same origin
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
"""The page's Content-Security-Policy: its own script and style files only."""

DOCS_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net",
        "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com",
        "font-src 'self' https://fonts.gstatic.com",
        "img-src 'self' data: https://fastapi.tiangolo.com https://cdn.redoc.ly",
        "worker-src 'self' blob:",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
    ]
)
"""The API documentation (``/docs``, ``/redoc``): FastAPI's pages load Swagger UI and
ReDoc from their CDN and start them with an inline script."""

DOCS = ("/docs", "/redoc")


class SecurityHeaders:
    """Adds the security and cache headers to every HTTP answer (ASGI middleware)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        policy = DOCS_POLICY if path.startswith(DOCS) else PAGE_POLICY
        # API answers hold a seat's rack: never stored; the page and its files are
        # revalidated (ETag) so that a new version is never missed
        cache = "no-store" if path.startswith("/api/") else "no-cache"

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers["Content-Security-Policy"] = policy
                headers["X-Frame-Options"] = "DENY"
                headers["X-Content-Type-Options"] = "nosniff"
                headers["Referrer-Policy"] = "no-referrer"
                headers["Cross-Origin-Opener-Policy"] = "same-origin"
                headers.setdefault("Cache-Control", cache)
            await send(message)

        await self.app(scope, receive, with_headers)


# -- installing ------------------------------------------------------------------------


def install(app: FastAPI, limits: Limits) -> None:
    """The rate limiter (``app.state.rate_limiter``, used by :func:`rate_limited`), its
    429 answer, the body limit and the headers (outermost, so every answer has them)."""
    app.state.rate_limiter = RateLimiter(limits)

    @app.exception_handler(RateLimited)
    async def too_many(_: Request, exc: RateLimited) -> JSONResponse:
        return JSONResponse(
            {"error": exc.message, "retry_after": exc.seconds},
            status_code=429,
            headers={"Retry-After": str(exc.seconds)},
        )

    app.add_middleware(BodyLimit, limits=limits)
    app.add_middleware(SecurityHeaders)
