"""The class view for teachers (issue 18): the games a set of pupils shares, at once.

A teacher pastes the game links the pupils share; the page (``/class``, drawn by
``class.js``) keeps only their game ids, in the browser and in its address
(``/class?name=…&games=id1,id2``). ``GET /api/class?games=id1,id2`` answers each game's
public summary (title, players and the player id each seat is bound to, over, scores,
winners) and, once it is over, each player's accuracy from the game's analysis (None for
one who never moved: no turn with a point to score) (the one ``/api/games/{id}/analysis`` gives:
computed in the worker pool and kept). Nothing here needs a seat: the view is a
spectator's, and a running game's analysis is not asked for (O2).
"""

from __future__ import annotations

import re
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Query
from fastapi.responses import HTMLResponse

from mathable.i18n import _, ngettext
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.rounds.deps import ServiceDep
from mathable.web.rounds.service import GameService

MOST = 60
"""The most games one class view holds."""

GAME_ID = re.compile(r"[\w-]{1,80}", re.ASCII)
"""A game id as the game page's address has it (``/g/{id}``)."""

router = APIRouter(tags=["teachers"], responses=REFUSALS)


def game_ids(text: str) -> list[str]:
    """The comma-separated ids of ``text``, each once, in order; refused (422) when one
    is not an id or there are more than :data:`MOST`."""
    ids = list(dict.fromkeys(part.strip() for part in text.split(",") if part.strip()))
    if not ids:
        raise ServiceError(422, _("games: at least one game id"))
    if len(ids) > MOST:
        raise ServiceError(
            422,
            ngettext(
                "games: at most {count} game, not {actual}",
                "games: at most {count} games, not {actual}",
                MOST,
                actual=len(ids),
            ),
        )
    for game_id in ids:
        if not GAME_ID.fullmatch(game_id):
            raise ServiceError(422, _("games: {id} is not a game id", id=game_id[:80]))
    return ids


async def summary(service: GameService, game_id: str) -> dict[str, Any]:
    """One game as the class view shows it, or why it cannot be (``error``)."""
    try:
        seated = await service.seated_async(game_id, None)
    except ServiceError as refused:
        return {"id": game_id, "error": refused.message}
    live = seated.live
    view = service.view(live, None)
    over = bool(live.game.is_over)
    shown: dict[str, Any] = {
        "id": game_id,
        "title": view.get("title"),
        "players": [seat["name"] for seat in view.get("seats", [])],
        # who each seat is (issue 32): two pupils of one name are two rows; None for a seat
        # bound to no player (one screen), which the page counts as its own
        "player_ids": [seat.get("player") for seat in live.seats],
        "scores": view.get("scores"),
        "over": over,
        "winners": view.get("winners") if over else None,
        "accuracy": None,
    }
    if over:
        report = await service.finished_analysis(live)
        shown["accuracy"] = [_accuracy(player) for player in report.get("players", [])]
    return shown


def _accuracy(player: dict[str, Any]) -> Any:
    """A player's accuracy, or None for one who never moved (issue 32): with no turn, or
    none judged (no chance of winning weighed, issue 35, and no point that could be
    scored), the analysis says 100%, which judged nothing."""
    if not player.get("turns"):
        return None
    if player.get("win_loss") is None and not player.get("best_points"):
        return None
    return player.get("accuracy")


@router.get(
    "/api/class",
    summary="The games of a class: players, scores and each player's accuracy",
    dependencies=[Depends(rate_limited("analysis"))],
)
async def class_games(
    service: ServiceDep,
    games: Annotated[str, Query(max_length=MOST * 82, description="Game ids, by commas")],
) -> list[dict[str, Any]]:
    """Each game of ``games`` (at most 60 ids) in order: its title, players (and
    ``player_ids``, the player each seat is bound to or None), scores, whether it is over
    and its winners, and once over each player's accuracy from the analysis (None for a
    player who never moved: no turn with a point to score); an unknown game has
    ``error``."""
    return [await summary(service, game_id) for game_id in game_ids(games)]


@router.get("/class", include_in_schema=False)
async def class_page() -> HTMLResponse:
    """The class view's page (``class.js`` draws it from its address)."""
    return html_page()
