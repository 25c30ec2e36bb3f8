"""Practice on the web (issue 18): the page ``/practice`` and what its panel reads.

A practice game is a normal game of the service (``POST /api/games``: the learner and the
gentle computer, hints on), played on the normal game page; ``/g/{id}?practice=LEVEL`` adds
the practice panel, which reads ``GET /api/games/{id}/practice?level=…&token=…``: the cells
each token of the seat fits and the review of its last turn (the best turn that was
available, explained). The help is the hints' (house rule O2): refused where they are off.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse

from mathable.i18n import _
from mathable.learn.practice import LEVELS, get_level, report
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.rounds.computers import HINTS_OFF
from mathable.web.rounds.deps import SeatDep

MAX_LEVEL = 20
"""The longest level name read, in characters."""

router = APIRouter(tags=["learning"], responses=REFUSALS)


@router.get("/practice", include_in_schema=False)
async def practice_page() -> HTMLResponse:
    return html_page()


@router.get("/api/practice/levels", summary="The practice levels and the game each deals")
async def levels() -> list[dict[str, Any]]:
    return [level.to_json() for level in LEVELS.values()]


@router.get(
    "/api/games/{game_id}/practice",
    summary="A practice panel: where the seat's tokens fit, and its last turn reviewed",
    dependencies=[Depends(rate_limited("analysis"))],
)
async def practice(
    seated: SeatDep, level: Annotated[str, Query(min_length=1, max_length=MAX_LEVEL)]
) -> dict[str, Any]:
    """For the seat of the token (403 without one, or where hints are off: O2); 422 for an
    unknown level or a game the level does not deal. Searched off the event loop, on a copy
    of the game."""
    try:
        chosen = get_level(level)
    except ValueError as exc:
        raise ServiceError(422, str(exc)) from None
    game, seat = seated.live.game, seated.seat
    if seat is None:
        raise ServiceError(403, _("the practice panel is for a player, with their own link"))
    if not game.house_rules.hints:
        raise ServiceError(403, HINTS_OFF)
    copy = game.copy()
    try:
        return await asyncio.to_thread(report, copy, seat, chosen)
    except ValueError as exc:
        raise ServiceError(422, str(exc)) from None
