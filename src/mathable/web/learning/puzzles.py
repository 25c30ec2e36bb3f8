"""Puzzles on the web (issue 18): the page ``/puzzles`` and its API.

``GET /api/puzzles?band=…`` lists shipped puzzles (bounded, no answers),
``GET /api/puzzles/daily`` is the UTC day's puzzle (the same for everyone),
``GET /api/puzzles/{id}`` one puzzle, and ``POST /api/puzzles/{id}/check`` judges a
player's turn (placements in notation, played in order: rulings C3-C6, C9) and then gives
the engine's answer. The selection rule is :mod:`mathable.learn.puzzles`'s.

A logged-in account's first check of a puzzle is rated (:mod:`.puzzleratings`): the check
answers its new ``rating``, ``GET /api/puzzles/{id}`` the puzzle's ``rating``, and
``GET /api/me/puzzles`` the player's puzzle rating and counts.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

from mathable.i18n import lazy
from mathable.learn import puzzles as mined
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.players.players import Player, PlayerStore
from mathable.web.players.seating import SESSION_KEY
from mathable.web.ratings.puzzleratings import PuzzleRatings

LISTED = 50
"""The most puzzles one list answers with."""

router = APIRouter(prefix="/api/puzzles", tags=["puzzles"], responses=REFUSALS)
page = APIRouter(include_in_schema=False)
mine = APIRouter(prefix="/api/me", tags=["puzzles"], responses=REFUSALS)


def get_ratings(request: Request) -> PuzzleRatings:
    """The application's puzzle ratings, over its event store's database."""
    found: PuzzleRatings | None = getattr(request.app.state, "puzzle_ratings", None)
    if found is None:
        found = request.app.state.puzzle_ratings = PuzzleRatings(request.app.state.service.store)
    return found


async def rated_player(request: Request) -> Player | None:
    """The account of the session cookie, or None (no cookie, or a guest): unlike
    :func:`.accounts.current_player`, a puzzle never makes a guest."""
    player_id = request.session.get(SESSION_KEY)
    players: PlayerStore | None = getattr(request.app.state, "players", None)
    if not isinstance(player_id, str) or players is None:
        return None
    found = await asyncio.to_thread(players.get, player_id)
    return found if found is not None and found.kind == "person" and found.account else None


RatingsDep = Annotated[PuzzleRatings, Depends(get_ratings)]
RatedDep = Annotated[Player | None, Depends(rated_player)]


@page.get("/puzzles")
async def puzzles_page() -> HTMLResponse:
    return html_page()


Placement = Annotated[str, StringConstraints(min_length=1, max_length=20)]


class TurnIn(BaseModel):
    """A player's turn: placements in notation, in the order played."""

    model_config = ConfigDict(extra="forbid")
    placements: list[Placement] = Field(max_length=mined.MAX_TURN)


def shown(puzzle: mined.Puzzle) -> dict[str, Any]:
    """A puzzle as the page needs it, without its answer: the position, the rack, the
    target, and the board's values by target (-1 for an empty square)."""
    _variant, board = mined.board_of(puzzle)
    return {
        **puzzle.to_dict(answer=False),
        "surface": list(board.values),
        "themes": list(mined.themes(puzzle)),  # the kinds of equation it needs (issue 32)
    }


def _found(puzzle_id: str) -> mined.Puzzle:
    puzzle = mined.by_id(puzzle_id)
    if puzzle is None:
        raise ServiceError(404, lazy("no puzzle is called {id}", id=repr(puzzle_id[:40])))
    return puzzle


@router.get("", summary="Puzzles of a band (no answers)")
async def list_puzzles(
    response: Response,
    band: Literal["easy", "medium", "hard"] | None = None,
    game: Literal["classic", "junior"] | None = None,
    limit: Annotated[int, Query(ge=1, le=LISTED)] = 20,
    offset: Annotated[int, Query(ge=0, le=100_000)] = 0,
    theme: Literal["+", "−", "×", "÷"] | None = None,
) -> list[dict[str, Any]]:
    """The shipped puzzles of ``band`` (and ``game``, and ``theme``: an operation the
    answer's equations use), in the set's order, at most :data:`LISTED` at a time from
    ``offset``; without their answers. The header ``X-Total-Count`` says how many there
    are in all."""
    chosen = [p for p in mined.of_band(band) if game is None or p.game == game]
    chosen = mined.of_theme(theme, chosen)
    response.headers["X-Total-Count"] = str(len(chosen))
    return [shown(p) for p in chosen[offset : offset + limit]]


@router.get("/daily", summary="Today's puzzle (UTC), the same for everyone")
async def daily_puzzle(ratings: RatingsDep) -> dict[str, Any]:
    """The puzzle of the UTC day, with the day (``2026-11-26``) and its ``rating``."""
    today = dt.datetime.now(dt.UTC).date()
    puzzle = mined.daily(today)
    rating = await asyncio.to_thread(ratings.of_puzzle, puzzle)
    return {**shown(puzzle), "day": today.isoformat(), "rating": rating}


@router.get("/{puzzle_id}", summary="A puzzle (no answer), with its rating")
async def get_puzzle(
    puzzle_id: Annotated[str, Path(max_length=80)], ratings: RatingsDep
) -> dict[str, Any]:
    """The puzzle and its ``rating`` (its band's start until a first rated attempt)."""
    puzzle = _found(puzzle_id)
    return {**shown(puzzle), "rating": await asyncio.to_thread(ratings.of_puzzle, puzzle)}


@router.post("/{puzzle_id}/check", summary="Judge a turn, then give the answer")
async def check_turn(
    puzzle_id: Annotated[str, Path(max_length=80)],
    turn: TurnIn,
    ratings: RatingsDep,
    player: RatedDep,
) -> dict[str, Any]:
    """Whether the turn is legal (else why not), its points, whether it reaches the
    target; then the engine's answer and the best single placement. ``rating``: an
    account's first check of the puzzle is rated (its new puzzle rating and change),
    else null."""
    puzzle = _found(puzzle_id)
    result = await asyncio.to_thread(mined.check, puzzle, turn.placements)
    rated = None
    if player is not None:
        rated = await asyncio.to_thread(ratings.attempt, player.id, puzzle, result.solved)
    return {
        "legal": result.legal,
        "reason": None if result.reason is None else str(result.reason),
        "points": result.points,
        "solved": result.solved,
        "target": puzzle.target,
        "answer": {"turn": puzzle.answer, "points": puzzle.points, "bonus": puzzle.bonus},
        "obvious": {"placement": puzzle.obvious, "points": puzzle.obvious_points},
        "rating": None if rated is None else rated.out(),
    }


@mine.get("/puzzles", summary="My puzzle rating and counts")
async def my_puzzles(ratings: RatingsDep, player: RatedDep) -> dict[str, Any]:
    """The logged-in account's puzzle rating (1500 before any rated attempt), its rated
    attempts and how many were solved; ``rated`` false (and no rating) for a guest."""
    if player is None:
        return {"rated": False, "rating": None, "attempts": 0, "solved": 0}
    found = await asyncio.to_thread(ratings.of_solver, player.id)
    return {"rated": True, **found}


def install(app: FastAPI) -> None:
    """The puzzle page and its API."""
    app.include_router(page)
    app.include_router(router)
    app.include_router(mine)
