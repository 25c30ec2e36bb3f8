"""The Bot API's two NDJSON streams (issue 36, as lichess's): an account's events and a
bot's game.

- **Events** (``GET /api/stream/event``): ``challenge``, ``challengeCanceled``,
  ``challengeDeclined``, ``gameStart`` and ``gameFinish`` lines for one account. Every
  server process over the database must tell the same, so a stream polls the database in a
  bounded way: one look every :data:`POLL` seconds, two indexed reads (the account's
  challenges changed since its last look, and its games without a result or with one
  since), whatever process made the change. On connecting it tells the challenges waiting
  and the games being played (lichess does the same), so a bot that reconnects misses
  nothing. An empty line every :data:`KEEP_ALIVE` seconds keeps proxies from closing it.
- **A game** (``GET /api/bot/game/stream/{id}``): the seat's whole view first (the game
  socket's JSON for that seat: hidden information hidden, the clocks in it), then a line
  for each change (the game's listeners, which the change feed reaches from every process),
  until the game is over. The stream counts as the seat's socket for presence.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

from sqlalchemy import select

from mathable.web.infra.connections import ViewMessage, encode
from mathable.web.infra.db import game_players, games, results
from mathable.web.infra.store import EventStore
from mathable.web.lobby.challenges import (
    ACCEPTED,
    CANCELED,
    CREATED,
    DECLINED,
    EXPIRED,
    ChallengeStore,
    shown,
)
from mathable.web.rounds.live import Seated
from mathable.web.rounds.service import GameService

POLL = 1.0
"""Seconds between two looks of an event stream at the database."""
KEEP_ALIVE = 7.0
"""Seconds of silence after which a stream sends an empty line (lichess's habit)."""
SLACK = 2.0
"""Seconds an event stream looks back beyond its last look (writes committed out of order
are not missed; what was told already is not told again)."""
EVENTS = {
    CREATED: "challenge",
    CANCELED: "challengeCanceled",
    EXPIRED: "challengeCanceled",
    DECLINED: "challengeDeclined",
}
HEADERS = {"Content-Encoding": "identity", "X-Accel-Buffering": "no", "Cache-Control": "no-store"}
"""A stream is sent line by line: never gzipped (the middleware would hold lines back),
never buffered by a proxy."""


def line(data: dict[str, Any]) -> bytes:
    return (json.dumps(data, separators=(",", ":")) + "\n").encode()


def games_of(store: EventStore, player_id: str, since: float) -> list[dict[str, Any]]:
    """The games ``player_id`` sits at without a result, or whose result came after
    ``since``: id, seat, variant, clock, rated, and the result's reason, ranks, scores."""
    with store.reading() as connection:
        rows = connection.execute(
            select(
                game_players.c.game_id,
                game_players.c.seat,
                games.c.spec,
                games.c.seats,
                results.c.finished,
                results.c.reason,
                results.c.ranks,
                results.c.scores,
            )
            .join(games, games.c.id == game_players.c.game_id)
            .outerjoin(results, results.c.game_id == game_players.c.game_id)
            .where(
                game_players.c.player_id == player_id,
                (results.c.game_id.is_(None)) | (results.c.finished >= since),
            )
            .limit(500)
        ).all()
    found = []
    for row in rows:
        spec = json.loads(row.spec)
        seats = json.loads(row.seats)
        entry: dict[str, Any] = {
            "id": row.game_id,
            "seat": row.seat,
            "variant": spec.get("variant"),
            "players": [s.get("name", "") for s in seats],
            "clock": spec.get("clock"),
            "rated": bool(spec.get("rated", False)),
            "mode": spec.get("mode"),
        }
        if row.finished is not None:
            entry["finished"] = row.finished
            entry["reason"] = row.reason
            entry["ranks"] = json.loads(row.ranks)
            entry["scores"] = json.loads(row.scores)
        found.append(entry)
    return found


class EventFeed:
    """What one account's event stream has told, and the next lines to tell."""

    def __init__(
        self,
        challenges: ChallengeStore,
        player_id: str,
        bots: Callable[[list[str]], set[str]],
        now: Callable[[], float] = time.time,
    ) -> None:
        self.challenges = challenges
        self.player_id = player_id
        self.bots = bots
        self.now = now
        self.told: dict[str, str] = {}
        """Each challenge's status as last told."""
        self.playing: set[str] = set()
        self.finished: set[str] = set()
        self.since: float | None = None

    def look(self) -> list[dict[str, Any]]:
        """The events since the last look (the first: the waiting challenges and the
        games being played). Blocking: run it in a thread."""
        started = self.now()
        rows = self.challenges.of(
            self.player_id, None if self.since is None else self.since - SLACK
        )
        events: list[dict[str, Any]] = []
        bots = self.bots([p for r in rows for p in (r.challenger, r.dest)]) if rows else set()
        for row in rows:
            if self.told.get(row.id) == row.status:
                continue
            self.told[row.id] = row.status
            kind = EVENTS.get(row.status)
            if kind is not None:
                events.append({"type": kind, "challenge": shown(row, bots)})
        first = self.since is None
        since = 0.0 if first else (self.since or 0.0) - SLACK
        for game in games_of(self.challenges.store, self.player_id, since):
            over = "finished" in game
            if over and game["id"] not in self.finished and not first:
                self.finished.add(game["id"])
                if game["id"] not in self.playing:  # begun and ended between two looks
                    events.append({"type": "gameStart", "game": _started(game)})
                events.append({"type": "gameFinish", "game": game})
            elif over:
                self.finished.add(game["id"])
            elif game["id"] not in self.playing:
                self.playing.add(game["id"])
                events.append({"type": "gameStart", "game": _started(game)})
        self.since = started
        return events


def _started(game: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in game.items() if k not in ("finished", "reason", "ranks", "scores")}


async def event_lines(
    feed: EventFeed, poll: float = POLL, keep_alive: float = KEEP_ALIVE
) -> AsyncIterator[bytes]:
    """The event stream's lines, for ever (until the client goes)."""
    yield b"\n"  # the headers and a first line at once: the client knows it is connected
    quiet = 0.0
    while True:
        events = await asyncio.to_thread(feed.look)
        for event in events:
            yield line(event)
        quiet = 0.0 if events else quiet + poll
        if quiet >= keep_alive:
            quiet = 0.0
            yield b"\n"
        await asyncio.sleep(poll)


async def game_lines(
    service: GameService, seated: Seated, keep_alive: float = KEEP_ALIVE
) -> AsyncIterator[bytes]:
    """A bot's game: ``gameFull`` (the seat's view), then ``gameState`` after each change,
    until the game is over; an empty line after :data:`KEEP_ALIVE` quiet seconds."""
    queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue(maxsize=64)

    def heard(message: dict[str, Any]) -> None:
        if queue.full():  # a reader that lags: only the newest view matters
            queue.get_nowait()
        queue.put_nowait(message)

    key = service.listen(seated, heard)
    try:
        await service.seat_opened(seated)
        first = service.view_message(seated.live, seated.seat)
        yield _view_line("gameFull", seated.live.id, first)
        over = bool(first.get("view", {}).get("over"))
        while not over:
            try:
                message = await asyncio.wait_for(queue.get(), keep_alive)
            except TimeoutError:
                yield b"\n"
                continue
            if message.get("type") != "view":
                continue
            yield _view_line("gameState", seated.live.id, message)
            over = bool(message.get("view", {}).get("over"))
    finally:
        service.unlisten(seated.live.id, key)
        service.seat_closed(seated)


def _view_line(kind: str, game_id: str, message: dict[str, Any]) -> bytes:
    """``{"type": kind, "id": …, "view": …}``: the view's JSON text as made once."""
    view = message.view.text() if isinstance(message, ViewMessage) else encode(message["view"])
    return f'{{"type":"{kind}","id":{json.dumps(game_id)},"view":{view}}}\n'.encode()


__all__ = ["ACCEPTED", "EventFeed", "event_lines", "game_lines", "games_of"]
