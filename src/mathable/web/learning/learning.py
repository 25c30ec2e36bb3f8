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
from mathable.games import registry
from mathable.web.infra.errors import REFUSALS, ServiceError

MAX_POSITION = 2000
"""The longest one-line position read, in characters (a full classic board is ~1,300)."""
MAX_PLACEMENT = 20
"""The longest placement read, in characters (``I8=12`` is five)."""

router = APIRouter(prefix="/api", tags=["learning"], responses=REFUSALS)


def explain_position(text: str, placement: str) -> Explanation:
    """Explain ``placement`` in the one-line position ``text`` of a board game; raises
    :class:`ServiceError` (422) with the reason when either cannot be read."""
    try:
        return registry.explain_placement(text, placement)
    except MathableError as exc:
        raise ServiceError(422, exc.text) from None


@router.get("/explain", summary="Explain a placement: its equations and points, or the refusal")
async def explain(
    position: Annotated[str, Query(min_length=1, max_length=MAX_POSITION)],
    placement: Annotated[str, Query(min_length=1, max_length=MAX_PLACEMENT)],
) -> dict[str, Any]:
    explained = await asyncio.to_thread(explain_position, position, placement)
    return explained.to_json()
