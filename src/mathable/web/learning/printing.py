"""Printable pages for teachers (issue 18): a puzzle set on paper and a finished game.

``/puzzles/print?band=…&game=…&count=N`` lays out N puzzles with an answer sheet; its
data come from ``GET /api/puzzles/print``, the one puzzle route that gives the answers
(the list, ``GET /api/puzzles``, never does: a printed answer sheet is the teacher's).
``/g/{id}/print`` is a finished game with every turn explained; a game still running is
answered 409 and an unknown one 404 (the page then says why).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query
from fastapi.responses import HTMLResponse

from mathable.learn import puzzles as mined
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.learning.puzzles import shown
from mathable.web.rounds.deps import ServiceDep

PRINTED = 24
"""The most puzzles one printed set holds."""
DEFAULT_COUNT = 12

router = APIRouter(tags=["puzzles"], responses=REFUSALS)


@router.get("/api/puzzles/print", summary="Puzzles of a band WITH their answers, to print")
async def printed_puzzles(
    band: Literal["easy", "medium", "hard"] | None = None,
    game: Literal["classic", "junior"] | None = None,
    count: Annotated[int, Query(ge=1, le=PRINTED)] = DEFAULT_COUNT,
) -> list[dict[str, Any]]:
    """The first ``count`` shipped puzzles of ``band`` and ``game`` in the set's order
    (the same sheet every time), each with its answer: the engine's best turn, its points
    and the obvious single placement it beats."""
    chosen = [p for p in mined.of_band(band) if game is None or p.game == game]
    return [{**shown(p), **p.to_dict(answer=True)} for p in chosen[:count]]


@router.get("/puzzles/print", include_in_schema=False)
async def puzzles_print_page(
    band: Annotated[str | None, Query(max_length=20)] = None,
    game: Annotated[str | None, Query(max_length=20)] = None,
    count: Annotated[str | None, Query(max_length=10)] = None,
) -> HTMLResponse:
    """The printable set's page; 400 when a parameter is wrong (the page says which,
    from the API's refusal)."""
    right = (
        (band is None or band in mined.BANDS)
        and (game is None or game in mined.GAMES)
        and (count is None or (count.isdigit() and 1 <= int(count) <= PRINTED))
    )
    return html_page(200 if right else 400)


@router.get("/g/{game_id}/print", include_in_schema=False)
async def game_print_page(
    game_id: Annotated[str, Path(max_length=80)], service: ServiceDep
) -> HTMLResponse:
    """The printable game's page: 404 for no such game, 409 while it is being played
    (the page says why, from the game's view)."""
    try:
        seated = await service.seated_async(game_id, None)
    except ServiceError as refused:
        return html_page(refused.status)
    return html_page(200 if seated.live.over else 409)
