"""The players' routes (issue 15, "Players"): who I am, my name, accounts, logging in and
out, and anyone's public profile.

The session is a cookie signed by Starlette's ``SessionMiddleware`` (itsdangerous;
installed by :func:`install`) holding the player's id and nothing else: a first visit
gets a guest, so nobody types a token; a cookie whose signature fails is ignored (a new
guest). The logic is :class:`~.players.PlayerStore`'s, run in a thread (argon2 and the
database block).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Request
from pydantic import BaseModel, Field
from starlette.middleware.sessions import SessionMiddleware

from mathable.engine.validation import MAX_NAME_LENGTH
from mathable.i18n import _

from . import seating
from .limits import rate_limited
from .players import MAX_PASSWORD, MIN_PASSWORD, Player, PlayerStore
from .routes import REFUSALS
from .service import ServiceError
from .standings import HistoryOut, RatingOut, Standings

COOKIE = "mathable_session"
MAX_AGE = 365 * 24 * 60 * 60
"""A session lasts a year from its last change (a guest keeps their games that long)."""
SESSION_KEY = seating.SESSION_KEY

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


def _sign_in(request: Request, player: Player) -> Player:
    """The session is now ``player``'s (a new cookie, signed)."""
    request.session.clear()
    request.session[SESSION_KEY] = player.id
    return player


async def current_player(request: Request, store: PlayersDep) -> Player:
    """The player of the session cookie; a new guest when there is none, or when its
    player is not in the database (a database started afresh)."""
    player_id = request.session.get(SESSION_KEY)
    if isinstance(player_id, str):
        found = await asyncio.to_thread(store.get, player_id)
        if found is not None and found.kind == "person":
            return found
    return _sign_in(request, await asyncio.to_thread(store.new_guest))


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
    body: AccountIn, request: Request, player: MeDep, store: PlayersDep
) -> dict[str, Any]:
    """The guest of this session becomes an account (their games stay theirs): a name
    free whatever its case (409 if taken), a password of 8 to 200 characters, kept as
    an argon2 hash only."""
    made = await asyncio.to_thread(store.register, player.id, body.name, body.password)
    return _sign_in(request, made).me()


@router.post("/session", summary="Log in", response_model=MeOut, dependencies=login_limited)
async def login(body: LoginIn, request: Request, store: PlayersDep) -> dict[str, Any]:
    """This session becomes the account's; a wrong name or password: 401, one answer
    for both."""
    return _sign_in(request, await asyncio.to_thread(store.login, body.name, body.password)).me()


@router.delete("/session", summary="Log out (a new guest)", response_model=MeOut)
async def logout(request: Request, store: PlayersDep) -> dict[str, Any]:
    """The session is a new guest's from now on."""
    return _sign_in(request, await asyncio.to_thread(store.new_guest)).me()


@router.get("/players/{player_id}", summary="A player's public profile", response_model=ProfileOut)
async def profile(player_id: str, store: PlayersDep, request: Request) -> dict[str, Any]:
    """Who the player is, their ratings and their last finished games."""
    found = await asyncio.to_thread(store.get, player_id)
    if found is None:
        raise ServiceError(404, _("no such player"))
    answer = found.profile()
    standings: Standings | None = getattr(request.app.state, "standings", None)
    if standings is not None:
        answer["ratings"] = await asyncio.to_thread(standings.ratings_of, player_id)
        answer["games"] = await asyncio.to_thread(standings.history, player_id)
    return answer


# -- installing --------------------------------------------------------------------------


def install(app: FastAPI, store: PlayerStore, secret_key: str, *, secure: bool) -> None:
    """The players' store (``app.state.players``), the session cookie (``Secure`` when
    ``secure``: served over HTTPS only) and the routes."""
    app.state.players = store
    app.add_middleware(
        SessionMiddleware,
        secret_key=secret_key,
        session_cookie=COOKIE,
        max_age=MAX_AGE,
        same_site="lax",
        https_only=secure,
    )
    app.include_router(router)
