"""The lobby's push (issue 29): one socket per page, ``/api/lobby/ws``, sent the open
seeks whenever they change, and each change of a seek its player is in; the changes of
other processes heard through the seeks' change feed (``NOTIFY`` on PostgreSQL, a light
poll on SQLite). Read :mod:`.seeks` first."""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from typing import Any

from sqlalchemy import func, select, union_all

from mathable.web.infra import connections
from mathable.web.infra.connections import Encoded
from mathable.web.infra.db import in_memory, psycopg_arguments, seeks
from mathable.web.infra.feed import Feed, OnChange, PostgresListener, PostgresNotifier
from mathable.web.lobby.seeks import ANY, CANCELLED, CHANNEL, OPEN, RECENT, STARTED, SeekStore, log

# -- the lobby's pushes (issue 29) -------------------------------------------------------


class SeekPoller(Feed):
    """The seeks' change feed on SQLite: a look at the open seeks (and those made in the
    last :data:`RECENT` seconds) every ``interval`` seconds, reporting each seek that
    appeared, changed (a seat taken, started, cancelled) or closed since the last look.
    Both indexed reads (:data:`~.db.seeks` by status and time); the changes this process
    made come too (told already: the :class:`Lobby` sends nothing twice that is the same
    list, and a seek's news again is harmless)."""

    def __init__(self, seeks_: SeekStore, on_change: OnChange, interval: float) -> None:
        super().__init__(on_change)
        self.seeks = seeks_
        self.interval = interval
        self.last = self.look()

    def look(self) -> dict[str, tuple[str, int]]:
        """Each seek looked at: its status and the length of its joined players."""
        shown = (seeks.c.id, seeks.c.status, func.length(seeks.c.joined))
        closed = (
            seeks.c.status.in_([STARTED, CANCELLED]),
            seeks.c.created > self.seeks.now() - RECENT,
        )
        with self.seeks.store.reading() as connection:
            rows = connection.execute(
                union_all(
                    select(*shown).where(seeks.c.status == OPEN), select(*shown).where(*closed)
                )
            ).all()
        return {str(row[0]): (str(row[1]), int(row[2])) for row in rows}

    def poll(self) -> None:
        """One look: report what changed since the last."""
        now = self.look()
        before, self.last = self.last, now
        for seek_id, state in now.items():
            if before.get(seek_id) != state:
                self._deliver(seek_id, 0)
        for seek_id, (status, _length) in before.items():
            if seek_id not in now and status == OPEN:  # closed, and made a while ago
                self._deliver(seek_id, 0)

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.poll()
            except Exception:  # a busy or vanished file: try again at the next look
                log.exception("the lobby's change feed could not read the database")


class SeekListener(PostgresListener):
    """The seeks' change feed on PostgreSQL: ``LISTEN`` on :data:`CHANNEL`; back after a
    failure, any seek may have changed meanwhile (:data:`ANY`)."""

    def _catch_up(self, connection: Any, since: float) -> None:
        self._deliver(ANY, 0)


class Listener:
    """A lobby socket: its connection, its player (None: no session cookie) and the text
    of the last list of seeks it was sent."""

    def __init__(self, connection: connections.Connection, player: str | None) -> None:
        self.connection = connection
        self.player = player
        self.listed: str | None = None


class Lobby:
    """The lobby's sockets on this process and the news of the seeks that reaches them.

    A change (a seek made, joined, started, cancelled or expired), from this process
    (:attr:`SeekStore.on_change`, also sent to the others on PostgreSQL) or from another
    (the seeks' change feed, started with the first socket), marks its seek; one task at
    a time then reads, on a thread, the open seeks and the marked seeks, encodes them
    there once, and offers every socket the list if it is not the one it has, and each
    player the seeks of theirs that changed. The reads follow one another, so no socket
    is ever sent an older list after a newer one; many changes at once make one read."""

    def __init__(self, seeks_: SeekStore) -> None:
        self.seeks = seeks_
        store = seeks_.store
        self.listeners: dict[connections.Connection, Listener] = {}
        self.players: dict[str, set[Listener]] = {}
        self.origin = secrets.token_hex(6)
        self.notifier = (
            PostgresNotifier(psycopg_arguments(store.url), self.origin, CHANNEL)
            if store.postgresql
            else None
        )
        self.feed: Feed | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._starting: asyncio.Lock | None = None
        self._marked: set[str] = set()
        self._due = False
        self._pushing: asyncio.Task[None] | None = None
        self._closed = False
        seeks_.on_change = self.changed

    # -- news, from any thread --------------------------------------------------------------

    def changed(self, seek_ids: list[str]) -> None:
        """Seeks this process changed (committed): the other processes are told, and the
        sockets here."""
        for seek_id in seek_ids:
            if self.notifier is not None:
                self.notifier.note(seek_id, 0)
            self.heard(seek_id)

    def heard(self, seek_id: str, _seq: int = 0) -> None:
        """A seek changed (:data:`ANY`: any may have): marked, for a push on the loop."""
        loop = self._loop
        if loop is None:  # no socket yet: nobody to tell
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed
            loop.call_soon_threadsafe(self._mark, seek_id)

    # -- on the event loop ------------------------------------------------------------------

    def _mark(self, seek_id: str | None) -> None:
        if seek_id is not None:
            self._marked.add(seek_id)
        self._due = True
        if not self._closed and (self._pushing is None or self._pushing.done()):
            self._pushing = asyncio.ensure_future(self._push())

    async def _push(self) -> None:
        while self._due and not self._closed:
            marked, self._marked, self._due = self._marked, set(), False
            players = set(self.players)
            try:
                listed, theirs = await asyncio.to_thread(self._news, marked, players)
            except Exception:  # the database away for a moment: the same again soon
                log.exception("the lobby could not read the seeks")
                self._marked |= marked
                self._due = True
                await asyncio.sleep(1.0)
                continue
            text = listed.text()
            for listener in list(self.listeners.values()):
                if listener.listed != text:
                    listener.listed = text
                    listener.connection.send(listed)
            for player, message in theirs:
                for listener in list(self.players.get(player, ())):
                    listener.connection.send(message)

    def _news(
        self, marked: set[str], players: set[str]
    ) -> tuple[Encoded, list[tuple[str, Encoded]]]:
        """On a thread: the list of open seeks, and the marked seeks for each of their
        players listening here, each encoded once."""
        listed = Encoded(type="seeks", seeks=self.seeks.listed())
        listed.text()
        theirs: list[tuple[str, Encoded]] = []
        for row in self.seeks.rows(marked) if marked and players else []:
            for entry in json.loads(row.joined):
                if entry["id"] in players:
                    message = Encoded(type="seek", seek=SeekStore.shown(row, entry["id"]))
                    message.text()
                    theirs.append((entry["id"], message))
        return listed, theirs

    async def _listen(self) -> None:
        """The seeks' change feed, from the first socket until :meth:`close` (none for a
        database in memory: no other process)."""
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            store = self.seeks.store
            if self.feed is not None or self._closed or in_memory(store.url):
                return
            feed: Feed
            if store.postgresql:
                connect = psycopg_arguments(store.url)
                feed = SeekListener(connect, self.heard, self.origin, CHANNEL)
            else:
                feed = await asyncio.to_thread(
                    SeekPoller, self.seeks, self.heard, store.poll_interval
                )
            await asyncio.to_thread(feed.start)  # listening once this returns
            self.feed = feed

    async def enter(self, connection: connections.Connection, player: str | None) -> Listener:
        """A socket in: sent the list now, and the news from now on."""
        self._loop = asyncio.get_running_loop()
        listener = Listener(connection, player)
        self.listeners[connection] = listener
        if player is not None:
            self.players.setdefault(player, set()).add(listener)
        try:
            await self._listen()
        except BaseException:
            self.leave(listener)
            raise
        self._mark(None)  # its first list: read after it came in (nothing missed)
        return listener

    def leave(self, listener: Listener) -> None:
        self.listeners.pop(listener.connection, None)
        if listener.player is not None:
            mine = self.players.get(listener.player)
            if mine is not None:
                mine.discard(listener)
                if not mine:
                    del self.players[listener.player]

    async def close(self) -> None:
        """Stop the feed and the pushes; send the last notes to the other processes."""
        self._closed = True
        pushing = self._pushing
        if pushing is not None and not pushing.done():
            pushing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pushing
        if self.feed is not None:
            await asyncio.to_thread(self.feed.stop)
            self.feed = None
        if self.notifier is not None:
            await asyncio.to_thread(self.notifier.close)
        self._loop = None
