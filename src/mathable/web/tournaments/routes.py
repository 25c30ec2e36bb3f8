"""The tournaments' API (issue 38): ``/api/tournaments`` (create, list, read, join,
withdraw, and the organizer's start, pause, resume, remove and decide) and the pages
``/tournaments`` and ``/t/{id}`` (tournaments.js draws them).

Every body is bounded and a refusal names its field; the writes go through the session
cookie with the Origin rules every cookie-authenticated change follows (the app's
middleware), and are rate-limited per address as a game's actions are (new tournaments
as new games). A private tournament is never listed: its unguessable id is its link.
"""

from __future__ import annotations

import asyncio
import json
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request, WebSocket
from fastapi.responses import HTMLResponse
from pydantic import BaseModel, ConfigDict, Field

from mathable.ai import BOTS, bot_player_id, level_of_player
from mathable.engine.spec import SpecError, check_seats
from mathable.games import registry
from mathable.i18n import _
from mathable.online.clocks import TimeControlError, parse_time_control
from mathable.online.tournaments import Joined, Spec, TournamentError, check_spec
from mathable.web.infra import connections
from mathable.web.infra.connections import Admissions, refuse
from mathable.web.infra.errors import REFUSALS, ServiceError, at_field
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.infra.store import EventStore
from mathable.web.players.accounts import MeDep
from mathable.web.players.players import Player, PlayerStore
from mathable.web.ratings.standings import shown_name
from mathable.web.tournaments.push import Watchers
from mathable.web.tournaments.service import (
    MOST_PLAYERS,
    Loaded,
    TournamentService,
    joining,
    leaving,
    organizing,
)
from mathable.web.tournaments.views import listed_data, tournament_data

MOST_AHEAD = 366 * 24 * 3600.0
"""A planned start is at most a year ahead."""
STATUSES = ("upcoming", "running", "paused", "finished")
LISTED = 100

TournamentId = Annotated[str, Path(max_length=40, pattern=r"^[A-Za-z0-9_-]+$")]

router = APIRouter(prefix="/api/tournaments", tags=["tournaments"], responses=REFUSALS)
pages = APIRouter(include_in_schema=False)
writes = [Depends(rate_limited("action"))]


class TournamentIn(BaseModel):
    """A new tournament (issue 38)."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1, max_length=60, description="Shown exactly as typed.")
    variant: str = Field("classic", max_length=30, description="A game of two seats.")
    system: Literal["swiss", "round-robin", "arena"]
    rounds: int = Field(
        0, ge=0, le=30, description="Swiss: 1 to 30; round robin: 0 (as many as needed)."
    )
    minutes: int = Field(0, ge=0, le=1440, description="An arena's length (0 otherwise).")
    clock: dict[str, Any] | None = Field(
        None, description='{"minutes": 5, "increment": 3} (live) or {"days": 3}; none: untimed.'
    )
    rated: bool = Field(False, description="Rated games are for accounts only.")
    private: bool = Field(False, description="Never listed: joined by its link.")
    late_join_until: int = Field(
        0, ge=0, le=30, description="Joins until this round is paired (0: before the start)."
    )
    start: str | None = Field(
        None,
        max_length=40,
        description='"now" (as soon as two have joined), an ISO time, or none: when the '
        "organizer starts it.",
    )
    players: list[Annotated[str, Field(max_length=80)]] = Field(
        [],
        max_length=200,
        description="Player ids the organizer enters at once (a teacher's pupils; "
        "``bot-<level>`` for a computer player); each may withdraw.",
    )
    fill_bye: str | None = Field(
        None,
        max_length=20,
        description="Swiss and round robin: a computer level that joins at the start when "
        "the field is odd, instead of a bye point.",
    )


class JoinIn(BaseModel):
    """Join: me, or (the organizer only) a computer player of this level."""

    model_config = ConfigDict(extra="forbid")

    computer: str | None = Field(None, max_length=20, description=", ".join(BOTS))


class RemoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    player: str = Field(max_length=80, description="The player id to remove (a no-show).")


class DecideIn(BaseModel):
    """The organizer's decision of a board: points for (first, second)."""

    model_config = ConfigDict(extra="forbid")

    round: int = Field(ge=1, le=1000)
    board: int = Field(ge=1, le=1000)
    points: tuple[float, float] = Field(description="[1, 0], [0.5, 0.5], [0, 1] or [0, 0].")


def service(request: Request) -> TournamentService:
    found: TournamentService = request.app.state.tournaments
    return found


Tournaments = Annotated[TournamentService, Depends(service)]


def checked(body: TournamentIn) -> Spec:
    """The spec of a new tournament, each field checked (the field at fault named)."""
    if not body.name.strip() or any(unicodedata.category(c) in ("Cc", "Cf") for c in body.name):
        raise ServiceError(422, _("name: 1 to 60 characters, not only spaces, no control ones"))
    try:
        kind = registry.game_type(body.variant)
        check_seats(kind, 2)
    except ValueError as exc:
        raise ServiceError(422, at_field("variant", exc)) from None
    except SpecError:
        raise ServiceError(
            422, _("variant: {game} is not played by two", game=body.variant)
        ) from None
    if body.system == "swiss" and not 1 <= body.rounds <= 30:
        raise ServiceError(422, _("rounds: a Swiss has 1 to 30 rounds"))
    if body.system == "arena" and not body.minutes:
        raise ServiceError(422, _("minutes: an arena lasts 1 to 1440 minutes"))
    if body.system != "arena" and body.minutes:
        raise ServiceError(422, _("minutes: only an arena has a length (0 otherwise)"))
    if body.system == "arena" and body.rounds:
        raise ServiceError(422, _("rounds: an arena has no rounds (0)"))
    clock = ""
    if body.clock is not None:
        try:
            control = parse_time_control(body.clock)
        except TimeControlError as exc:
            raise ServiceError(422, str(exc)) from None
        clock = json.dumps(control.to_json(), sort_keys=True)
    spec = Spec(
        body.name,
        kind.name,
        body.system,
        body.rounds,
        body.minutes,
        clock,
        body.rated,
        body.private,
        body.late_join_until,
    )
    try:
        check_spec(spec)
    except TournamentError as exc:
        raise ServiceError(422, str(exc)) from None
    if body.fill_bye is not None:
        if body.fill_bye not in BOTS:
            raise ServiceError(422, _("fill_bye: one of {levels}", levels=", ".join(BOTS)))
        if body.system == "arena":
            raise ServiceError(422, _("fill_bye: an arena has no byes"))
    if len(body.players) > MOST_PLAYERS[body.system]:
        raise ServiceError(
            422, _("players: at most {count} players", count=MOST_PLAYERS[body.system])
        )
    return spec


def entered(
    request: Request, tournaments: TournamentService, spec: Spec, ids: list[str]
) -> list[Joined]:
    """The entrants an organizer names (each id once, in order): a computer level's
    player, or a known person in an unrated tournament (a teacher's class); refused (422)
    naming the first id that is neither. Nobody is entered into a rated one: a rated
    result is only ever one's own choice (they join it themselves). Blocking."""
    found: list[Joined] = []
    for player_id in dict.fromkeys(ids):
        level = level_of_player(player_id)
        if level is not None:
            found.append(tournaments.computer_entrant(level, spec))
            continue
        player = players(request).get(player_id)
        if player is None:
            raise ServiceError(422, _("players: no player {id}", id=player_id[:80]))
        if spec.rated:
            raise ServiceError(
                422,
                _(
                    "players: {name} joins a rated tournament themselves (nobody is entered"
                    " into one)",
                    name=player.name,
                ),
            )
        name = shown_name(player.id, player.name, player.kind)
        found.append(Joined(player.id, name, tournaments.rating(player.id, spec)))
    return found


def start_of(text: str | None, now: float) -> float | None:
    """A planned start: "now", an ISO time (UTC without a zone) within a year, or None."""
    if text is None or not text.strip():
        return None
    if text.strip() == "now":
        return now
    try:
        when = datetime.fromisoformat(text.strip())
    except ValueError:
        raise ServiceError(
            422, _('start: "now", an ISO time like 2026-05-01T18:00Z, or null')
        ) from None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    at = when.timestamp()
    if not now - 60 <= at <= now + MOST_AHEAD:
        raise ServiceError(422, _("start: from now to a year ahead"))
    return at


def players(request: Request) -> PlayerStore:
    found: PlayerStore = request.app.state.players
    return found


async def answer(request: Request, loaded: Loaded, me: Player) -> dict[str, Any]:
    """The tournament as JSON for ``me``, with its organizer's name."""
    organizer = await asyncio.to_thread(players(request).get, loaded.stored.organizer)
    names = {} if organizer is None else {organizer.id: organizer.name}
    return tournament_data(loaded, me.id, names)


@router.post(
    "",
    status_code=201,
    summary="Create a tournament",
    dependencies=[Depends(rate_limited("create"))],
)
async def create(
    body: TournamentIn, request: Request, me: MeDep, tournaments: Tournaments
) -> dict[str, Any]:
    """An account organizes a Swiss, a round robin or an arena, with the players it
    enters at once if any (a teacher's pupils); the answer is its id (its page is
    ``/t/{id}``)."""
    if not me.account:
        raise ServiceError(401, _("log in to your account first"))
    spec = checked(body)
    starts = start_of(body.start, tournaments.now())
    entrants = await asyncio.to_thread(entered, request, tournaments, spec, body.players)
    tournament_id = await asyncio.to_thread(
        tournaments.create, spec, me.id, starts, body.fill_bye, entrants
    )
    return {"id": tournament_id}


@router.get("", summary="The tournaments: upcoming, running, finished (yours first)")
async def listed(
    me: MeDep,
    tournaments: Tournaments,
    status: Annotated[
        list[Literal["upcoming", "running", "paused", "finished"]] | None, Query()
    ] = None,
    mine: bool = False,
    limit: Annotated[int, Query(ge=1, le=LISTED)] = LISTED,
) -> list[dict[str, Any]]:
    """Public tournaments and mine (organized or joined, private ones included), newest
    first with mine before the others; ``status`` (repeatable) and ``mine`` filter."""
    joined = await asyncio.to_thread(tournaments.log.with_player, me.id, LISTED)
    found = await asyncio.to_thread(
        tournaments.log.listed, list(status or STATUSES), me.id, joined, limit
    )
    shown = [listed_data(item, me.id, set(joined)) for item in found]
    if mine:
        shown = [item for item in shown if item["mine"]]
    return sorted(shown, key=lambda item: not item["mine"])


@router.get("/{tournament_id}", summary="A tournament: rounds, pairings, standings")
async def read(
    tournament_id: TournamentId, request: Request, me: MeDep, tournaments: Tournaments
) -> dict[str, Any]:
    loaded = await tournaments.advance(tournament_id)
    return await answer(request, loaded, me)


@router.post(
    "/{tournament_id}/join", summary="Join (or add a computer player)", dependencies=writes
)
async def join(
    tournament_id: TournamentId,
    request: Request,
    me: MeDep,
    tournaments: Tournaments,
    body: JoinIn | None = None,
) -> dict[str, Any]:
    """Me, or with ``computer`` (the organizer only) a computer player of that level.
    A rated tournament is for accounts."""
    loaded = await asyncio.to_thread(tournaments.load, tournament_id)
    if body is not None and body.computer is not None:
        if loaded.stored.organizer != me.id:
            raise ServiceError(403, _("only the tournament's organizer may do this"))
        if body.computer not in BOTS:
            raise ServiceError(
                422,
                _("computer: one of {levels}", levels=", ".join(BOTS)),
            )
        player_id = bot_player_id(body.computer)
        name = shown_name(player_id, "", "bot")
        computer = True
    else:
        if loaded.spec.rated and not me.account:
            raise ServiceError(403, _("a rated tournament is for accounts: log in first"))
        player_id, name, computer = me.id, me.name, False
    rating = await asyncio.to_thread(tournaments.rating, player_id, loaded.spec)
    loaded = await tournaments.changed(tournament_id, joining(player_id, name, rating, computer))
    return await answer(request, loaded, me)


@router.post("/{tournament_id}/withdraw", summary="Withdraw", dependencies=writes)
async def withdraw(
    tournament_id: TournamentId, request: Request, me: MeDep, tournaments: Tournaments
) -> dict[str, Any]:
    loaded = await tournaments.changed(tournament_id, leaving(me.id))
    return await answer(request, loaded, me)


def _organizer_route(what: str) -> Any:
    async def act(
        tournament_id: TournamentId, request: Request, me: MeDep, tournaments: Tournaments
    ) -> dict[str, Any]:
        loaded = await tournaments.changed(
            tournament_id, organizing(me.id, what, tournaments.now())
        )
        return await answer(request, loaded, me)

    return act


for _what, _summary in (
    ("start", "Start (the organizer)"),
    ("pause", "Pause (the organizer)"),
    ("resume", "Resume (the organizer)"),
):
    router.add_api_route(
        f"/{{tournament_id}}/{_what}",
        _organizer_route(_what),
        methods=["POST"],
        summary=_summary,
        dependencies=writes,
        name=f"tournament_{_what}",
    )


@router.post(
    "/{tournament_id}/remove", summary="Remove a no-show (the organizer)", dependencies=writes
)
async def remove(
    tournament_id: TournamentId,
    body: RemoveIn,
    request: Request,
    me: MeDep,
    tournaments: Tournaments,
) -> dict[str, Any]:
    loaded = await tournaments.changed(
        tournament_id, organizing(me.id, "remove", tournaments.now(), player=body.player)
    )
    return await answer(request, loaded, me)


@router.post(
    "/{tournament_id}/decide",
    summary="Decide a board's result (the organizer)",
    dependencies=writes,
)
async def decide(
    tournament_id: TournamentId,
    body: DecideIn,
    request: Request,
    me: MeDep,
    tournaments: Tournaments,
) -> dict[str, Any]:
    if tuple(body.points) not in ((1.0, 0.0), (0.5, 0.5), (0.0, 1.0), (0.0, 0.0)):
        raise ServiceError(422, _("points: [1, 0], [0.5, 0.5], [0, 1] or [0, 0]"))
    loaded = await tournaments.changed(
        tournament_id,
        organizing(
            me.id,
            "decide",
            tournaments.now(),
            round=body.round,
            board=body.board,
            points=body.points,
        ),
    )
    return await answer(request, loaded, me)


@router.websocket("/{tournament_id}/ws")
async def tournament_socket(websocket: WebSocket, tournament_id: TournamentId) -> None:
    """The tournament, pushed: ``{"type": "tournament", "seq": n}`` (its log's length)
    now and whenever it changes (a result, a pairing, a join...), within a second; the
    page then reads it (``GET /api/tournaments/{id}``). The client sends nothing; the
    sockets from one address are capped as the lobby's are; 1008 for no such
    tournament, 1001 when the server shuts down."""
    await websocket.accept()
    watchers: Watchers = websocket.app.state.tournament_watchers
    try:
        await asyncio.to_thread(watchers.service.load, tournament_id)
    except ServiceError as exc:
        await refuse(websocket, exc.status, exc.message, connections.POLICY)
        return
    admissions: Admissions = websocket.app.state.admissions
    address = websocket.client.host if websocket.client else ""
    key = f"tournament:{tournament_id}"
    refused = admissions.enter(key, address, spectator=False)
    if refused is not None:
        code, reason = refused
        await refuse(websocket, 429, reason, code)
        return
    connection = connections.Connection(websocket, admissions.limits, newest="tournament")
    try:
        watchers.enter(tournament_id, connection)
        async for _text in connection.frames():
            pass  # nothing is asked here
    finally:
        watchers.leave(tournament_id, connection)
        admissions.leave(key, address, spectator=False)
        await connection.close()


@pages.get("/tournaments")
async def tournaments_page() -> HTMLResponse:
    """The tournaments' page (tournaments.js draws it)."""
    return html_page()


@pages.get("/t/{tournament_id}")
async def tournament_page(tournament_id: TournamentId) -> HTMLResponse:
    """A tournament's page: standings, crosstable, rounds."""
    return html_page()


def install(app: FastAPI, store: EventStore) -> None:
    """The tournaments' service (``app.state.tournaments``, over the game service), its
    routes, socket and pages; :func:`start` and :func:`close` its periodic check (and
    the pages' sockets: :mod:`.push`)."""
    app.state.tournaments = TournamentService(store, app.state.service)
    app.state.tournament_watchers = Watchers(app.state.tournaments)
    app.include_router(router)
    app.include_router(pages)


def start(app: FastAPI) -> None:
    """At startup (on the event loop): the periodic check of tournaments under way."""
    found: TournamentService | None = getattr(app.state, "tournaments", None)
    if found is not None:
        found.start()


async def close(app: FastAPI) -> None:
    """At shutdown: the pages' sockets closed, the periodic check stopped."""
    watchers: Watchers | None = getattr(app.state, "tournament_watchers", None)
    if watchers is not None:
        await watchers.close()
    found: TournamentService | None = getattr(app.state, "tournaments", None)
    if found is not None:
        await found.close()
