"""The web app: JSON API (documented at /docs), WebSocket live updates, the page.

The layout follows the FastAPI full-stack template: :mod:`.routes` (thin routers),
:mod:`.schemas` (input and response models), :mod:`.deps` (the service and the seat a
token opens, as ``Annotated`` dependencies), :mod:`.service` (everything between HTTP
and the engine) and :mod:`.store` (the event store). This module builds the app from
the settings and answers every refusal as ``{"error": message, ...}``: nothing a
client sends can cause a 500.
"""

from __future__ import annotations

import os

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from mathable.games.registry import GAMES

from . import routes
from .service import GameService, ServiceError
from .store import EventStore


class Settings:
    """Settings from the environment: ``DATABASE_URL`` (default ``sqlite:///mathable.db``)."""

    def __init__(self) -> None:
        self.database_url = os.environ.get("DATABASE_URL", "sqlite:///mathable.db")


def _answer_refusals(app: FastAPI) -> None:
    """Every refusal as ``{"error": message, ...}`` with its 4xx status."""

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


def create_app(database_url: str | None = None) -> FastAPI:
    """The application, on the event store at ``database_url`` (or the settings')."""
    store = EventStore(database_url or Settings().database_url)
    titles = ", ".join(kind.title for kind in GAMES.values())
    app = FastAPI(
        title="Mathable",
        version="1",
        description=(
            f"Play {titles}. Create a game, then play a seat with the secret token of its "
            "link: GET the view, POST actions, or listen on the WebSocket. Spectators omit "
            "the token and see the public view. Every game's capabilities "
            "(`/api/variants`) say what to draw and which actions to offer."
        ),
    )
    app.state.service = GameService(store)
    _answer_refusals(app)
    app.include_router(routes.pages)
    app.mount("/static", StaticFiles(directory=routes.STATIC), name="static")
    for router in (routes.catalog, routes.games, routes.after, routes.live):
        app.include_router(router)
    return app
