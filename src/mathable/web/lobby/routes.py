"""The lobby's routes: the page, the seeks (list, offer, join, quick pairing, cancel),
the push socket and the player's games (:mod:`.seeks`, :mod:`.push`)."""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, WebSocket
from fastapi.responses import HTMLResponse

from mathable.ai import bot_player_id
from mathable.web.infra import connections
from mathable.web.infra.connections import Admissions, refuse
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.infra.store import EventStore
from mathable.web.lobby.push import Listener, Lobby
from mathable.web.lobby.seeks import (
    LISTED,
    OPEN,
    QuickIn,
    SeekIn,
    SeekOut,
    SeekStore,
    checked_spec,
    start_game,
)
from mathable.web.players.accounts import MeDep
from mathable.web.players.botaccounts import bot_players_among
from mathable.web.players.players import Player
from mathable.web.players.seating import cookie_player
from mathable.web.rounds.deps import ServiceDep
from mathable.web.rounds.service import GameService

# -- the routes --------------------------------------------------------------------------


def get_seeks(request: Request) -> SeekStore:
    found: SeekStore = request.app.state.seeks
    return found


SeeksDep = Annotated[SeekStore, Depends(get_seeks)]

router = APIRouter(prefix="/api", tags=["lobby"], responses=REFUSALS)
page = APIRouter(include_in_schema=False)
seek_limited = [Depends(rate_limited("seek"))]
LOBBY = "lobby"
"""The lobby's sockets' key in :class:`~.connections.Admissions` (counted by address)."""


@page.get("/lobby")
async def lobby_page() -> HTMLResponse:
    return html_page()


@router.get("/seeks", summary="The open seeks, newest first", response_model=list[SeekOut])
async def list_seeks(
    seeks_: SeeksDep, limit: Annotated[int, Query(ge=1, le=LISTED)] = LISTED
) -> list[dict[str, Any]]:
    """Seeks with a free seat (the lobby's socket, ``/api/lobby/ws``, pushes them; the page
    polls this only while its socket is down)."""
    return await asyncio.to_thread(seeks_.listed, limit)


@router.post(
    "/seeks",
    status_code=201,
    summary="Offer a game in the lobby",
    response_model=SeekOut,
    dependencies=seek_limited,
)
async def create_seek(body: SeekIn, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    """The session's player offers a game and holds its first seat; a rated seek needs an
    account (403); at most three open seeks each (409)."""
    spec = checked_spec(body)
    return await asyncio.to_thread(seeks_.create, player, spec, body.rated)


async def _join(
    seek_id: str, player: Player, seeks_: SeekStore, service: GameService
) -> dict[str, Any]:
    seek, filled = await asyncio.to_thread(seeks_.join, seek_id, player)
    if filled:
        try:
            game_id = await start_game(service, seek)
        except BaseException:
            await asyncio.to_thread(seeks_.failed, seek_id)
            raise
        await asyncio.to_thread(seeks_.started, seek_id, game_id)
        seek = await asyncio.to_thread(seeks_.get, seek_id, player.id)
    return seek


@router.post(
    "/seeks/quick", summary="Play anyone", response_model=SeekOut, dependencies=seek_limited
)
async def quick(
    body: QuickIn, player: MeDep, seeks_: SeeksDep, service: ServiceDep
) -> dict[str, Any]:
    """Join the oldest open casual two-player seek of this game and clock, or offer one."""
    spec = checked_spec(SeekIn(variant=body.variant, clock=body.clock))
    for seek_id in await asyncio.to_thread(seeks_.matching, player, spec):
        try:
            return await _join(seek_id, player, seeks_, service)
        except ServiceError as exc:
            if exc.status != 409:  # taken by another at the same moment: the next one
                raise
    for seek in await asyncio.to_thread(seeks_.mine, player.id):  # pressed again: the same
        same = {key: seek[key] for key in spec} == spec and seek["owner"]["id"] == player.id
        if same and seek["status"] == OPEN and not seek["rated"]:
            return seek
    return await asyncio.to_thread(seeks_.create, player, spec, False)


@router.get(
    "/seeks/{seek_id}", summary="A seek (my seat's token once started)", response_model=SeekOut
)
async def get_seek(seek_id: str, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    return await asyncio.to_thread(seeks_.get, seek_id, player.id)


@router.post("/seeks/{seek_id}/join", summary="Take a seat in a seek", response_model=SeekOut)
async def join_seek(
    seek_id: str, player: MeDep, seeks_: SeeksDep, service: ServiceDep
) -> dict[str, Any]:
    """The next seat is mine; the last person's seat starts the game (my token in the
    answer, the others' in their ``GET /api/seeks/{id}``)."""
    return await _join(seek_id, player, seeks_, service)


@router.delete("/seeks/{seek_id}", summary="Cancel my seek", response_model=SeekOut)
async def cancel_seek(seek_id: str, player: MeDep, seeks_: SeeksDep) -> dict[str, Any]:
    return await asyncio.to_thread(seeks_.cancel, seek_id, player)


@router.websocket("/lobby/ws")
async def lobby_socket(websocket: WebSocket) -> None:
    """The lobby, pushed: ``{"type": "seeks", "seeks": [...]}`` (as ``GET /api/seeks``)
    now and whenever the open seeks change, and, for the session cookie's player,
    ``{"type": "seek", "seek": {...}}`` (as ``GET /api/seeks/{id}``) whenever a seek they
    are in changes: joined, started (its ``game_id``: the game to open), cancelled. The
    client sends nothing (frames are read within the limits all the same: 1003, 1009,
    1008); a list not yet sent is replaced by the newest, a reader that does not read is
    dropped (1008), and the sockets from one address are capped (:mod:`.connections`)."""
    await websocket.accept()
    admissions: Admissions = websocket.app.state.admissions
    address = websocket.client.host if websocket.client else ""
    refused = admissions.enter(LOBBY, address, spectator=False)
    if refused is not None:
        code, reason = refused
        await refuse(websocket, 429, reason, code)
        return
    hub: Lobby = websocket.app.state.lobby
    connection = connections.Connection(websocket, admissions.limits, newest="seeks")
    listener: Listener | None = None
    try:
        listener = await hub.enter(connection, cookie_player(websocket))
        async for _text in connection.frames():
            pass  # nothing is asked here
    finally:
        if listener is not None:
            hub.leave(listener)
        admissions.leave(LOBBY, address, spectator=False)
        await connection.close()


def game_entry(game: dict[str, Any], bots: Collection[str] = ()) -> dict[str, Any]:
    """One of my games being played (:meth:`GameService.player_games`), shaped as a seek
    (``kind`` game) so that the list keeps one shape; ``bots``: the bot accounts among its
    players (marked ``bot_account``, issue 36)."""
    spec, seats = game["spec"], game["seats"]
    shown = [
        {
            "id": str(s.get("player") or (bot_player_id(s["bot"]) if s.get("bot") else "")),
            "name": s["name"],
            "bot_account": bool(s.get("player")) and s.get("player") in bots,
        }
        for s in seats
    ]
    return {
        "id": game["id"],
        "owner": shown[0],
        "variant": spec["variant"],
        "seats": len(seats),
        "computers": [s["bot"] for s in seats if s.get("bot")],
        "house_rules": spec.get("house_rules", {}),
        "clock": spec.get("clock"),
        "rated": bool(spec.get("rated", False)),
        "players": [p for p, s in zip(shown, seats, strict=True) if not s.get("bot")],
        "open_seats": 0,
        "status": "playing",
        "game_id": game["id"],
        "created": game["created"],
        "seat": game["seat"],
        "kind": "game",
        "your_turn": game["your_turn"],
        "token": None,
    }


@router.get("/me/games", summary="My games and seeks", response_model=list[SeekOut])
async def my_games(player: MeDep, seeks_: SeeksDep, service: ServiceDep) -> list[dict[str, Any]]:
    """My games being played first (``kind`` game: those where it is my turn first, each
    opened by my session cookie at ``/g/{game_id}``), then the seeks I offered or joined,
    open or started, newest first."""
    games = await service.player_games(player.id)
    bound = [s.get("player") for g in games for s in g["seats"]]
    bots = await asyncio.to_thread(bot_players_among, service.store, bound)
    return [game_entry(g, bots) for g in games] + await asyncio.to_thread(seeks_.mine, player.id)


def install(app: FastAPI, store: EventStore) -> None:
    """The seeks' store (``app.state.seeks``), the lobby's pushes (``app.state.lobby``:
    :func:`close` it at shutdown), its page and routes."""
    app.state.seeks = SeekStore(store)
    app.state.lobby = Lobby(app.state.seeks)
    app.include_router(page)
    app.include_router(router)


async def close(app: FastAPI) -> None:
    """At shutdown: the lobby's feed stopped, its last notes sent."""
    hub: Lobby | None = getattr(app.state, "lobby", None)
    if hub is not None:
        await hub.close()
