"""The web app: JSON API (documented at /docs), WebSocket live updates, the page.

The layout follows the FastAPI full-stack template: :mod:`.routes` (thin routers),
:mod:`.schemas` (input and response models), :mod:`.deps` (the service and the seat a
token opens, as ``Annotated`` dependencies), :mod:`.service` (everything between HTTP
and the engine) and :mod:`.store` (the event store). This module builds the app from
the settings and answers every refusal as ``{"error": message, ...}``: nothing a
client sends can cause a 500.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from http import HTTPStatus
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware

from mathable.games.registry import GAMES
from mathable.i18n import Text, _, lazy, ngettext
from mathable.online.clocks import FIRST_MOVE_LIVE_MS
from mathable.web.chat import chat
from mathable.web.infra import (  # issue 30: origin checks
    assets,  # issue 32: the page's files by hashed names
    language,
    origin,
)
from mathable.web.infra.connections import Admissions, SocketLimits
from mathable.web.infra.db import shown_database_url
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.inputs import CheckedBodies
from mathable.web.infra.limits import Limits
from mathable.web.infra.limits import install as install_limits
from mathable.web.infra.store import EventStore, secret_key
from mathable.web.infra.workers import Workers, default_size
from mathable.web.keeper import routes as keeper
from mathable.web.learning import (
    classes,  # issue 18: the class view for teachers
    learning,  # issue 18: GET /api/explain
    lessons,  # issue 18: /learn and /api/lessons
    practice,  # issue 18: /practice and its panel
    printing,  # issue 18: printable puzzle sets and games
    puzzles,
)
from mathable.web.lobby import botapi  # issue 36: the Bot API
from mathable.web.lobby import routes as lobby
from mathable.web.players import accounts
from mathable.web.players.players import PlayerStore
from mathable.web.ratings import standings
from mathable.web.rounds import routes
from mathable.web.rounds.presence import CLAIM_AFTER
from mathable.web.rounds.service import GameService
from mathable.web.tournaments import routes as tournaments  # issue 38


def _whole(name: str, default: int, low: int) -> int:
    """A whole-number setting from the environment, at least ``low``."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name}={text!r}: a whole number") from None
    if value < low:
        raise ValueError(f"{name}={value}: at least {low}")
    return value


def _seconds(name: str, default: float) -> float:
    """A positive number of seconds from the environment."""
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not value > 0:
        raise ValueError(f"{name}={text!r}: a positive number of seconds")
    return value


def _switch(name: str) -> bool:
    """An on/off setting from the environment (default off)."""
    text = os.environ.get(name, "").strip().lower()
    if text in ("", "0", "off", "no", "false"):
        return False
    if text in ("1", "on", "yes", "true"):
        return True
    raise ValueError(f"{name}={text!r}: on or off")


MIN_SECRET = 32
"""The shortest ``MATHABLE_SECRET_KEY``, in characters."""


class Settings:
    """Settings from the environment: ``DATABASE_URL`` (default ``sqlite:///mathable.db``, a
    SQLite file; ``postgresql://user:password@host:5432/db`` for PostgreSQL, shared by any
    number of server processes; a bad URL is refused in one line, never with its password);
    ``MATHABLE_WORKERS``, the worker processes for computer players, hints and analysis
    (default one per core but one; 0 runs them on a thread); ``MATHABLE_LIVE_GAMES``, the
    idle games kept in memory (default 500; the others are reloaded on demand).
    What one client may ask: :class:`~.limits.Limits` (``MATHABLE_RATE_*`` per address,
    ``MATHABLE_MAX_BODY``, ``MATHABLE_MAX_RECORD_BODY``) and the live connections:
    :class:`~.connections.SocketLimits` (``MATHABLE_WS_*``, ``MATHABLE_SPECTATORS_PER_GAME``,
    ``MATHABLE_SOCKETS_PER_ADDRESS``). ``MATHABLE_CLAIM_AFTER``: the seconds a player to
    move must be away before a claim (default 60). The session cookie:
    ``MATHABLE_SECRET_KEY``, the key that signs it (default: one made at random and kept in
    the database, shared by every process over it), ``MATHABLE_SECURE_COOKIES`` (``auto``,
    the default: ``Secure`` when served over HTTPS; ``on``, ``off``).
    ``MATHABLE_DOMAIN``: the site's own origins, the only pages
    whose changes and sockets the cookie may authenticate (default: the request's
    ``Host``; :mod:`.origin`)."""

    def __init__(self) -> None:
        self.database_url = os.environ.get("DATABASE_URL", "sqlite:///mathable.db")
        self.shown_database_url = shown_database_url(self.database_url)
        """The database URL as it may be printed: its password hidden."""
        self.workers = _whole("MATHABLE_WORKERS", default_size(), 0)
        self.live_games = _whole("MATHABLE_LIVE_GAMES", 500, 1)
        self.limits = Limits.from_env()
        self.sockets = SocketLimits.from_env()
        self.secret_key = os.environ.get("MATHABLE_SECRET_KEY", "").strip() or None
        if self.secret_key is not None and len(self.secret_key) < MIN_SECRET:
            raise ValueError(f"MATHABLE_SECRET_KEY: at least {MIN_SECRET} characters")
        self.secure_cookies = accounts.secure_setting(os.environ.get("MATHABLE_SECURE_COOKIES", ""))
        self.claim_after = _seconds("MATHABLE_CLAIM_AFTER", CLAIM_AFTER)
        """Seconds the seat to move must be away before a claim."""
        self.first_move = _seconds("MATHABLE_FIRST_MOVE", FIRST_MOVE_LIVE_MS / 1000)
        """Seconds for a first move in a live game (ruling O4)."""
        self.domain = origin.domain_from_env()
        """The site's own origins (issue 30; empty: the request's ``Host``)."""


GZIP_MINIMUM = 1000
"""Bytes from which an answer is gzipped (smaller ones gain little for the work)."""


def _choices(expected: str) -> str:
    """A literal's choices as pydantic lists them (``'a', 'b' or 'c'``), without its
    English "or": ``'a', 'b', 'c'``."""
    found = re.findall(r"'(?:[^'\\]|\\.)*'|-?\d+(?:\.\d+)?|True|False|None", expected)
    return ", ".join(found) if found else expected


Problem = Callable[[str, Mapping[str, Any]], str]
"""A field's validation error in words: from the field's path and the error's ``ctx``."""

PROBLEMS: dict[str, Problem] = {
    "missing": lambda f, c: _("{field}: required", field=f),
    "extra_forbidden": lambda f, c: _("{field}: not a field of this request", field=f),
    "string_type": lambda f, c: _("{field}: a text", field=f),
    "string_too_long": lambda f, c: ngettext(
        "{field}: at most {count} character",
        "{field}: at most {count} characters",
        int(c.get("max_length", 0)),
        field=f,
    ),
    "string_too_short": lambda f, c: ngettext(
        "{field}: at least {count} character",
        "{field}: at least {count} characters",
        int(c.get("min_length", 0)),
        field=f,
    ),
    "too_long": lambda f, c: ngettext(
        "{field}: at most {count} item, not {actual}",
        "{field}: at most {count} items, not {actual}",
        int(c.get("max_length", 0)),
        field=f,
        actual=c.get("actual_length", "?"),
    ),
    "too_short": lambda f, c: ngettext(
        "{field}: at least {count} item, not {actual}",
        "{field}: at least {count} items, not {actual}",
        int(c.get("min_length", 0)),
        field=f,
        actual=c.get("actual_length", "?"),
    ),
    "int_type": lambda f, c: _("{field}: a whole number", field=f),
    "int_parsing": lambda f, c: _("{field}: a whole number", field=f),
    "int_from_float": lambda f, c: _("{field}: a whole number", field=f),
    "float_type": lambda f, c: _("{field}: a number", field=f),
    "float_parsing": lambda f, c: _("{field}: a number", field=f),
    "bool_type": lambda f, c: _("{field}: true or false", field=f),
    "bool_parsing": lambda f, c: _("{field}: true or false", field=f),
    "greater_than_equal": lambda f, c: _(
        "{field}: at least {least}", field=f, least=c.get("ge", "?")
    ),
    "greater_than": lambda f, c: _("{field}: more than {low}", field=f, low=c.get("gt", "?")),
    "less_than_equal": lambda f, c: _("{field}: at most {most}", field=f, most=c.get("le", "?")),
    "less_than": lambda f, c: _("{field}: less than {high}", field=f, high=c.get("lt", "?")),
    "literal_error": lambda f, c: _(
        "{field}: one of {choices}", field=f, choices=_choices(str(c.get("expected", "")))
    ),
    "enum": lambda f, c: _(
        "{field}: one of {choices}", field=f, choices=_choices(str(c.get("expected", "")))
    ),
    "model_type": lambda f, c: _("{field}: an object", field=f),
    "model_attributes_type": lambda f, c: _("{field}: an object", field=f),
    "dict_type": lambda f, c: _("{field}: an object", field=f),
    "list_type": lambda f, c: _("{field}: a list", field=f),
    # TRANSLATORS: a field of a request, then what is wrong with it (the checker's words)
    "value_error": lambda f, c: _("{field}: {problem}", field=f, problem=c.get("error", "")),
}
"""The common validation errors in our words (pydantic's ``type`` → its message); any
other keeps pydantic's English ``msg``."""

BODY = "body"
"""The path of an error in the request body as a whole (a field path is not translated)."""


def validation_problem(error: Mapping[str, Any]) -> str:
    """One validation error of a request in the current language: the field's path as
    it is (``seats.0.name``), then what is wrong with it."""
    kind = str(error.get("type", ""))
    context: Mapping[str, Any] = error.get("ctx") or {}
    if kind == "json_invalid":
        reason = str(context.get("error", ""))
        if reason:
            return _("the body is not valid JSON ({reason})", reason=reason)
        return _("the body is not valid JSON")
    where = ".".join(str(p) for p in error.get("loc", ()) if p != "body") or BODY
    problem = PROBLEMS.get(kind)
    if problem is not None:
        return problem(where, context)
    # TRANSLATORS: a field of a request, then what is wrong with it (the checker's words)
    return _("{field}: {problem}", field=where, problem=error.get("msg") or _("invalid"))


STATUS_TEXTS: dict[int, Text] = {
    HTTPStatus.NOT_FOUND: lazy("Not Found"),
    HTTPStatus.METHOD_NOT_ALLOWED: lazy("Method Not Allowed"),
}
"""The framework's own refusals (no such route, a method it does not take), by status."""


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal as ``{"error": message, ...}`` with its 4xx status, its message in
    the request's language."""

    @app.exception_handler(ServiceError)
    async def refused(_request: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> JSONResponse:
        # each once: a body read by a dependency and its route is checked twice
        problems = dict.fromkeys(validation_problem(error) for error in exc.errors())
        return JSONResponse({"error": "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        detail = str(exc.detail)
        known = STATUS_TEXTS.get(exc.status_code)
        if known is not None and detail == HTTPStatus(exc.status_code).phrase:
            detail = str(known)
        return JSONResponse({"error": detail}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        return JSONResponse(
            {"error": _("internal error: {error}", error=type(exc).__name__)}, status_code=500
        )


def create_app(database_url: str | None = None) -> FastAPI:
    """The application, on the event store at ``database_url`` (or the settings')."""
    settings = Settings()
    store = EventStore(database_url or settings.database_url)
    service = GameService(store, Workers(settings.workers), settings.live_games)
    service.claim_after = settings.claim_after
    service.first_move = settings.first_move
    players = PlayerStore(store)
    players.ensure_bots()
    service.standings.seed_bots(time.time())  # the computer levels' starting ratings

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        """Start the worker pool and resume computer players; stop both at shutdown."""
        await service.start()
        tournaments.start(app)  # the periodic look at tournaments under way (issue 38)
        try:
            yield
        finally:
            await tournaments.close(app)
            await lobby.close(app)  # the lobby's feed and notes (issue 29)
            await service.close()

    titles = ", ".join(kind.title for kind in GAMES.values())
    app = FastAPI(
        lifespan=lifespan,
        title="Mathable",
        version="1",
        description=(
            f"Play {titles}. Create a game, then play a seat with the secret token of its "
            "link: GET the view, POST actions, or listen on the WebSocket. Spectators omit "
            "the token and see the public view. Every game's capabilities "
            "(`/api/variants`) say what to draw and which actions to offer."
        ),
    )
    app.state.service = service
    app.state.admissions = Admissions(settings.sockets)
    _answer_refusals(app)
    # the games' routes first: an action's POST and socket are most of the traffic, and a
    # request is matched against the routes in order (no other route shares their paths:
    # tests/web/test_routes_order.py)
    for router in (routes.catalog, routes.games, routes.after, routes.live):
        app.include_router(router)
    # the session cookie (innermost: the answers that set it are gzipped and get the
    # security headers too) and the players' routes
    accounts.install(
        app, players, settings.secret_key or secret_key(store), secure=settings.secure_cookies
    )
    # a change or socket the cookie authenticates comes from the site's own pages (issue 30)
    app.add_middleware(origin.OriginCheck, domain=settings.domain, cookie=accounts.COOKIE)
    lobby.install(app, store)  # the lobby's seeks, page and routes (issue 15)
    botapi.install(app, store)  # bot accounts, challenges, streams (issue 36)
    keeper.install(app, store)  # the score keeper of games on a real board (issue 37)
    tournaments.install(app, store)  # Swiss, round robin and arena events (issue 38)
    app.include_router(printing.router)  # issue 18: before /api/puzzles/{id} catches print
    puzzles.install(app)  # the puzzles' page and API (issue 18)
    standings.install(app, service.standings)  # leaderboard, histories (issue 15)
    # gzip for the page's files and JSON answers (those that ask for it), inside the
    # limits and the security headers, which every answer keeps
    # a body is UTF-8 text, no lone surrogate, no nest too deep, before any route reads it
    # (issue 30), inside the body limit
    app.add_middleware(CheckedBodies)
    app.add_middleware(GZipMiddleware, minimum_size=GZIP_MINIMUM, compresslevel=6)
    install_limits(app, settings.limits)
    app.include_router(routes.pages)
    app.include_router(assets.router)  # the page's files by hashed names (issue 32)
    app.mount("/static", StaticFiles(directory=assets.STATIC), name="static")
    app.include_router(chat.router)  # the chat of each game (issue 15)
    app.include_router(learning.router)  # explained placements (issue 18)
    app.include_router(practice.router)  # practice: the page and its panel (issue 18)
    app.include_router(lessons.router)  # the guided lessons (issue 18)
    app.include_router(classes.router)  # the class view for teachers (issue 18)
    language.install(app)  # every answer in its reader's language (issue 17): outermost
    return app
