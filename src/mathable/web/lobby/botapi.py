"""The Bot API's routes (issue 36), named as lichess's so that a bot author's habits carry
over: bot accounts and their tokens (:mod:`.botaccounts`), challenges
(:mod:`.challenges`), the event and game streams (:mod:`.botstreams`) and a bot's moves.

The bot routes take ``Authorization: Bearer <token>`` only; the challenge routes take a
bearer token or the session cookie (a person in the browser: its changes pass the Origin
checks of :mod:`.origin`, a bearer request is authenticated by its token alone). A bot
plays by the people's rules: its moves go through the service's ``act`` (the engine
decides), its stream is its presence, the clocks and ratings are the game's. Each token
is rate-limited as an address is (the ``action`` and ``seek`` limits), besides its
address.
"""

from __future__ import annotations

import asyncio
import os
from collections import Counter
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Request
from fastapi.responses import Response, StreamingResponse

from mathable.i18n import _, lazy
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.limits import RateLimiter, rate_limited
from mathable.web.infra.store import EventStore
from mathable.web.lobby.botstreams import HEADERS, EventFeed, event_lines, game_lines
from mathable.web.lobby.challenges import (
    ACCEPTED,
    CANCELED,
    DECLINED,
    ChallengeIn,
    ChallengeOut,
    ChallengeStore,
    checked,
    shown,
)
from mathable.web.lobby.seeks import start_game
from mathable.web.players.accounts import current_player
from mathable.web.players.botaccounts import (
    BotAccounts,
    BotAccountsDep,
    BotDep,
    bearer_of,
    bearer_player,
)
from mathable.web.players.players import Player
from mathable.web.rounds.deps import ServiceDep
from mathable.web.rounds.live import Seated
from mathable.web.rounds.service import GameService

NDJSON = "application/x-ndjson"
YOUR_TOKEN = lazy("your token")
MAX_ACTION = 200
"""Characters of a move in a URL."""
STREAMS_PER_ACCOUNT = int(os.environ.get("MATHABLE_BOT_STREAMS", "8"))
"""Streams (events and games together) one account may hold open in a process at once:
a bot needs one event stream and one per game it plays; a token is not a way to tie up
the server (every input bounded)."""

router = APIRouter(prefix="/api", tags=["bot API"], responses=REFUSALS)


def _counted(request: Request, player: Player, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``lines`` counted among the account's open streams while they are read: 429 with
    the reason once it holds :data:`STREAMS_PER_ACCOUNT` (checked before the stream
    starts, so the refusal is an ordinary answer)."""
    open_streams: Counter[str] = request.app.state.bot_streams
    if open_streams[player.id] >= STREAMS_PER_ACCOUNT:
        raise ServiceError(
            429,
            _(
                "this account has {count} streams open: at most {most}",
                count=open_streams[player.id],
                most=STREAMS_PER_ACCOUNT,
            ),
        )
    open_streams[player.id] += 1

    async def counted() -> AsyncIterator[bytes]:
        try:
            async for each in lines:
                yield each
        finally:
            open_streams[player.id] -= 1
            if open_streams[player.id] <= 0:
                del open_streams[player.id]

    return counted()


def get_challenges(request: Request) -> ChallengeStore:
    found: ChallengeStore = request.app.state.challenges
    return found


ChallengesDep = Annotated[ChallengeStore, Depends(get_challenges)]


def _token_limited(request: Request, kind: str) -> None:
    """Count a bearer request against its token's ``kind`` limit."""
    key = getattr(request.state, "token_key", None)
    if key is not None:
        limiter: RateLimiter = request.app.state.rate_limiter
        limiter.hit(kind, key, YOUR_TOKEN)


async def _actor(request: Request, accounts: BotAccountsDep) -> Player:
    """A bearer token's bot account, or without one the session cookie's player."""
    if bearer_of(request) is not None:
        return await bearer_player(request, accounts)
    return await current_player(request)


ActorDep = Annotated[Player, Depends(_actor)]


async def _bots(accounts: BotAccounts, *player_ids: str) -> set[str]:
    return await asyncio.to_thread(accounts.among, list(player_ids))


async def _shown(row: Any, accounts: BotAccounts) -> dict[str, Any]:
    """A challenge as answered, its two players marked if bot accounts."""
    return shown(row, await _bots(accounts, row.challenger, row.dest))


# -- bot accounts ------------------------------------------------------------------------


@router.post("/account/bot", summary="Make my account a bot account: its API token, once")
async def make_bot(request: Request, accounts: BotAccountsDep) -> dict[str, Any]:
    """Logged in (the session cookie) to an account that has played no game (409
    otherwise; 401 a guest): it becomes a bot account, marked BOT wherever its name is
    shown, and the answer holds its API token, shown this once (kept hashed)."""
    player = await current_player(request)
    return {"token": await asyncio.to_thread(accounts.make, player), "bot_account": True}


@router.get("/account", summary="Who I am (a bearer token or the session cookie)")
async def account(player: ActorDep, accounts: BotAccountsDep) -> dict[str, Any]:
    """``id``, ``name``, ``bot_account``: how a bot learns its own id."""
    bots = await _bots(accounts, player.id)
    return {"id": player.id, "name": player.name, "bot_account": player.id in bots}


@router.post("/account/bot/token", summary="A new API token for my bot account (once)")
async def renew_token(player: ActorDep, accounts: BotAccountsDep) -> dict[str, Any]:
    """The old token stops working (403: not a bot account)."""
    return {"token": await asyncio.to_thread(accounts.renew, player)}


@router.delete("/account/bot/token", summary="Revoke my bot account's API token")
async def revoke_token(player: ActorDep, accounts: BotAccountsDep) -> dict[str, Any]:
    """The token stops working at once on every server process; a new one:
    ``POST /api/account/bot/token`` (with the session cookie)."""
    await asyncio.to_thread(accounts.revoke, player)
    return {"ok": True}


# -- the event stream --------------------------------------------------------------------


@router.get(
    "/stream/event",
    summary="My events, as NDJSON (bearer token)",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}, "description": "One JSON object a line"}},
)
async def stream_events(
    request: Request, player: BotDep, challenges: ChallengesDep, accounts: BotAccountsDep
) -> StreamingResponse:
    """``{"type": "challenge" | "challengeCanceled" | "challengeDeclined", "challenge":
    {…}}`` and ``{"type": "gameStart" | "gameFinish", "game": {"id", "seat", "variant",
    "players", "clock", "rated", …}}``, one a line; an empty line every 7 s. On
    connecting: the challenges waiting and the games being played."""
    feed = EventFeed(challenges, player.id, accounts.among)
    poll = float(getattr(request.app.state, "bot_poll", 1.0))
    lines = _counted(request, player, event_lines(feed, poll))
    return StreamingResponse(lines, media_type=NDJSON, headers=HEADERS)


# -- challenges --------------------------------------------------------------------------


@router.get("/challenge", summary="The challenges waiting, to me and from me")
async def my_challenges(
    player: ActorDep, challenges: ChallengesDep, accounts: BotAccountsDep
) -> dict[str, list[dict[str, Any]]]:
    """``in``: those to me; ``out``: those I made; each as ``ChallengeOut``."""
    rows = await asyncio.to_thread(challenges.of, player.id)
    bots = await _bots(accounts, *{p for r in rows for p in (r.challenger, r.dest)})
    return {
        "in": [shown(r, bots) for r in rows if r.dest == player.id],
        "out": [shown(r, bots) for r in rows if r.challenger == player.id],
    }


@router.post(
    "/challenge/{name}",
    status_code=201,
    summary="Challenge an account by name",
    response_model=ChallengeOut,
    dependencies=[Depends(rate_limited("seek"))],
)
async def challenge(
    name: Annotated[str, Path(max_length=100)],
    body: ChallengeIn,
    request: Request,
    player: ActorDep,
    challenges: ChallengesDep,
    accounts: BotAccountsDep,
) -> dict[str, Any]:
    """Two seats, the challenger's first. Rated: both accounts, the seeks' fair-play
    rules. 404 no such account, 409 too many waiting; unanswered, it expires after 10
    minutes."""
    _token_limited(request, "seek")
    spec = checked(body)
    row = await asyncio.to_thread(challenges.create, player, name, spec, body.rated)
    return await _shown(row, accounts)


@router.get(
    "/challenge/{challenge_id}/show", summary="One of my challenges", response_model=ChallengeOut
)
async def show_challenge(
    challenge_id: Annotated[str, Path(max_length=64)],
    player: ActorDep,
    challenges: ChallengesDep,
    accounts: BotAccountsDep,
) -> dict[str, Any]:
    """Its status now (``game_id`` once accepted); 404 for anyone but its two players."""
    row = await asyncio.to_thread(challenges.get, challenge_id)
    if player.id not in (row.challenger, row.dest):
        raise ServiceError(404, _("no such challenge"))
    return await _shown(row, accounts)


@router.post(
    "/challenge/{challenge_id}/accept",
    summary="Accept a challenge: the game starts",
    response_model=ChallengeOut,
)
async def accept(
    challenge_id: Annotated[str, Path(max_length=64)],
    request: Request,
    player: ActorDep,
    challenges: ChallengesDep,
    accounts: BotAccountsDep,
    service: ServiceDep,
) -> dict[str, Any]:
    """The game is made as a filled seek's (its ``game_id`` in the answer; both players'
    seats bound to them: ``/g/{game_id}`` for a person, the game stream for a bot)."""
    _token_limited(request, "seek")
    row = await asyncio.to_thread(challenges.answer, challenge_id, player, ACCEPTED)
    spec: dict[str, Any] = {**shown(row), "computers": [], "house_rules": {}}
    spec["players"] = [
        {"id": row.challenger, "name": row.challenger_name},
        {"id": row.dest, "name": row.dest_name},
    ]
    try:
        game_id = await start_game(service, spec)
    except BaseException:
        await asyncio.to_thread(challenges.failed, challenge_id)
        raise
    row = await asyncio.to_thread(challenges.started, challenge_id, game_id)
    return await _shown(row, accounts)


async def _answer(
    challenge_id: str,
    player: Player,
    status: str,
    challenges: ChallengeStore,
    accounts: BotAccounts,
) -> dict[str, Any]:
    row = await asyncio.to_thread(challenges.answer, challenge_id, player, status)
    return await _shown(row, accounts)


@router.post(
    "/challenge/{challenge_id}/decline", summary="Decline a challenge", response_model=ChallengeOut
)
async def decline(
    challenge_id: Annotated[str, Path(max_length=64)],
    player: ActorDep,
    challenges: ChallengesDep,
    accounts: BotAccountsDep,
) -> dict[str, Any]:
    return await _answer(challenge_id, player, DECLINED, challenges, accounts)


@router.post(
    "/challenge/{challenge_id}/cancel", summary="Cancel my challenge", response_model=ChallengeOut
)
async def cancel(
    challenge_id: Annotated[str, Path(max_length=64)],
    player: ActorDep,
    challenges: ChallengesDep,
    accounts: BotAccountsDep,
) -> dict[str, Any]:
    return await _answer(challenge_id, player, CANCELED, challenges, accounts)


# -- a bot's games -----------------------------------------------------------------------


async def _bot_seat(service: GameService, game_id: str, player: Player) -> Seated:
    """The seat of the bot account in this game (403: not its game)."""
    seated = await service.seated_async(game_id, None, player.id)
    if seated.seat is None:
        raise ServiceError(403, _("this is not your game: your bot account has no seat in it"))
    return seated


@router.get(
    "/bot/game/stream/{game_id}",
    summary="My bot's game, as NDJSON: the whole view, then each change",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}, "description": "One JSON object a line"}},
)
async def stream_game(
    request: Request,
    game_id: Annotated[str, Path(max_length=64)],
    player: BotDep,
    service: ServiceDep,
) -> StreamingResponse:
    """``{"type": "gameFull", "id", "view"}`` (the game socket's view of the seat: its
    rack only, the clocks, ``legal`` when to move) then ``{"type": "gameState", …}``
    after every change, until the game is over. While it is open the seat is present."""
    seated = await _bot_seat(service, game_id, player)
    lines = _counted(request, player, game_lines(service, seated))
    return StreamingResponse(lines, media_type=NDJSON, headers=HEADERS)


def _encoded(view: Any) -> Response:
    return Response(view.text(), media_type="application/json")


@router.post("/bot/game/{game_id}/move/{action:path}", summary="Play an action (notation)")
async def move(
    game_id: Annotated[str, Path(max_length=64)],
    action: Annotated[str, Path(max_length=MAX_ACTION)],
    request: Request,
    player: BotDep,
    service: ServiceDep,
) -> Response:
    """``G7=1``, ``end``, ``pass``, ``exchange 3,5`` (URL-encoded): refused as the game's
    actions route refuses (409 not your turn, 422 illegal with the rule); answers the
    seat's view."""
    _token_limited(request, "action")
    seated = await _bot_seat(service, game_id, player)
    return _encoded(await service.act(seated, action, None))


@router.post("/bot/game/{game_id}/resign", summary="Resign")
async def resign(
    game_id: Annotated[str, Path(max_length=64)],
    request: Request,
    player: BotDep,
    service: ServiceDep,
) -> Response:
    _token_limited(request, "action")
    return _encoded(await service.end(await _bot_seat(service, game_id, player), "resign"))


@router.post("/bot/game/{game_id}/abort", summary="Abort (before each player has moved)")
async def abort(
    game_id: Annotated[str, Path(max_length=64)],
    request: Request,
    player: BotDep,
    service: ServiceDep,
) -> Response:
    _token_limited(request, "action")
    return _encoded(await service.end(await _bot_seat(service, game_id, player), "abort"))


def install(app: FastAPI, store: EventStore) -> None:
    """The bot accounts (``app.state.bot_accounts``), the challenges
    (``app.state.challenges``) and the routes."""
    app.state.bot_accounts = BotAccounts(store, app.state.players)
    app.state.challenges = ChallengeStore(store)
    app.state.bot_streams = Counter()  # open streams by account, in this process
    app.include_router(router)
