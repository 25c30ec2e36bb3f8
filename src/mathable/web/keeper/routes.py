"""The score keeper's API (issue 37): ``/api/keeper``, a game on a real board or a
Quattro match kept turn by turn (:mod:`.service`; the rules in
:mod:`mathable.games.board.keeper` and :mod:`mathable.games.quattro.keeper`, reached
through the registry).

Every body is bounded (pydantic models with maximum lengths and ranges); writes are
rate-limited per address as a game's actions are (``MATHABLE_RATE_ACTION``), new kept
games as new games (``MATHABLE_RATE_CREATE``). Reads need no token: the id is
unguessable, and a second phone at the table reads the game by its link.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Path, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from mathable.ai.kept_jobs import analyse_kept_log
from mathable.games import registry
from mathable.i18n import _
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.infra.store import EventStore
from mathable.web.infra.workers import Workers

from .service import (
    KeeperService,
    analysis_refused,
    analysis_texts,
    record_text,
    state_data,
    turn_answer,
)

MAX_PLACEMENTS = 40
"""Placements in one turn at most (a rack of 7 and its extra tokens is far fewer)."""

GameId = Annotated[str, Path(max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]
TurnId = Field(
    None,
    max_length=64,
    pattern=r"^[A-Za-z0-9_.:-]+$",
    description="A client-made id of this entry: sent again, it is stored once.",
)
Seq = Field(
    None,
    ge=0,
    le=100_000,
    description="The entries the client has seen: another count is refused (409).",
)
Token = Field(max_length=100, description="The kept game's token (its link's secret).")

router = APIRouter(prefix="/api/keeper", tags=["score keeper"], responses=REFUSALS)
pages = APIRouter(include_in_schema=False)


class KeptIn(BaseModel):
    """A new kept game: which game, the players in seat order, who starts."""

    variant: str = Field("classic", max_length=30)
    players: list[Annotated[str, Field(max_length=40)]] = Field(min_length=2, max_length=4)
    first: str | None = Field(
        None,
        max_length=40,
        description="Who starts (a player's name), 'draw' (the keeper draws, C10), or "
        "none: the first listed.",
    )
    referee: bool = Field(
        False,
        description="The table referee (C12): illegal placements stand until challenged.",
    )
    rounds: int = Field(
        1, ge=1, le=99, description="The rounds agreed, for a game played in rounds (Quattro)."
    )


class KeptMade(BaseModel):
    """A kept game made: its id and the token that enters its turns."""

    id: str
    token: str
    first: int


class TurnIn(BaseModel):
    """One turn: placements (the sheet's notation), a pass, an exchange or a challenge
    of the last turn (C12). Exactly one of them."""

    token: str = Token
    placements: list[Annotated[str, Field(max_length=20)]] | None = Field(
        None, max_length=MAX_PLACEMENTS, description='In order: ["I8=12", "J8=16+"].'
    )
    pass_: bool = Field(False, alias="pass")
    exchange: int | None = Field(None, ge=1, le=20)
    challenge: bool = False
    id: str | None = TurnId
    seq: int | None = Seq


class EndIn(BaseModel):
    """The end (C11): each player's tokens left, in seat order."""

    token: str = Token
    left: list[list[Annotated[int, Field(ge=0, le=999)]]] = Field(
        max_length=4, description="[[5, 7], []]: per player, the values left."
    )
    id: str | None = TurnId
    seq: int | None = Seq


class UndoIn(BaseModel):
    """Take back the last entry, while nobody has entered another."""

    token: str = Token
    id: str | None = TurnId
    seq: int | None = Seq


def service(request: Request) -> KeeperService:
    keeper: KeeperService = request.app.state.keeper
    return keeper


Keeper = Annotated[KeeperService, Depends(service)]
writes = [Depends(rate_limited("action"))]


@router.post(
    "",
    status_code=201,
    summary="Keep a new game played on a real board",
    response_model=KeptMade,
    dependencies=[Depends(rate_limited("create"))],
)
def create(body: KeptIn, keeper: Keeper) -> dict[str, Any]:
    game_id, token, game = keeper.create(
        body.variant, body.players, body.first, body.referee, body.rounds
    )
    return {"id": game_id, "token": token, "first": game.first}


def _entry(body: TurnIn) -> str:
    """The turn in the sheet's notation, from exactly one of its fields."""
    given = [
        body.placements is not None,
        body.pass_,
        body.exchange is not None,
        body.challenge,
    ]
    if sum(given) != 1:
        raise ServiceError(422, _("send exactly one of placements, pass, exchange or challenge"))
    if body.placements is not None:
        if not body.placements:
            raise ServiceError(422, _("placements: at least one, like I8=12"))
        if any(not p.strip() or " " in p.strip() for p in body.placements):
            raise ServiceError(422, _("placements: one placement each, like I8=12 or J8=16+"))
        return " ".join(p.strip() for p in body.placements)
    if body.pass_:
        return "pass"
    if body.exchange is not None:
        return f"exchange {body.exchange}"
    return "challenge"


@router.post("/{game_id}/turns", summary="Enter a turn", dependencies=writes)
def turn(game_id: GameId, body: TurnIn, keeper: Keeper) -> dict[str, Any]:
    loaded, made, repeat = keeper.enter(game_id, body.token, _entry(body), body.id, body.seq)
    return turn_answer(loaded, made, repeat)


@router.post("/{game_id}/end", summary="End the game: the tokens left", dependencies=writes)
def end(game_id: GameId, body: EndIn, keeper: Keeper) -> dict[str, Any]:
    groups = " / ".join(",".join(map(str, values)) or "-" for values in body.left)
    loaded, _made, repeat = keeper.enter(game_id, body.token, f"end {groups}", body.id, body.seq)
    return {**state_data(loaded), "repeat": repeat}


@router.post("/{game_id}/undo", summary="Take back the last entry", dependencies=writes)
def undo(game_id: GameId, body: UndoIn, keeper: Keeper) -> dict[str, Any]:
    loaded, _made, repeat = keeper.enter(game_id, body.token, "undo", body.id, body.seq)
    return {**state_data(loaded), "repeat": repeat}


@router.get("/games", summary="The games the keeper keeps, by name")
def games() -> list[str]:
    """The names of the games the score keeper keeps (board games, Quattro): a page
    offers these of ``/api/variants`` and draws each from its capabilities."""
    return registry.kept_games()


@router.get("/{game_id}", summary="The kept game: turns, scores, the player card")
def read(game_id: GameId, keeper: Keeper) -> dict[str, Any]:
    return state_data(keeper.load(game_id))


@router.get(
    "/{game_id}/sheet",
    summary="The score sheet (mathable score reads it)",
    response_class=PlainTextResponse,
)
def sheet(game_id: GameId, keeper: Keeper) -> PlainTextResponse:
    text = keeper.load(game_id).game.sheet()
    return PlainTextResponse(
        text, headers={"Content-Disposition": f'attachment; filename="kept-{game_id}.txt"'}
    )


@router.get(
    "/{game_id}/record",
    summary="A game record that replays the kept game (racks or hands reconstructed, R1)",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "A game record"}},
)
def record(game_id: GameId, keeper: Keeper) -> Response:
    """The kept game as a game record (``POST /api/records``, ``mathable replay`` read
    it): the tokens placed and counted left as kept, the racks' unseen tokens and those
    given back in exchanges reconstructed (a Quattro match: its hands, reserve and cards
    discarded face down); 422 with the reason when the rules cannot replay the game as
    kept."""
    return Response(
        record_text(keeper.load(game_id).game),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="kept-{game_id}.json"'},
    )


ANALYSES = 32
"""The kept games' analyses kept in memory (by game and entries: a new entry is another)."""

_analyses: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()


@router.get("/{game_id}/analysis", summary="Per turn, the best turn of the same tokens (or cards)")
async def analysis(game_id: GameId, request: Request, keeper: Keeper) -> dict[str, Any]:
    """Per placement turn, the best turn the tokens it placed could have made on the board
    as it stood (the racks are unknown, R1), and the points lost (Quattro: the longest
    chain of the turn's cards on the piles, in cards): computed in the worker pool, off
    the event loop, and kept per game and number of entries."""
    loaded = await asyncio.to_thread(keeper.load, game_id)
    analysis_refused(loaded.game)
    key = (game_id, len(loaded.game.log))
    report = _analyses.get(key)
    if report is None:
        workers: Workers = request.app.state.service.workers
        report = await workers.run(analyse_kept_log, loaded.spec, list(loaded.game.log))
        _analyses[key] = report
        while len(_analyses) > ANALYSES:
            _analyses.popitem(last=False)
    _analyses.move_to_end(key)
    return analysis_texts(report)


@pages.get("/keep")
async def keeper_page() -> HTMLResponse:
    """The keeper's page: a new kept game set up (keeper.js draws it)."""
    return html_page()


@pages.get("/keep/{game_id}")
async def kept_page(game_id: GameId) -> HTMLResponse:
    """A kept game's page (its token in the link's fragment, which no server sees)."""
    return html_page()


def install(app: FastAPI, store: EventStore) -> None:
    """The keeper's service (``app.state.keeper``), its routes and its page."""
    app.state.keeper = KeeperService(store)
    app.include_router(router)
    app.include_router(pages)
