"""The players' routes (issue 15, "Players"): who I am, my name, accounts, logging in and
out, my sessions, and anyone's public profile.

The session (issue 30, :mod:`.sessions`) is a row on the server; the cookie holds its id
signed with itsdangerous (:class:`SessionCookies`, installed by :func:`install`) and
nothing else. A first visit gets a guest known by the cookie alone, so nobody types a
token, and no row is made before their first write. Logging in or signing up opens a
new session and ends the old one (no fixation); logging out deletes it. A cookie whose
signature fails, or of the format before issue 30 (the player id itself), is ignored: a
fresh guest. The logic is :class:`~.players.PlayerStore`'s and
:class:`~.sessions.SessionStore`'s, run in a thread (argon2 and the database block).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Request
from itsdangerous import BadSignature, Signer
from pydantic import BaseModel, Field
from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import cookie_parser
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from mathable.engine.validation import MAX_NAME_LENGTH
from mathable.i18n import _
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.limits import rate_limited
from mathable.web.players.players import MAX_PASSWORD, MIN_PASSWORD, Player, PlayerStore
from mathable.web.players.sessions import (
    LIFETIME,
    VISITOR,
    SessionStore,
    Visitor,
    handle,
    visitor_of,
)
from mathable.web.ratings.standings import HistoryOut, RatingOut, Standings

COOKIE = "mathable_session"
MAX_AGE = LIFETIME
"""The cookie's ``Max-Age``: the session's lifetime, sent again when it slides."""
SALT = "mathable.session"
"""The signer's salt: a session cookie's signature is good for nothing else."""
MAX_COOKIE = 200
"""A session cookie longer than this (characters) is not read."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
NAMING_READ = "/api/me"
"""The one read whose answer sets a fresh guest's cookie (a page asks it before anything
else, and it names the guest); any write does too (:class:`SessionCookies`)."""

# -- shapes ------------------------------------------------------------------------------


class NameIn(BaseModel):
    """A new display name, printed exactly as typed."""

    name: str = Field(max_length=MAX_NAME_LENGTH, description="Not blank, no control characters.")


class AccountIn(BaseModel):
    """A name and a password: to make an account, or to log in to one."""

    name: str = Field(max_length=MAX_NAME_LENGTH, description="Unique whatever its case.")
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class LoginIn(BaseModel):
    """An account's name and password (any wrong pair: 401)."""

    name: str = Field(max_length=MAX_NAME_LENGTH)
    password: str = Field(max_length=MAX_PASSWORD)


class PasswordIn(BaseModel):
    """An account's current password and its new one: every other session ends."""

    current: str = Field(max_length=MAX_PASSWORD, description="The password in use now.")
    password: str = Field(min_length=MIN_PASSWORD, max_length=MAX_PASSWORD)


class SessionOut(BaseModel):
    """One of my sessions: a browser or device logged in as me."""

    id: str = Field(description="Its public name (not the cookie): to end it.")
    created: float = Field(description="When it was opened (Unix time).")
    last_seen: float = Field(description="When it was last used, within a minute (Unix time).")
    user_agent: str = Field(description="The browser's ``User-Agent`` when it was opened.")
    current: bool = Field(description="True for the session of this request.")


class EndedOut(BaseModel):
    """What ending sessions did."""

    ended: int = Field(description="How many other sessions ended.")


class MeOut(BaseModel):
    """The player behind the session cookie."""

    id: str
    name: str
    kind: Literal["person", "bot"]
    account: bool = Field(description="False for a guest: no password, this device only.")


class ProfileOut(BaseModel):
    """What anyone may see of a player."""

    id: str
    name: str
    kind: Literal["person", "bot"] = Field(description="``bot``: a computer player.")
    created: float = Field(description="When the player was made (Unix time).")
    bot_account: bool = Field(default=False, description="A bot account (issue 36): BOT.")
    ratings: list[RatingOut] = Field(
        default_factory=list, description="Per game and pace played rated (issue 15)."
    )
    games: HistoryOut | None = Field(
        default=None,
        description="The finished games, newest first: the first page of "
        "``GET /api/players/{id}/games``.",
    )


# -- the session -------------------------------------------------------------------------


def get_players(request: Request) -> PlayerStore:
    """The application's players."""
    found: PlayerStore = request.app.state.players
    return found


PlayersDep = Annotated[PlayerStore, Depends(get_players)]


def get_sessions(request: Request) -> SessionStore:
    """The application's sessions."""
    found: SessionStore = request.app.state.sessions
    return found


SessionsDep = Annotated[SessionStore, Depends(get_sessions)]


async def current_player(request: Request) -> Player:
    """The player of the session cookie. For a guest known by the cookie alone (or a
    first visit: a new cookie), a read answers the guest their row will be, and a write
    (any other method than GET and HEAD) makes the row: a visit makes nothing."""
    visitor = visitor_of(request)
    if request.method in SAFE_METHODS:
        return visitor.reader()
    return await visitor.writer()


async def _open(visitor: Visitor, sessions: SessionStore, player: Player, *, every: bool) -> int:
    """A new session of ``player`` for this browser, its old one ended (and with
    ``every`` all the player's others): how many others ended."""
    before = await asyncio.to_thread(sessions.count, player.id) if every else 0
    ending = visitor.session_id if visitor.live else None
    session_id = await asyncio.to_thread(
        sessions.open, player.id, visitor.user_agent, ending=ending, every=every
    )
    visitor.switch(session_id, player)
    return max(0, before - (1 if ending is not None and every else 0))


def _account(visitor: Visitor) -> Player:
    """The account of this session; 401 for a guest."""
    if visitor.player is None or not visitor.player.account:
        raise ServiceError(401, _("log in to your account first"))
    return visitor.player


MeDep = Annotated[Player, Depends(current_player)]

# -- the routes --------------------------------------------------------------------------

router = APIRouter(
    prefix="/api",
    tags=["players"],
    responses={**REFUSALS, 401: {"model": REFUSALS[400]["model"], "description": "Not logged in"}},
)
login_limited = [Depends(rate_limited("login"))]


@router.get("/me", summary="Who I am (a guest on a first visit)", response_model=MeOut)
async def me(player: MeDep) -> dict[str, Any]:
    """The player of this browser's session cookie, made on the first visit: a guest with
    a display name, until they make an account or log in."""
    return player.me()


@router.patch("/me", summary="Change my display name", response_model=MeOut)
async def rename(body: NameIn, player: MeDep, store: PlayersDep) -> dict[str, Any]:
    """An account's new name must be free whatever its case (409)."""
    return (await asyncio.to_thread(store.rename, player.id, body.name)).me()


@router.post(
    "/accounts",
    status_code=201,
    summary="Make an account of me",
    response_model=MeOut,
    dependencies=login_limited,
)
async def register(
    body: AccountIn, request: Request, player: MeDep, store: PlayersDep, sessions: SessionsDep
) -> dict[str, Any]:
    """The guest of this session becomes an account (their games stay theirs): a name
    free whatever its case (409 if taken), a password of 8 to 200 characters, kept as
    an argon2 hash only. The browser gets a new session: every session the guest had
    ends, so a cookie planted before is never the account."""
    made = await asyncio.to_thread(store.register, player.id, body.name, body.password)
    await _open(visitor_of(request), sessions, made, every=True)
    return made.me()


@router.post("/session", summary="Log in", response_model=MeOut, dependencies=login_limited)
async def login(
    body: LoginIn, request: Request, store: PlayersDep, sessions: SessionsDep
) -> dict[str, Any]:
    """A new session of the account for this browser (its old session ends); a wrong
    name or password: 401, one answer for both."""
    player = await asyncio.to_thread(store.login, body.name, body.password)
    await _open(visitor_of(request), sessions, player, every=False)
    return player.me()


@router.delete("/session", summary="Log out (a new guest)", response_model=MeOut)
async def logout(request: Request, sessions: SessionsDep) -> dict[str, Any]:
    """The session is deleted on the server (its cookie is worth nothing from now on);
    this browser is a fresh guest."""
    visitor = visitor_of(request)
    if visitor.live and visitor.session_id is not None:
        await asyncio.to_thread(sessions.end, visitor.session_id)
    visitor.switch(None, None)
    return visitor.reader().me()


@router.get(
    "/me/sessions",
    summary="My sessions (browsers logged in as me)",
    response_model=list[SessionOut],
)
async def my_sessions(request: Request, sessions: SessionsDep) -> list[dict[str, Any]]:
    """Every live session of my player, the most recently used first, this one marked
    ``current``; none for a guest who has not written yet."""
    visitor = visitor_of(request)
    if visitor.player is None:
        return []
    found = await asyncio.to_thread(sessions.of, visitor.player.id, visitor.session_id)
    return [session.shown() for session in found]


@router.delete(
    "/me/sessions/{session_id}", summary="End one of my sessions", response_model=list[SessionOut]
)
async def end_session(
    session_id: Annotated[str, Path(max_length=64, description="A session's ``id``.")],
    request: Request,
    sessions: SessionsDep,
) -> list[dict[str, Any]]:
    """That browser is logged out (404: not a session of mine). Ending this session
    logs this browser out too. Answers my sessions left."""
    visitor = visitor_of(request)
    if visitor.player is None:
        raise ServiceError(404, _("field 'id': no such session of yours"))
    player = visitor.player
    await asyncio.to_thread(sessions.end_one, player.id, session_id)
    if visitor.live and visitor.session_id is not None and handle(visitor.session_id) == session_id:
        visitor.switch(None, None)
        return []
    found = await asyncio.to_thread(sessions.of, player.id, visitor.session_id)
    return [session.shown() for session in found]


@router.post(
    "/me/logout-everywhere",
    summary="Log out everywhere (this browser stays, in a new session)",
    response_model=EndedOut,
)
async def logout_everywhere(request: Request, sessions: SessionsDep) -> dict[str, Any]:
    """Every session of my account ends, on every device; this browser gets a new one
    (a stolen copy of its cookie ends too). 401 for a guest."""
    visitor = visitor_of(request)
    return {"ended": await _open(visitor, sessions, _account(visitor), every=True)}


@router.post(
    "/me/password",
    summary="Change my password (every other session ends)",
    response_model=EndedOut,
    dependencies=login_limited,
)
async def change_password(
    body: PasswordIn, request: Request, store: PlayersDep, sessions: SessionsDep
) -> dict[str, Any]:
    """The current password must be right (403); the new one is 8 to 200 characters.
    Every session of the account ends but this browser's, which gets a new one."""
    visitor = visitor_of(request)
    player = _account(visitor)
    await asyncio.to_thread(store.change_password, player.id, body.current, body.password)
    return {"ended": await _open(visitor, sessions, player, every=True)}


@router.get("/players/{player_id}", summary="A player's public profile", response_model=ProfileOut)
async def profile(player_id: str, store: PlayersDep, request: Request) -> dict[str, Any]:
    """Who the player is, their ratings and their last finished games."""
    found = await asyncio.to_thread(store.get, player_id)
    if found is None:
        raise ServiceError(404, _("no such player"))
    answer = found.profile()
    bots = getattr(request.app.state, "bot_accounts", None)  # issue 36: marked BOT
    answer["bot_account"] = bots is not None and await asyncio.to_thread(bots.is_bot, player_id)
    standings: Standings | None = getattr(request.app.state, "standings", None)
    if standings is not None:
        answer["ratings"] = await asyncio.to_thread(standings.ratings_of, player_id)
        answer["games"] = await asyncio.to_thread(standings.history, player_id)
    return answer


# -- the cookie ---------------------------------------------------------------------------


def secure_setting(text: str) -> bool | None:
    """``MATHABLE_SECURE_COOKIES``: ``auto`` (or unset: ``Secure`` when the request came
    over HTTPS, as the proxy's ``X-Forwarded-Proto`` says to uvicorn), ``on`` or ``off``."""
    value = text.strip().lower()
    if value in ("", "auto"):
        return None
    if value in ("1", "on", "yes", "true"):
        return True
    if value in ("0", "off", "no", "false"):
        return False
    raise ValueError(f"MATHABLE_SECURE_COOKIES={text!r}: auto, on or off")


class SessionCookies:
    """ASGI middleware: reads the session cookie of each API request and socket once
    (one indexed read), puts its :class:`~.sessions.Visitor` in the scope, and sends the
    cookie when it changed (a new session, a fresh guest, a session seen again: its
    ``Max-Age`` slides). ``secure`` None: ``Secure`` over HTTPS only."""

    def __init__(
        self, app: ASGIApp, sessions: SessionStore, secret_key: str, secure: bool | None
    ) -> None:
        self.app = app
        self.sessions = sessions
        self.signer = Signer(secret_key, salt=SALT)
        self.secure = secure

    def _session_id(self, headers: Headers) -> str | None:
        """The id of a well-signed session cookie (None: no cookie, or not one of ours)."""
        value = cookie_parser(headers.get("cookie", "")[:8192]).get(COOKIE, "")
        if not value or len(value) > MAX_COOKIE:
            return None
        try:
            return self.signer.unsign(value).decode("ascii")
        except (BadSignature, UnicodeError, ValueError):
            return None

    def _cookie(self, session_id: str, scope: Scope) -> str:
        secure = self.secure if self.secure is not None else scope.get("scheme") == "https"
        value = self.signer.sign(session_id).decode("ascii")
        flags = f"; Path=/; Max-Age={MAX_AGE}; HttpOnly; SameSite=Lax"
        return f"{COOKIE}={value}{flags}{'; Secure' if secure else ''}"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        session: dict[str, Any] = {}
        scope["session"] = session
        if not str(scope.get("path", "")).startswith("/api/"):  # the pages and their files
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        session_id = self._session_id(headers)
        found = None
        if session_id is not None:
            touch = scope["type"] == "http"  # a socket cannot send the cookie again
            found = await asyncio.to_thread(self.sessions.resolve, session_id, touch=touch)
        agent = headers.get("user-agent", "")
        socket = scope["type"] == "websocket"
        visitor = Visitor(self.sessions, session, session_id, found, agent, socket=socket)
        scope[VISITOR] = visitor
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        # A fresh guest's cookie (none was sent, or it named an ended session) is set by
        # an answer to /api/me or to a write, never by another read's: a read sent before
        # a log-in and answered after it would put a stranger's cookie over the account's
        # (the browser logged out), and on a first visit over a seat just bound
        names_guest = scope["method"] not in SAFE_METHODS or scope["path"] == NAMING_READ

        async def sending(message: Message) -> None:
            starting = message["type"] == "http.response.start"
            if (
                starting
                and visitor.changed
                and visitor.session_id is not None
                and (visitor.live or names_guest)
            ):
                answer = MutableHeaders(scope=message)
                answer.append("set-cookie", self._cookie(visitor.session_id, scope))
            await send(message)

        await self.app(scope, receive, sending)


# -- installing --------------------------------------------------------------------------


def install(app: FastAPI, store: PlayerStore, secret_key: str, *, secure: bool | None) -> None:
    """The players' store (``app.state.players``), the sessions (``app.state.sessions``),
    the session cookie (``Secure`` when ``secure``; None: when served over HTTPS) and the
    routes."""
    app.state.players = store
    app.state.sessions = sessions = SessionStore(store, secret_key)
    app.add_middleware(SessionCookies, sessions=sessions, secret_key=secret_key, secure=secure)
    app.include_router(router)
