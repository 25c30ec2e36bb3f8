"""Dependencies of the routes, as ``Annotated`` aliases (the FastAPI full-stack
template's ``SessionDep``/``CurrentUser``): the service, and the seat a token opens.

``DepthDep`` is the depth an analysis judges at (``?depth=``): the expert's by default,
the master's counted against its own, smaller rate limit (it costs ten times the CPU).

``SeatDep`` is the one place a request's token becomes a seat: the ``?token=`` of a
read, or the ``token`` of an action's body; without one, the seat bound to the session
cookie's player (:mod:`.seating`). Neither is a spectator; a wrong token is
refused (403) and an unknown game answered 404 before the route runs.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request
from starlette.requests import HTTPConnection

from mathable.ai.equity import DEPTHS, EXPERT_DEPTH
from mathable.i18n import _
from mathable.web.infra.errors import ServiceError
from mathable.web.infra.limits import RateLimiter
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


async def analysis_depth(
    request: Request,
    depth: Annotated[
        str,
        Query(
            max_length=64,
            json_schema_extra={"enum": list(DEPTHS)},  # for API clients; checked below
            description="How deep each turn is judged: `expert` (the default) or `master` "
            "(the master's budgets, ~10 times as long; its own rate limit).",
        ),
    ] = EXPERT_DEPTH.name,
) -> str:
    """The depth asked for, a name of :data:`~mathable.ai.equity.DEPTHS`; refused (422)
    with the depths there are. A deeper one than the default also counts against
    ``MATHABLE_RATE_MASTER_ANALYSIS``."""
    if depth not in DEPTHS:
        raise ServiceError(
            422,
            # TRANSLATORS: {depths} lists the depths an analysis judges at (expert, master);
            # "query.depth" is the request's field, as the other refusals name it
            _(
                "query.depth: {depth} is no depth of analysis ({depths})",
                depth=depth,
                depths=", ".join(DEPTHS),
            ),
        )
    if depth != EXPERT_DEPTH.name:
        limiter: RateLimiter = request.app.state.rate_limiter
        limiter.hit("master_analysis", request.client.host if request.client else "")
    return depth


DepthDep = Annotated[str, Depends(analysis_depth)]
