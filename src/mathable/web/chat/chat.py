"""The chat of a game (issue 15, "Chat"): two rooms, as on lichess.

- The **players' room** is for the seated players (a seat token of the game); its
  messages are signed with the seat's name.
- The **spectators' room** is for everyone else, signed with the session player's name
  (``GET /api/me``'s). Fair play: during the game, players do not read it (no help from
  watchers) and spectators do not read the players' room; once the game is over, both
  rooms are open to everyone to read (each still writes in their own).

A message is 1 to 500 characters once leading and trailing spaces are stripped, without
control characters, and kept as typed otherwise: it is text, never markup (the page
shows it with ``textContent``). Messages and reports are rate-limited per address and
per player (``MATHABLE_RATE_CHAT``). Mute is the reader's own choice, kept in their
browser (the page hides a muted author's messages), as lichess does; a report is stored
(:data:`~.db.reports`) for a moderator, who may hide a message (``hidden``).

Chat is not game state: it lives in its own table (:data:`~.db.chat`), never in the
game's event log, so replays, records and the views are unchanged by it. New messages
go at once to the sockets of this process that may read their room (the game's
listeners, as views do: only queued, never awaited); pages on other processes fetch
them with ``GET …/chat?after=`` every few seconds (the page does so in any case).
"""

from __future__ import annotations

import asyncio
import time
import unicodedata
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Path, Query, Request
from pydantic import BaseModel, Field
from sqlalchemy import insert, select

from mathable.i18n import _, lazy
from mathable.web.infra.connections import Encoded
from mathable.web.infra.db import chat, reports
from mathable.web.infra.errors import REFUSALS, ServiceError
from mathable.web.infra.limits import RateLimiter
from mathable.web.infra.store import EventStore
from mathable.web.players.accounts import MeDep
from mathable.web.players.seating import cookie_player
from mathable.web.rounds.deps import SeatDep, ServiceDep
from mathable.web.rounds.live import Seated
from mathable.web.rounds.schemas import STORED_INT
from mathable.web.rounds.service import GameService

Room = Literal["players", "spectators"]
MAX_TEXT = 500
"""A message's length at most, in characters (once stripped)."""
MAX_REASON = 500
PAGE = 200
"""Messages in one answer at most (the newest ones after ``after``)."""

# -- shapes ------------------------------------------------------------------------------


class ChatIn(BaseModel):
    """A message to a room of the game."""

    token: str | None = Field(None, description="A seat's token: the players' room.")
    room: Room | None = Field(None, description="Default: the writer's own room.")
    text: str = Field(max_length=4 * MAX_TEXT, description="1 to 500 characters, as typed.")


class ReportIn(BaseModel):
    """Why a message is reported."""

    reason: str = Field("", max_length=MAX_REASON)


class MessageOut(BaseModel):
    """One chat message: its text exactly as typed (text, never markup)."""

    id: int
    room: Room
    player: str | None = Field(description="The author's player id (mute by it).")
    name: str = Field(description="The seat's name, or the spectator's display name.")
    seat: int | None
    text: str
    created: float


class ChatOut(BaseModel):
    """A room's messages after ``after``, oldest first."""

    room: Room
    messages: list[MessageOut]


# -- the rules ---------------------------------------------------------------------------


def own_room(seated: Seated) -> Room:
    return "spectators" if seated.seat is None else "players"


def may_read(seated: Seated, room: Room) -> bool:
    """One's own room always; the other one once the game is over."""
    return room == own_room(seated) or seated.live.game.is_over


def checked_text(text: str) -> str:
    """The message as stored: stripped of spaces around it, 1–500 characters, no control
    characters (a 422 naming the field otherwise)."""
    stripped = text.strip()
    if not stripped:
        raise ServiceError(422, _("text: a message may not be empty"))
    if len(stripped) > MAX_TEXT:
        raise ServiceError(
            422,
            _(
                "text: {length} characters: a message has at most {most}",
                length=len(stripped),
                most=MAX_TEXT,
            ),
        )
    if any(unicodedata.category(c) == "Cc" for c in stripped):
        raise ServiceError(422, _("text: control characters (new lines, tabs…) are not allowed"))
    return stripped


def _out(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "room": row.room,
        "player": row.player_id,
        "name": row.name,
        "seat": row.seat,
        "text": row.text,
        "created": row.created,
    }


# -- the store ---------------------------------------------------------------------------


def add_message(
    store: EventStore,
    game_id: str,
    room: Room,
    player_id: str | None,
    name: str,
    seat: int | None,
    text: str,
) -> dict[str, Any]:
    """Store one message; answers it as the API shows it."""
    now = time.time()
    values = {
        "game_id": game_id,
        "room": room,
        "player_id": player_id,
        "name": name,
        "seat": seat,
        "text": text,
        "created": now,
    }
    with store.writing() as connection:
        made = connection.execute(insert(chat).values(hidden=False, **values))
        key = made.inserted_primary_key
        assert key is not None
        message_id = int(key[0])
    return {
        "id": message_id,
        "room": room,
        "player": player_id,
        "name": name,
        "seat": seat,
        "text": text,
        "created": now,
    }


def messages(store: EventStore, game_id: str, room: Room, after: int = 0) -> list[dict[str, Any]]:
    """The room's shown messages after the id ``after``: the newest :data:`PAGE`, oldest
    first."""
    with store.reading() as connection:
        rows = connection.execute(
            select(chat)
            .where(
                chat.c.game_id == game_id,
                chat.c.room == room,
                chat.c.id > after,
                chat.c.hidden.is_(False),
            )
            .order_by(chat.c.id.desc())
            .limit(PAGE)
        ).all()
    return [_out(row) for row in reversed(rows)]


def add_report(
    store: EventStore, game_id: str, message_id: int, reporter: str, reason: str
) -> bool:
    """Store a report of a message of this game (False: no such message)."""
    with store.writing() as connection:
        found = connection.execute(
            select(chat.c.id).where(chat.c.id == message_id, chat.c.game_id == game_id)
        ).first()
        if found is None:
            return False
        connection.execute(
            insert(reports).values(
                game_id=game_id,
                message_id=message_id,
                reporter=reporter,
                reason=reason,
                created=time.time(),
            )
        )
    return True


# -- live delivery -----------------------------------------------------------------------


def deliver(service: GameService, game_id: str, message: dict[str, Any]) -> None:
    """Offer ``{"type": "chat", "message": …}`` to this process's sockets of the game
    that may read its room: the players' room to seated sockets, the spectators' room
    to spectators' (to everyone once the game is over). Listeners only queue."""
    live = service.live.get(game_id)
    if live is None:
        return
    over = live.game.is_over
    wrapped = Encoded(type="chat", message=message)
    for key, (seat, listener, _lang) in list(live.listeners.items()):
        if not over and (seat is None) != (message["room"] == "spectators"):
            continue
        try:
            listener(wrapped)
        except Exception:  # a listener that fails: forget it
            live.listeners.pop(key, None)


# -- the routes --------------------------------------------------------------------------

router = APIRouter(prefix="/api/games", tags=["chat"], responses=REFUSALS)

# TRANSLATORS: whose chat messages a limit counts: "too many chat messages from you"
FROM_YOU = lazy("you")


def _limit(request: Request, player_id: str) -> None:
    """One more chat request from this address and this player (429 past either)."""
    limiter: RateLimiter = request.app.state.rate_limiter
    limiter.hit("chat", request.client.host if request.client else "")
    limiter.hit("chat", "player " + player_id, source=FROM_YOU)


async def seat_from_chat_body(
    game_id: str, service: ServiceDep, body: ChatIn, request: Request
) -> Seated:
    """The game and the seat of the message's ``token``, or without one of the session
    cookie (:mod:`.seating`); None: a spectator."""
    return await service.seated_async(game_id, body.token, cookie_player(request))


@router.get("/{game_id}/chat", summary="Read a chat room of the game", response_model=ChatOut)
async def read_chat(
    seated: SeatDep,
    service: ServiceDep,
    room: Annotated[Room | None, Query(description="Default: the reader's own room.")] = None,
    after: Annotated[
        int, Query(ge=0, le=STORED_INT, description="Only messages after this id.")
    ] = 0,
) -> dict[str, Any]:
    """The players' room is for the seats' tokens, the spectators' room for the others;
    during the game neither reads the other's (fair play), after it both are open."""
    room = room or own_room(seated)
    if not may_read(seated, room):
        raise ServiceError(403, _closed(room))
    found = await asyncio.to_thread(messages, service.store, seated.live.id, room, after)
    return {"room": room, "messages": found}


@router.post(
    "/{game_id}/chat", status_code=201, summary="Write in the chat", response_model=MessageOut
)
async def write_chat(
    body: ChatIn,
    request: Request,
    seated: Annotated[Seated, Depends(seat_from_chat_body)],
    service: ServiceDep,
    me: MeDep,
) -> dict[str, Any]:
    """Each writes in their own room: a seat's token in the players' room (signed with
    the seat's name), anyone else in the spectators' room (signed with their display
    name). The text is kept as typed and never read as markup."""
    room = body.room or own_room(seated)
    if room != own_room(seated):
        raise ServiceError(403, _not_yours(room))
    text = checked_text(body.text)
    _limit(request, me.id)
    live = seated.live
    name = me.name if seated.seat is None else live.game.players[seated.seat]
    message = await asyncio.to_thread(
        add_message, service.store, live.id, room, me.id, name, seated.seat, text
    )
    deliver(service, live.id, message)
    return message


@router.post(
    "/{game_id}/chat/{message_id}/report",
    status_code=201,
    summary="Report a chat message",
)
async def report(
    game_id: str,
    message_id: Annotated[int, Path(ge=0, le=STORED_INT, description="The message's id.")],
    body: ReportIn,
    request: Request,
    service: ServiceDep,
    me: MeDep,
) -> dict[str, Any]:
    """Store a report of the message, with the reporter and their reason, for a
    moderator."""
    _limit(request, me.id)
    await service.seated_async(game_id, None)  # 404 for no such game
    reason = body.reason.strip()
    if any(unicodedata.category(c) == "Cc" for c in reason):
        raise ServiceError(422, _("reason: control characters are not allowed"))
    stored = await asyncio.to_thread(add_report, service.store, game_id, message_id, me.id, reason)
    if not stored:
        raise ServiceError(404, _("no such message in this game"))
    return {"reported": message_id}


def _closed(room: Room) -> str:
    if room == "spectators":
        return _("the spectators' room opens to the players when the game is over (fair play)")
    return _("the players' room is for the seats until the game is over: open your seat's link")


def _not_yours(room: Room) -> str:
    if room == "spectators":
        return _("players write in the players' room: the spectators' room is for watchers")
    return _("the players' room is for the seats: open your seat's private link")
