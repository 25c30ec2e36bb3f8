"""The routes: thin. Each reads its request (the schemas validate it, the dependencies
find the service and the seat), calls the service, and answers; refusals are the
service's :class:`~.service.ServiceError`, answered 4xx by the app.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Body, Depends, Query, Request, WebSocket
from fastapi.responses import HTMLResponse, Response
from pydantic import ValidationError

from mathable.games.registry import GAMES
from mathable.i18n import _
from mathable.web.infra.connections import (
    POLICY,
    Admissions,
    Connection,
    Encoded,
    FrameError,
    parse_frame,
    refuse,
)
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.language import html_page
from mathable.web.infra.limits import rate_limited
from mathable.web.players.seating import cookie_player
from mathable.web.players.sessions import SessionPlayerDep
from mathable.web.rounds.deps import DepthDep, PlayerDep, SeatDep, ServiceDep
from mathable.web.rounds.live import Seated
from mathable.web.rounds.schemas import (
    CLIENT_IN,
    STORED_INT,
    Act,
    ActionIn,
    AnalysisOut,
    BotOut,
    CreatedOut,
    GameSummaryOut,
    HintOut,
    Join,
    JoinedOut,
    Mode,
    NewGame,
    Rematch,
    ReplayOut,
    ScoresheetOut,
    SeatToken,
    SyncIn,
    Transcript,
    VariantOut,
    ViewOut,
)
from mathable.web.rounds.service import GameService

pages = APIRouter(include_in_schema=False)
catalog = APIRouter(prefix="/api", tags=["games on offer"])
games = APIRouter(prefix="/api/games", tags=["playing"], responses=REFUSALS)
after = APIRouter(prefix="/api", tags=["records and score sheets"], responses=REFUSALS)
live = APIRouter()


async def _seated(
    service: GameService, game_id: str, token: str | None, request: Request
) -> Seated:
    """The seat of a body's ``token``, or without one of the session cookie's player
    (:mod:`.seating`)."""
    return await service.seated_async(game_id, token, cookie_player(request))


def encoded(view: Encoded) -> Response:
    """A view answered with the JSON text its sockets are sent (made once per action and
    seat; the same JSON as its ``ViewOut`` model would give, which the docs show)."""
    return Response(view.text(), media_type="application/json")


# -- the page ------------------------------------------------------------------------


@pages.get("/")
async def index() -> HTMLResponse:
    return html_page()


@pages.get("/g/{game_id}")
async def game_page(game_id: str) -> HTMLResponse:
    return html_page()


@pages.get("/rules/{variant}")
async def rules_page(variant: str) -> HTMLResponse:
    """A game's rules: the page draws them from its capabilities (404: no such game)."""
    return html_page(200 if variant in GAMES else 404)


# -- what is on offer ----------------------------------------------------------------


@catalog.get(
    "/variants",
    summary="The games, with their boards and capabilities",
    response_model=list[VariantOut],
    response_model_exclude_unset=True,
)
async def variants(service: ServiceDep) -> list[dict[str, Any]]:
    """Every game; ``capabilities`` says what it is played on (``surface``, ``targets``,
    ``columns``) and which actions it has: all a client needs to draw and offer it."""
    return service.variants()


@catalog.get("/bots", summary="The computer players, weakest first", response_model=list[BotOut])
async def bots(service: ServiceDep) -> list[dict[str, Any]]:
    return service.bots()


# -- playing -------------------------------------------------------------------------


@games.post(
    "",
    status_code=201,
    summary="Create a game",
    response_model=CreatedOut,
    dependencies=[Depends(rate_limited("create"))],
)
async def create_game(
    spec: NewGame, service: ServiceDep, player: SessionPlayerDep, request: Request
) -> dict[str, Any]:
    """Returns the game id and its seats. At one screen (``mode: screen``, or one person
    against the computer) every person's seat has its secret token: whoever holds a token
    plays that seat (``/g/{id}?t={token}``). Online, only the creator's own seat has a
    token; each other person's seat has an ``invite`` link for its player, good once:
    whoever follows it first gets that seat's token (``POST /api/games/{id}/join``).
    Online games are dealt by the server; their seed is shown when they end (O1). The
    creator's seat is bound to their session cookie's player (if the request has a
    session: ``GET /api/me`` gives one), which then opens it without a token. Games with
    a computer seat are a fair share per address and player (429 past
    ``MATHABLE_BOT_GAMES_ALL`` or ``MATHABLE_BOT_GAMES``)."""
    address = request.client.host if request.client else None
    return await service.create(spec, player, address=address)


@games.post("/{game_id}/join", summary="Claim a seat with its invitation", response_model=JoinedOut)
async def join(
    game_id: str, body: Join, service: ServiceDep, player: SessionPlayerDep
) -> dict[str, Any]:
    """Answers the seat's secret token, to this caller only; the invitation then stops
    working (409), so the seat is held by one person. The seat is bound to the session
    cookie's player (if any), which then opens it without a token (``/g/{id}``); one player takes
    one seat of a game (409). Every view says which seats are ``claimed``."""
    return await service.join(game_id, body.invite, player)


@games.get(
    "/{game_id}/invitations",
    summary="The invitations again, for the game's creator",
    response_model=CreatedOut,
)
async def invitations(
    game_id: str,
    service: ServiceDep,
    token: Annotated[str, Query(description="The creator's own seat token.")],
) -> dict[str, Any]:
    """Online: the creation's answer again (the page that shows the invitations can be
    reloaded), each other person's seat ``claimed`` or with its ``invite``. Only the
    creator's token opens it (403 for any other): invitations derive from it."""
    return await service.invitations(game_id, token)


@games.post(
    "/{game_id}/rematch",
    status_code=201,
    summary="A rematch: the same seats, a new deal (game over, a player)",
    response_model=CreatedOut,
    dependencies=[Depends(rate_limited("create"))],
)
async def rematch(
    game_id: str, body: Rematch, service: ServiceDep, request: Request
) -> dict[str, Any]:
    """The first player to ask creates the rematch (the same players, computer levels,
    game, house rules and mode; a new deal) and gets it as ``POST /api/games`` answers
    at one screen, or online with their own seat's token; the game's views then name it
    (``rematch``). Each other person asks the same with their own token and gets their
    seat's token in it, once."""
    return await service.rematch(await _seated(service, game_id, body.token, request))


@games.post(
    "/{game_id}/resign",
    summary="Resign: with two players the other wins; with more, the seat leaves",
    response_model=ViewOut,
    response_model_exclude_unset=True,
)
async def resign(game_id: str, body: SeatToken, service: ServiceDep, request: Request) -> Response:
    """The seat resigns; stored as an event (``resign 0``): with two players the other
    wins, with three or four the seat leaves, its score frozen, and play goes on (local
    ruling L1). 409 once over or once the seat has left."""
    seated = await _seated(service, game_id, body.token, request)
    return encoded(await service.end(seated, "resign"))


@games.post(
    "/{game_id}/abort",
    summary="Abort: no winner, never rated (before each player has moved)",
    response_model=ViewOut,
    response_model_exclude_unset=True,
)
async def abort(game_id: str, body: SeatToken, service: ServiceDep, request: Request) -> Response:
    """The game ends with no winner (``abort 0``); 409 once each player has moved."""
    return encoded(await service.end(await _seated(service, game_id, body.token, request), "abort"))


@games.post(
    "/{game_id}/claim",
    summary="Claim against the player to move, away too long (online games)",
    response_model=ViewOut,
    response_model_exclude_unset=True,
)
async def claim(game_id: str, body: SeatToken, service: ServiceDep, request: Request) -> Response:
    """Another seat's player, disconnected on their turn for more than
    ``MATHABLE_CLAIM_AFTER`` seconds (the view's ``claim_after``), leaves the game:
    stored as an event (``claim 1``); with two players the claimant wins, with three or
    four play goes on without them (local ruling L1). 409 with the reason otherwise (they are
    connected, not away long enough, a correspondence game, at one screen, over)."""
    return encoded(await service.claim(await _seated(service, game_id, body.token, request)))


@games.get("", summary="Games, newest first", response_model=list[GameSummaryOut])
async def list_games(
    service: ServiceDep,
    request: Request,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
    live: Annotated[
        bool, Query(description="Only online games being played: games to watch.")
    ] = False,
    mine: Annotated[
        bool,
        Query(description="Only the games of the session cookie's player, finished or not."),
    ] = False,
) -> list[dict[str, Any]]:
    """The online games (anyone may watch them) and the games the session cookie's
    player sits at; another person's game at one screen is never listed (issue 30)."""
    return await service.games(limit, live, cookie_player(request), mine)


@games.get(
    "/{game_id}",
    summary="The game as a seat (with its token) or a spectator sees it",
    response_model=ViewOut,
    response_model_exclude_unset=True,
)
async def get_game(seated: SeatDep, service: ServiceDep) -> Response:
    return encoded(service.view(seated.live, seated.seat))


@games.post(
    "/{game_id}/actions",
    summary="Play an action for a seat",
    response_model=ViewOut,
    response_model_exclude_unset=True,
    dependencies=[Depends(rate_limited("action"))],
)
async def act(body: Act, seated: PlayerDep, service: ServiceDep) -> Response:
    """Answers the seat's view after the action. Refusals: 403 wrong token, 404 unknown
    game, 409 not your turn or the game moved on, 422 an illegal action (with the rule
    and the cell or pile)."""
    return encoded(await service.act(seated, body.action, body.seq))


@games.get(
    "/{game_id}/hint",
    summary="The best turns for the seat to move",
    response_model=HintOut,
    dependencies=[Depends(rate_limited("analysis"))],
)
async def hint(seated: SeatDep, service: ServiceDep) -> dict[str, Any]:
    """Searched from that seat's own view; only in games with the house rule ``hints``
    (O2: in every seat's view; refused 403 otherwise)."""
    return await service.hint(seated)


# -- after the game ------------------------------------------------------------------


@games.get(
    "/{game_id}/record",
    summary="The game record (once over; at one screen, a seat's during the game)",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "A game record"}},
)
async def record(game_id: str, seated: SeatDep, service: ServiceDep) -> Response:
    """Open to all once the game is over. During a game at one screen, a seat (its
    token) saves it to continue later (``POST /api/records``); an online game's record
    holds its secret seed, so it waits for the end (O1)."""
    return Response(
        service.record_for(seated),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="mathable-{game_id}.json"'},
    )


@games.get(
    "/{game_id}/transcript",
    summary="The score sheet (game over)",
    response_class=Response,
    responses={200: {"content": {"text/plain": {}}, "description": "A score sheet"}},
)
async def transcript(game_id: str, service: ServiceDep) -> Response:
    """The game as a score-sheet transcript, as ``mathable score`` reads it (games whose
    capabilities have ``score_sheets``)."""
    text = service.transcript(service.finished(game_id))
    return Response(
        text,
        media_type="text/plain; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="mathable-{game_id}.txt"'},
    )


@games.get(
    "/{game_id}/replay",
    summary="The public view after N actions, and the racks (game over; a seat's own during it)",
    response_model=ReplayOut,
)
async def replay(
    seated: SeatDep, service: ServiceDep, step: Annotated[int, Query(ge=0, le=STORED_INT)] = 0
) -> dict[str, Any]:
    """Open to all once the game is over, with every rack at each step. During the game
    only for a seat (its token), with its own rack: never another's hidden one (O1)."""
    return service.replay_for(seated, step)


@games.get(
    "/{game_id}/analysis",
    summary="Per turn: played, best, loss (game over; a seat's own turns with hints)",
    response_model=AnalysisOut,
    dependencies=[Depends(rate_limited("analysis"))],
)
async def analysis(seated: SeatDep, service: ServiceDep, depth: DepthDep) -> dict[str, Any]:
    """Open to all once the game is over. During the game only with the house rule
    ``hints`` (O2), for a seat (its token) and of its own turns. ``?depth=master``
    judges with the master's budgets (a finished game's kept once for each depth)."""
    return await service.analysis_for(seated, depth)


@after.post(
    "/records",
    status_code=201,
    summary="Upload a game record",
    response_model=CreatedOut,
    dependencies=[Depends(rate_limited("import"))],
)
async def upload_record(
    data: Annotated[Any, Body()],
    service: ServiceDep,
    response: Response,
    mode: Annotated[
        Mode, Query(description="screen; online is refused for a game still to play (O1)")
    ] = "screen",
    again: Annotated[
        bool, Query(description="a new game even if this record was uploaded before")
    ] = False,
) -> dict[str, Any]:
    """Replays the record into a new game played at one screen, its computer seats
    (``bots``) played on by the computer; returns every person's token to go on playing
    it. A record fixes the deal, so its uploader knows every rack: an online game is
    never made from one (O1). The same record uploaded again answers 200 with the game
    made from it (``existing``, no tokens) unless ``again``."""
    made = await service.import_record(data, mode, again)
    if made.get("existing"):
        response.status_code = 200
    return made


@after.post("/transcripts", summary="Score a score sheet", response_model=ScoresheetOut)
async def upload_transcript(body: Transcript, service: ServiceDep) -> dict[str, Any]:
    return service.score_sheet(body.text, body.variant)


# -- live updates --------------------------------------------------------------------


@live.websocket("/api/games/{game_id}/ws")
async def updates(
    websocket: WebSocket,
    game_id: str,
    service: ServiceDep,
    token: str | None = None,
    patches: bool = False,
) -> None:
    """Sends ``{"type": "view", "view": …}`` now and after every action; accepts
    ``{"action": "I8=12", "seq": n}`` and answers a refusal with
    ``{"type": "error", "status": …, "error": …}``. With ``?patches=1``, the views after
    the first come as ``{"type": "patch", "seq": n, "from": m, …}``: what changed since
    the view sent last (:mod:`.patches`); ``{"type": "sync"}`` asks for the whole view
    again (a client whose view is not at ``from``). Sends are queued per connection
    (a watcher gets the newest view; one that does not read is dropped with 1008);
    frames are JSON text within the size and rate limits, else the socket is closed
    (1003 binary, 1009 too big, 1008 too many); spectators per game and sockets per
    address are capped (:mod:`.connections`)."""
    await websocket.accept()
    try:  # after accept: refusals go in a message
        seated = await service.seated_async(game_id, token, cookie_player(websocket))
    except ServiceError as exc:
        await refuse(websocket, exc.status, exc.message, 4000 + exc.status)
        return
    admissions: Admissions = websocket.app.state.admissions
    address = websocket.client.host if websocket.client else ""
    spectator = seated.seat is None
    refused = admissions.enter(game_id, address, spectator)
    if refused is not None:
        code, reason = refused
        await refuse(websocket, 429 if code == POLICY else 503, reason, code)
        return
    connection = Connection(websocket, admissions.limits, patched=patches)
    key = service.listen(seated, connection.send)  # first: its first view is kept and shared
    connection.send(service.view_message(seated.live, seated.seat))
    try:
        await service.seat_opened(seated)  # presence: connected (watchers told)
        async for text in connection.frames():
            message: ActionIn | SyncIn | ServiceError
            try:
                message = CLIENT_IN.validate_python(parse_frame(text))
            except FrameError as exc:
                # TRANSLATORS: {"action": "I8=12"} is JSON, sent as it is
                example = _('send JSON like {"action": "I8=12"}')
                error = example if exc.reason is None else f"{exc.reason}: {example}"
                connection.send({"type": "error", "status": 400, "error": error})
                continue
            except ValidationError as exc:
                message = service.malformed(seated, exc)
            if isinstance(message, SyncIn):  # the client lost track: the whole view
                connection.resync()
                live = await service.level(service.get(game_id))  # as stored now
                connection.send(service.view_message(live, seated.seat))
                continue
            try:
                if isinstance(message, ServiceError):
                    raise message
                await service.act(seated, message.action, message.seq)
            except ServiceError as exc:
                connection.send(
                    {"type": "error", "status": exc.status, "error": exc.message, **exc.extra}
                )
    finally:
        service.unlisten(game_id, key)
        service.seat_closed(seated)  # presence: away once its last socket closed
        admissions.leave(game_id, address, spectator)
        await connection.close()
