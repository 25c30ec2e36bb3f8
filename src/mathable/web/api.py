"""The web app: JSON API (documented at /docs), WebSocket live updates, the page.

Routes are thin: they read the request, call :class:`~.service.GameService` and turn
its refusals into 4xx answers ``{"error": message, ...}``; nothing a client sends can
cause a 500.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from mathable.ai import BOTS
from mathable.engine.errors import MathableError
from mathable.engine.protocol import Game
from mathable.games import registry
from mathable.games.board.layouts import Layout
from mathable.games.board.transcript import score_transcript
from mathable.games.board.variants import VARIANTS
from mathable.games.quattro.game import QuattroGame
from mathable.games.registry import GAMES

from .service import GameService, ServiceError
from .store import EventStore

STATIC = Path(__file__).with_name("static")


class Settings:
    """Settings from the environment: ``DATABASE_URL`` (default ``sqlite:///mathable.db``)."""

    def __init__(self) -> None:
        self.database_url = os.environ.get("DATABASE_URL", "sqlite:///mathable.db")


class Seat(BaseModel):
    name: str = Field(default="", max_length=40, description="The player's name.")
    bot: str | None = Field(default=None, description=f"A computer level: {', '.join(BOTS)}.")


class NewGame(BaseModel):
    variant: str = Field(default="classic", description=", ".join(GAMES))
    players: list[Seat] = Field(min_length=2, max_length=4)
    seed: int | None = Field(default=None, ge=0, description="Deals the same game again.")
    house_rules: dict[str, bool] = Field(
        default_factory=dict, description="table_referee, allow_undo, strict"
    )
    rounds: int = Field(default=1, ge=1, le=99, description="Rounds of a Quattro match.")


class Act(BaseModel):
    token: str = Field(description="The seat's secret token, from its link.")
    action: str = Field(max_length=100, description="I8=12, J8=16+, end, pass, exchange 3,5…")
    seq: int | None = Field(
        default=None, description="The actions seen so far: refused (409) if the game moved on."
    )


class Transcript(BaseModel):
    text: str = Field(max_length=200_000, description="One line per turn, as on a score sheet.")
    variant: str = "classic"


def layout_json(layout: Layout) -> dict[str, Any]:
    """A board's squares for drawing: per cell its kind and label, row by row."""
    squares = []
    for square in layout.squares:
        if square.start is not None:
            kind, label = "centre", ""
        elif square.restriction is not None:
            kind, label = "restriction", square.restriction.symbol
        elif square.number is not None:
            kind, label = "number", str(square.number)
        elif square.multiplier > 1:
            kind, label = f"x{square.multiplier}", f"{square.multiplier}×"
        else:
            kind, label = "plain", ""
        squares.append({"kind": kind, "label": label})
    return {"size": layout.size, "squares": squares}


def create_app(database_url: str | None = None) -> FastAPI:
    """The application, on the event store at ``database_url`` (or the settings')."""
    settings = Settings()
    store = EventStore(database_url or settings.database_url)
    service = GameService(store)
    app = FastAPI(
        title="Mathable",
        version="1",
        description=(
            "Play Mathable, Mathable Junior and Mathable Quattro. Create a game, then play "
            "a seat with the secret token of its link: GET the view, POST actions, or "
            "listen on the WebSocket. Spectators omit the token and see the public view."
        ),
    )
    app.state.service = service

    @app.exception_handler(ServiceError)
    async def refused(_: Request, exc: ServiceError) -> JSONResponse:
        return JSONResponse({"error": exc.message, **exc.extra}, status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid(_: Request, exc: RequestValidationError) -> JSONResponse:
        problems = []
        for error in exc.errors():
            if error.get("type") == "json_invalid":
                reason = (error.get("ctx") or {}).get("error", "")
                problems.append(f"the body is not valid JSON ({reason})".replace(" ()", ""))
                continue
            where = ".".join(str(p) for p in error.get("loc", ()) if p != "body")
            problems.append(f"{where or 'body'}: {error.get('msg', 'invalid')}")
        return JSONResponse({"error": "; ".join(problems)}, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_: Request, exc: Exception) -> JSONResponse:  # pragma: no cover
        return JSONResponse({"error": f"internal error: {type(exc).__name__}"}, status_code=500)

    # -- the page --------------------------------------------------------------------

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- games -----------------------------------------------------------------------

    @app.get("/api/variants", summary="The games, with their boards")
    async def variants() -> list[dict[str, Any]]:
        out = []
        for name, info in GAMES.items():
            entry: dict[str, Any] = {
                "name": name,
                "title": info.title,
                "summary": info.summary,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "rack_size": info.rack_size,
            }
            if name in VARIANTS:
                entry["board"] = layout_json(VARIANTS[name].layout)
            out.append(entry)
        return out

    @app.get("/api/bots", summary="The computer players, weakest first")
    async def bots() -> list[dict[str, str]]:
        return [{"name": n, "description": d} for n, (_, d) in BOTS.items()]

    @app.post("/api/games", status_code=201, summary="Create a game")
    async def create_game(spec: NewGame) -> dict[str, Any]:
        """Returns the game id and, for every person's seat, its secret token: whoever
        holds a token plays that seat. Share ``/g/{id}?t={token}`` links."""
        return await service.create(spec.model_dump())

    @app.get("/api/games", summary="Games, newest first")
    async def list_games(limit: Annotated[int, Query(ge=1, le=500)] = 100) -> list[dict[str, Any]]:
        return [service.summary(i, created) for i, created in store.list_ids(limit)]

    @app.get(
        "/api/games/{game_id}", summary="The game as a seat (with its token) or a spectator sees it"
    )
    async def get_game(game_id: str, token: str | None = None) -> dict[str, Any]:
        live = service.get(game_id)
        return service.view(live, live.seat_of(token))

    @app.post("/api/games/{game_id}/actions", summary="Play an action for a seat")
    async def act(game_id: str, body: Act) -> dict[str, Any]:
        """Refusals: 403 wrong token, 404 unknown game, 409 not your turn or the game
        moved on, 422 an illegal action (with the rule and the cell or pile)."""
        return await service.act(game_id, body.token, body.action, body.seq)

    @app.get("/api/games/{game_id}/hint", summary="The best turns for the seat to move")
    async def hint(game_id: str, token: str | None = None) -> dict[str, Any]:
        """Computed by the strong player from that seat's own view."""
        return service.hint(game_id, token)

    @app.get("/api/games/{game_id}/record", summary="The game record (once the game is over)")
    async def record(game_id: str) -> Response:
        from mathable.engine import records

        game = service.finished(game_id)
        return Response(
            records.dumps(game),
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="mathable-{game_id}.json"'},
        )

    @app.get("/api/games/{game_id}/transcript", summary="The score sheet (game over)")
    async def transcript(game_id: str) -> Response:
        """The game as a score-sheet transcript (board games), as ``mathable score`` reads."""
        from mathable.games.board.transcript import format_transcript

        game = service.finished(game_id)
        if not isinstance(game, Game):
            raise ServiceError(400, "score sheets are for the board games")
        return Response(
            format_transcript(game),
            media_type="text/plain; charset=utf-8",
            headers={"Content-Disposition": f'attachment; filename="mathable-{game_id}.txt"'},
        )

    @app.get("/api/games/{game_id}/replay", summary="The public view after N actions (game over)")
    async def replay(game_id: str, step: Annotated[int, Query(ge=0)] = 0) -> dict[str, Any]:
        from mathable.engine import records

        game = service.finished(game_id)
        data = records.to_record(game)
        total = len(data["actions"])
        data["actions"] = data["actions"][: min(step, total)]
        data.pop("result", None)
        past = registry.from_record(data)
        if isinstance(past, Game):
            view = past.view(None).to_dict(past.board.grid.name)
        else:
            view = past.view(None).to_dict()
        last = game.format_action(game.log[step - 1]) if 0 < step <= total else None
        return {"step": min(step, total), "total": total, "action": last, "view": view}

    @app.get("/api/games/{game_id}/analysis", summary="Per turn: played, best, loss (game over)")
    async def analysis(game_id: str) -> dict[str, Any]:
        from mathable.ai.analysis import analysis_report

        game = service.finished(game_id)
        if isinstance(game, QuattroGame):
            raise ServiceError(400, "analysis is for the board games")
        return analysis_report(game)

    @app.post("/api/records", status_code=201, summary="Upload a game record")
    async def upload_record(data: Annotated[Any, Body()]) -> dict[str, Any]:
        """Replays the record into a new game; returns tokens to go on playing it."""
        return await service.import_record(data)

    @app.post("/api/transcripts", summary="Score a score sheet")
    async def upload_transcript(body: Transcript) -> dict[str, Any]:
        if body.variant not in VARIANTS:
            raise ServiceError(400, f"score sheets are for {', '.join(VARIANTS)}")
        try:
            return score_transcript(body.text, VARIANTS[body.variant]).to_dict()
        except MathableError as exc:
            raise ServiceError(422, str(exc)) from None

    # -- live updates ----------------------------------------------------------------

    @app.websocket("/api/games/{game_id}/ws")
    async def live(websocket: WebSocket, game_id: str, token: str | None = None) -> None:
        """Sends ``{"type": "view", "view": …}`` now and after every action; accepts
        ``{"action": "I8=12", "seq": n}`` and answers a refusal with
        ``{"type": "error", "status": …, "error": …}``."""
        await websocket.accept()
        try:
            room = service.get(game_id)
            seat = room.seat_of(token)
        except ServiceError as exc:
            await websocket.send_json({"type": "error", "status": exc.status, "error": exc.message})
            await websocket.close(code=4000 + exc.status)
            return
        key = service.listen(game_id, seat, websocket.send_json)
        try:
            await websocket.send_json({"type": "view", "view": service.view(room, seat)})
            while True:
                text = await websocket.receive_text()
                try:
                    message = json.loads(text)
                    if not isinstance(message, dict):
                        raise ValueError("not an object")
                except ValueError:
                    await websocket.send_json(
                        {
                            "type": "error",
                            "status": 400,
                            "error": 'send JSON like {"action": "I8=12"}',
                        }
                    )
                    continue
                try:
                    await service.act(game_id, token, message.get("action"), message.get("seq"))
                except ServiceError as exc:
                    await websocket.send_json(
                        {"type": "error", "status": exc.status, "error": exc.message, **exc.extra}
                    )
        except WebSocketDisconnect:
            pass
        finally:
            service.unlisten(game_id, key)

    return app
