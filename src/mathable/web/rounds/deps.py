"""Dependencies of the routes, as ``Annotated`` aliases (the FastAPI full-stack
template's ``SessionDep``/``CurrentUser``): the service, and the seat a token opens.

``SeatDep`` is the one place a request's token becomes a seat: the ``?token=`` of a
read, or the ``token`` of an action's body; without one, the seat bound to the session
cookie's player (:mod:`.seating`). Neither is a spectator; a wrong token is
refused (403) and an unknown game answered 404 before the route runs.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query
from starlette.requests import HTTPConnection

from mathable.web.players.seating import cookie_player
from mathable.web.rounds.live import Seated
from mathable.web.rounds.schemas import Act
from mathable.web.rounds.service import GameService


async def get_service(connection: HTTPConnection) -> GameService:
    """The application's game service."""
    service: GameService = connection.app.state.service
    return service


ServiceDep = Annotated[GameService, Depends(get_service)]


async def seat_from_query(
    game_id: str,
    service: ServiceDep,
    connection: HTTPConnection,
    token: Annotated[
        str | None, Query(description="The seat's secret token; omit it to watch.")
    ] = None,
) -> Seated:
    """The game and the seat of the ``?token=``, or without one the seat bound to the
    session cookie's player (:mod:`.seating`); None: a spectator."""
    return await service.seated_async(game_id, token, cookie_player(connection))


async def seat_from_body(
    game_id: str, service: ServiceDep, body: Act, connection: HTTPConnection
) -> Seated:
    """The game and the seat of an action's ``token`` (or of the session cookie); the
    store is not read first (:meth:`~.service.GameService.act` reads it when behind)."""
    return await service.seated_async(game_id, body.token, cookie_player(connection), fresh=False)


SeatDep = Annotated[Seated, Depends(seat_from_query)]
"""The seat of a read: ``GET /api/games/{id}?token=…``."""

PlayerDep = Annotated[Seated, Depends(seat_from_body)]
"""The seat of an action: the token in the body it shares with the route."""
