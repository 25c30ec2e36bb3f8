"""Explained placements on the web (issue 18): ``GET /api/explain?position=…&placement=…``.

The position is the one-line position of the command line (``classic | G7=1 … | 3 4 12 /
?7 | 0 0 | 92 | 1``), the placement in the notation (``I8=12``); the answer is
:meth:`~mathable.engine.explain.Explanation.to_json`: the equations that make it legal and
how its points add up (C3-C6, K2), or why it is refused and by which rule.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Query

from mathable.engine.errors import MathableError
from mathable.engine.explain import Explanation
from mathable.engine.notation import Position, parse_placement
from mathable.games import registry
from mathable.games.board.game import explain_on_board
from mathable.games.board.variants import get_variant
from mathable.i18n import lazy
from mathable.web.infra.errors import REFUSALS, ServiceError

MAX_POSITION = 2000
"""The longest one-line position read, in characters (a full classic board is ~1,300)."""
MAX_PLACEMENT = 20
"""The longest placement read, in characters (``I8=12`` is five)."""

router = APIRouter(prefix="/api", tags=["learning"], responses=REFUSALS)


def explain_position(text: str, placement: str) -> Explanation:
    """Explain ``placement`` in the one-line position ``text`` of a board game; raises
    :class:`ServiceError` (422) with the reason when either cannot be read."""
    grids = registry.position_grids()
    try:
        position = Position.parse(text, grids)
    except MathableError as exc:
        raise ServiceError(422, exc.text) from None
    if position.variant not in grids:
        raise ServiceError(
            422, lazy("{game} has no board to explain placements on", game=position.variant)
        )
    variant = get_variant(position.variant)
    size = len(variant.layout.squares)
    for cell, value in position.board:
        if not 0 <= cell < size:
            raise ServiceError(422, lazy("the position has a cell off the board"))
        if value not in variant.tokens:
            raise ServiceError(
                422, lazy("{value} is not a token of {game}", value=value, game=variant.title)
            )
    board = variant.new_board(dict(position.board))
    try:
        place = parse_placement(placement, board.grid)
    except MathableError as exc:
        raise ServiceError(422, exc.text) from None
    return explain_on_board(variant, board, place.cell, place.value)


@router.get("/explain", summary="Explain a placement: its equations and points, or the refusal")
async def explain(
    position: Annotated[str, Query(min_length=1, max_length=MAX_POSITION)],
    placement: Annotated[str, Query(min_length=1, max_length=MAX_PLACEMENT)],
) -> dict[str, Any]:
    explained = await asyncio.to_thread(explain_position, position, placement)
    return explained.to_json()
