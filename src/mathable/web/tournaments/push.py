"""A tournament's push (issue 38): the page ``/t/{id}`` holds one socket,
``/api/tournaments/{id}/ws``, and is told ``{"type": "tournament", "seq": n}`` (the
length of its log) at once and whenever the tournament changes; it then reads the
tournament as its reader (``GET /api/tournaments/{id}``), and polls only while the socket
is down.

Changes come from anywhere: this process, another one, and the boards' games, whose ends
the rounds' layer never reports to tournaments. So each tournament watched here is looked
at every :data:`WATCH_EVERY` seconds by one task, however many sockets watch it: two
indexed reads (:meth:`~.log.TournamentLog.stamp`: the log's length and how many of its
boards' games have ended); when either moved, the tournament advances (its results, its
next pairings) and its sockets are told the new length. Nothing is read for a tournament
nobody watches: the periodic check (:data:`~.service.CHECK_EVERY`) keeps it going.
"""

from __future__ import annotations

import asyncio
import logging

from mathable.i18n import lazy
from mathable.web.infra.connections import Connection
from mathable.web.tournaments.service import TournamentService

log = logging.getLogger(__name__)

WATCH_EVERY = 0.5
"""Seconds between two looks at a watched tournament: a result shows within a second."""
GOING_AWAY = 1001
"""The close code of the sockets still open when the server shuts down."""


class Watchers:
    """The tournaments' sockets on this process, and one watching task per tournament
    watched (started with its first socket, stopped with its last)."""

    def __init__(self, service: TournamentService, every: float = WATCH_EVERY) -> None:
        self.service = service
        self.every = every
        self.sockets: dict[str, set[Connection]] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}
        self.told: dict[str, int] = {}
        """The log's length last told, by tournament watched."""
        self.closed = False

    def enter(self, tournament_id: str, connection: Connection) -> None:
        """A socket in: told the log's length at once, and each change from now on."""
        if self.closed:
            connection.drop(GOING_AWAY, lazy("the server is shutting down"))
            return
        self.sockets.setdefault(tournament_id, set()).add(connection)
        if tournament_id not in self.tasks:
            task = asyncio.get_running_loop().create_task(self._watch(tournament_id))
            self.tasks[tournament_id] = task
        else:  # the task has told the others already: this one hears the length now
            self._tell(tournament_id, {connection})

    def leave(self, tournament_id: str, connection: Connection) -> None:
        """A socket out; the last one out stops the tournament's task."""
        mine = self.sockets.get(tournament_id)
        if mine is None:
            return
        mine.discard(connection)
        if not mine:
            del self.sockets[tournament_id]
            task = self.tasks.pop(tournament_id, None)
            if task is not None:
                task.cancel()

    def _tell(self, tournament_id: str, connections: set[Connection]) -> None:
        seq = self.told.get(tournament_id)
        if seq is None:
            return
        for connection in connections:
            connection.send({"type": "tournament", "seq": seq})

    async def _watch(self, tournament_id: str) -> None:
        """Look at the tournament every :attr:`every` seconds; advance it when its log or
        its games moved, and tell its sockets its new length."""
        stamp: tuple[int, int] | None = None
        try:
            while True:
                try:
                    now = await asyncio.to_thread(self.service.log.stamp, tournament_id)
                    if now != stamp:
                        loaded = await self.service.advance(tournament_id)
                        stamp = await asyncio.to_thread(self.service.log.stamp, tournament_id)
                        if self.told.get(tournament_id) != len(loaded.events):
                            self.told[tournament_id] = len(loaded.events)
                            self._tell(tournament_id, self.sockets.get(tournament_id, set()))
                except Exception:  # the database away for a moment: the same again soon
                    log.exception("watching tournament %s", tournament_id)
                await asyncio.sleep(self.every)
        finally:
            self.told.pop(tournament_id, None)

    async def close(self) -> None:
        """At shutdown: the tasks stopped, every open socket closed (going away)."""
        self.closed = True
        tasks = list(self.tasks.values())
        self.tasks.clear()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for connections in self.sockets.values():
            for connection in connections:
                connection.drop(GOING_AWAY, lazy("the server is shutting down"))
        self.sockets.clear()
