"""Who has a game open (issue 15, "a disconnected player is shown as such"), across every
server process over one database.

Each process keeps one row per (game, seat) it has had a socket of, in the ``presence``
table (:data:`~.db.presence`): ``connected`` while at least one socket of that seat is open
in that process, ``since`` the instant that last changed, ``seen`` its last heartbeat. A
seat is connected if any process has a live connected row for it (so a player with the
page open on another process, or on two devices, stays connected when one closes), and
otherwise disconnected since the latest of its rows' ``since``. A process that dies stops
beating: its rows count as disconnected ``STALE`` seconds after their last ``seen``.

Writes, all off the event loop (a thread) and one at a time per process, so they land
in the order the sockets came and went:

- a seat's first socket in the process: its row marked connected (insert or update);
- the seat's last socket closing: connected false, ``since`` now;
- every ``HEARTBEAT`` seconds, one statement for all: ``UPDATE presence SET seen = now
  WHERE process = me AND connected`` (however many sockets are open);
- the process stopping: its rows marked disconnected in one statement.

Watchers hear of a change at once from the process that saw it (the game's views are
rebuilt and broadcast); other processes find it out by polling: every ``POLL`` seconds a
process reads the rows of the games it has sockets on, one query of
``game_id IN (…)`` a chunk of 500 games, and broadcasts the games whose presence changed.
Cost (``benchmarks/clock_startup.py presence``, benchmarks/README.md, 2026-11-23, the
shared 2-core sandbox): one poll of 500 watched games, two rows each, takes a median 5 ms
on SQLite and 7 ms on PostgreSQL (in a thread, not on the event loop): at ``POLL`` = 2 s,
under 0.4 % of a core per process; a heartbeat, 1 ms (SQLite) to 3 ms (PostgreSQL) every
20 s. Latency: the process that saw the socket at once, the others within ``POLL``
seconds. Heartbeats ride on the poll loop, never on a socket's own task.

A process's own rows are judged by what it knows (its sockets), never stale; the others'
by their heartbeats (issue 29). A claim (:meth:`~.service.GameService.claim`) is judged on
the rows read afresh: the seat to move, once every seat has made a first move (O4),
connected nowhere for more than ``MATHABLE_CLAIM_AFTER`` seconds (``MATHABLE_CLAIM_AFTER``),
may be claimed against; a seat with no socket ever counts from its turn's start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from mathable.web.infra.db import presence
from mathable.web.infra.store import EventStore

log = logging.getLogger(__name__)

HEARTBEAT = 20.0
"""Seconds between a process's heartbeats (its connected rows' ``seen``)."""
STALE = 50.0
"""Seconds without a heartbeat after which a process's connected rows count as gone."""
POLL = 2.0
"""Seconds between a process's reads of the other processes' rows of its watched games."""
CHUNK = 500
"""Games per poll query."""

CLAIM_AFTER = 60.0
"""Seconds the seat to move must have been away before another player may claim
(``MATHABLE_CLAIM_AFTER``, read with the app's settings)."""


@dataclass(frozen=True)
class Row:
    """One process's row of a seat."""

    seat: int
    process: str
    seen: float
    connected: bool
    since: float


@dataclass(frozen=True)
class Here:
    """A seat's presence: connected or not, since when (None: never seen)."""

    connected: bool
    since: float | None

    def to_json(self) -> dict[str, Any]:
        return {
            "connected": self.connected,
            "since": None if self.since is None else round(self.since * 1000),
        }


def merged(
    rows: Iterable[Row], seat: int, now: float, stale: float = STALE, own: str | None = None
) -> Here:
    """A seat's presence from every process's row of it. The rows of process ``own`` (the
    one asking) are as it wrote them, so never stale: a process that reads is alive, and
    its heartbeat freshens only the stored copy (issue 29: a player with the page open was
    shown disconnected, and claimed against, ``STALE`` seconds after connecting)."""
    live: list[float] = []
    gone: list[float] = []
    for row in rows:
        if row.seat != seat:
            continue
        if row.connected and (row.process == own or row.seen >= now - stale):
            live.append(row.since)
        else:
            gone.append(row.since if not row.connected else row.seen)  # a dead process
    if live:
        return Here(True, min(live))
    return Here(False, max(gone) if gone else None)


class PresenceTable:
    """The ``presence`` table over the event store's database (each method one
    transaction; called in threads)."""

    def __init__(self, store: EventStore) -> None:
        self.store = store

    def write(self, game_id: str, seat: int, process: str, row: Row) -> None:
        """The process's row of the seat as ``row`` (inserted the first time)."""
        key = (
            presence.c.game_id == game_id,
            presence.c.seat == seat,
            presence.c.process == process,
        )
        values = {"seen": row.seen, "connected": row.connected, "since": row.since}
        with self.store.writing() as connection:
            if connection.execute(update(presence).where(*key).values(**values)).rowcount == 0:
                connection.execute(
                    insert(presence).values(game_id=game_id, seat=seat, process=process, **values)
                )

    def beat(self, process: str, at: float) -> None:
        """The heartbeat of every connected row of the process: one statement."""
        with self.store.writing() as connection:
            connection.execute(
                update(presence)
                .where(presence.c.process == process, presence.c.connected)
                .values(seen=at)
            )

    def leave(self, process: str, at: float) -> None:
        """The process stops: each of its connected rows disconnected now."""
        with self.store.writing() as connection:
            connection.execute(
                update(presence)
                .where(presence.c.process == process, presence.c.connected)
                .values(seen=at, since=at, connected=False)
            )

    def rows(self, game_ids: Sequence[str]) -> dict[str, list[Row]]:
        """Every row of these games, by game (a chunk of :data:`CHUNK` per query)."""
        found: dict[str, list[Row]] = {game_id: [] for game_id in game_ids}
        columns = (
            presence.c.game_id,
            presence.c.seat,
            presence.c.process,
            presence.c.seen,
            presence.c.connected,
            presence.c.since,
        )
        ids = list(game_ids)
        with self.store.reading() as connection:
            for start in range(0, len(ids), CHUNK):
                chunk = ids[start : start + CHUNK]
                for r in connection.execute(select(*columns).where(presence.c.game_id.in_(chunk))):
                    found[r.game_id].append(
                        Row(int(r.seat), r.process, float(r.seen), bool(r.connected), r.since)
                    )
        return found


Changed = Callable[[str], None]


class Presence:
    """This process's sockets per seat, the rows it knows of, and their upkeep.

    ``now`` is the service's clock; ``changed(game_id)`` is called on the event loop when
    a game's presence as shown changed (the service rebuilds and broadcasts its views)."""

    def __init__(self, store: EventStore, now: Callable[[], float], changed: Changed) -> None:
        self.table = PresenceTable(store)
        self.process = secrets.token_hex(6)
        self.now = now
        self.changed = changed
        self._sockets: Counter[tuple[str, int]] = Counter()
        self._rows: dict[str, dict[tuple[int, str], Row]] = {}
        """The rows known of each game followed here (own rows as written); each game's
        dict is replaced, never changed, so views built on threads read it safely."""
        self._shown: dict[str, tuple[Here, ...]] = {}
        self._writes = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._pending: set[asyncio.Future[None]] = set()
        self.poll = POLL
        self.heartbeat = HEARTBEAT

    # -- this process's sockets ---------------------------------------------------------

    async def opened(self, game_id: str, seat: int | None) -> None:
        """A socket of the seat (None: a spectator's) opened here: the game followed from
        now on, the seat connected (written at its first socket)."""
        if game_id not in self._rows:
            try:
                await self.fresh(game_id)  # the other processes' rows of a game new here
            except Exception:  # the database away: the next poll reads them
                log.exception("presence of game %s", game_id)
        if seat is None:
            return
        key = (game_id, seat)
        self._sockets[key] += 1
        if self._sockets[key] == 1:
            await self._write(game_id, seat)

    def closed(self, game_id: str, seat: int | None) -> None:
        """A socket of the seat closed here: disconnected once its last one has (written
        by a task of its own: a socket's handler may be cancelled as it closes)."""
        if seat is None:
            return
        key = (game_id, seat)
        self._sockets[key] -= 1
        if self._sockets[key] <= 0:
            del self._sockets[key]
            task = asyncio.ensure_future(self._write(game_id, seat))
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def _write(self, game_id: str, seat: int) -> None:
        """Write the seat's row as it is now (whatever came and went meanwhile): the
        writes are in order, and the last one says how things are."""
        async with self._writes:
            connected = (game_id, seat) in self._sockets
            rows = dict(self._rows.get(game_id, {}))  # a new dict: views read it in threads
            before = rows.get((seat, self.process))
            if before is not None and before.connected == connected:
                return
            at = self.now()
            row = Row(seat, self.process, at, connected, at)
            rows[(seat, self.process)] = row
            self._rows[game_id] = rows
            self._tell(game_id)
            try:
                await asyncio.to_thread(self.table.write, game_id, seat, self.process, row)
            except Exception:  # the database away: shown here, the others see it late
                log.exception("presence of game %s, seat %d", game_id, seat)

    # -- what is shown --------------------------------------------------------------------

    def of(self, game_id: str, bots: Sequence[bool]) -> list[Here] | None:
        """Each seat's presence (computer players: always there); None for a game this
        process does not follow (no socket here has opened it)."""
        rows = self._rows.get(game_id)
        if rows is None:
            return None
        now = self.now()  # (a row gone stale since the last poll: shown as such)
        return [
            Here(True, None) if bot else self.merged(rows.values(), seat, now)
            for seat, bot in enumerate(bots)
        ]

    def merged(self, rows: Iterable[Row], seat: int, now: float) -> Here:
        """:func:`merged` as this process judges it (its own rows never stale)."""
        return merged(rows, seat, now, own=self.process)

    def _tell(self, game_id: str) -> None:
        """Note the game's presence as shown now; ``changed`` if it is news."""
        rows = self._rows.get(game_id)
        if rows is None:
            return
        seats = 1 + max((seat for seat, _ in rows), default=-1)
        now = self.now()
        state = tuple(self.merged(rows.values(), seat, now) for seat in range(seats))
        if self._shown.get(game_id) != state:
            self._shown[game_id] = state
            self.changed(game_id)

    async def fresh(self, game_id: str) -> list[Row]:
        """The game's rows as stored now (a claim is judged on them), taken in."""
        found = (await asyncio.to_thread(self.table.rows, [game_id]))[game_id]
        self._take(game_id, found)
        self._tell(game_id)
        return list(self._rows[game_id].values())

    def _take(self, game_id: str, found: list[Row]) -> None:
        own = {k: r for k, r in self._rows.get(game_id, {}).items() if k[1] == self.process}
        rows = {(r.seat, r.process): r for r in found if r.process != self.process}
        rows.update(own)  # this process's rows: as written here (never older)
        self._rows[game_id] = rows

    # -- upkeep: heartbeats and the other processes' changes ------------------------------

    def start(self, watched: Callable[[], Iterable[str]]) -> None:
        """Start the heartbeats and the polls of the ``watched`` games (on the loop)."""
        if self._task is None:
            self._task = asyncio.create_task(self._run(watched))

    async def _run(self, watched: Callable[[], Iterable[str]]) -> None:
        beaten = time.monotonic()
        while True:
            await asyncio.sleep(self.poll)
            try:
                if time.monotonic() - beaten >= self.heartbeat:
                    beaten = time.monotonic()
                    await asyncio.to_thread(self.table.beat, self.process, self.now())
                await self.look(watched())
            except asyncio.CancelledError:
                raise
            except Exception:  # the database away a moment: the next poll tries again
                log.exception("presence: heartbeat or poll")

    async def look(self, watched: Iterable[str]) -> None:
        """Read the rows of the ``watched`` games and tell of those whose presence changed
        (games no longer watched are forgotten)."""
        games = set(watched) | {game_id for game_id, _ in self._sockets}
        for game_id in [g for g in self._rows if g not in games]:
            del self._rows[game_id]
            self._shown.pop(game_id, None)
        if not games:
            return
        found = await asyncio.to_thread(self.table.rows, sorted(games))
        for game_id, rows in found.items():
            self._take(game_id, rows)
            self._tell(game_id)

    async def close(self) -> None:
        """Stop the upkeep and mark this process's seats disconnected."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        await asyncio.gather(*self._pending, return_exceptions=True)
        self._sockets.clear()
        with contextlib.suppress(Exception):
            await asyncio.to_thread(self.table.leave, self.process, self.now())
