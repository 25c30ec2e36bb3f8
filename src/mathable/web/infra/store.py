"""The event store: one row per game event, ordered by sequence number, in SQLite or
PostgreSQL (:mod:`.db`).

A game is its creation row (variant, seats, seed, house rules, mode) plus its events; the
state is rebuilt by replaying them, so a restart, even after SIGKILL, loses nothing that
was acknowledged. The database is the authority: any number of server processes may
share it. The primary key (game, seq) makes two writers racing for the same sequence
number impossible, whichever process they run in: the second insert fails
(:class:`ConflictError`) and its action is refused. :meth:`EventStore.watch` follows the
changes other processes make (:mod:`.feed`). Events appended while another write is under
way are committed together once it ends (a group commit, :mod:`.groups`: one transaction
and one flush to the disk for them all), each append still answered for its own event.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass, field
from typing import Any, TypedDict

from sqlalchemy import Connection, bindparam, func, insert, select, update
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from mathable.web.infra.db import (
    DatabaseError,
    analyses,
    events,
    game_players,
    games,
    in_memory,
    is_sqlite,
    is_unique_violation,
    make_engine,
    migrate,
    parse_url,
    players,
    psycopg_arguments,
    reason,
    results,
    settings,
    shown,
)
from mathable.web.infra.feed import Feed, OnChange, PostgresListener, PostgresNotifier, SqlitePoller
from mathable.web.infra.groups import Append, GroupCommit


class ConflictError(Exception):
    """Another action took this sequence number first."""


class StoredSeat(TypedDict, total=False):
    """A game's seat as the store keeps it (the ``seats`` column's JSON objects): who sits
    there and how the seat is opened. Keys are only ever added."""

    name: str
    """The player's name as shown."""
    bot: str | None
    """A computer player's level (``strong``), None for a person."""
    token_hash: str | None
    """The SHA-256 of the seat's secret token (the token itself is never kept)."""
    invite_hash: str | None
    """Online, the hash of the seat's invitation while nobody has claimed it."""
    player: str | None
    """The player the seat is bound to (their session cookie opens it)."""
    joined: float
    """When the seat was taken online (O4: first moves are timed once all are in)."""
    rematch: str
    """Once a player asked for one: the id of the game's rematch."""
    rematch_seat: int
    """The seat's seat in the rematch (a rated one swaps who starts)."""


@dataclass(frozen=True)
class StoredGame:
    """A game's creation row and its events in order."""

    id: str
    created: float
    spec: dict[str, Any]
    seats: list[StoredSeat]
    actions: list[str]
    times: list[float] = field(default_factory=list)
    """When each event was stored (seconds since the epoch, as ``created``): the clocks
    are derived from them (:mod:`mathable.online.clocks`)."""


def sqlite_path(database_url: str) -> str:
    """The file of a ``sqlite:///path`` URL (``sqlite://`` alone: in memory)."""
    url = parse_url(database_url)
    if not is_sqlite(url):
        raise DatabaseError(f"DATABASE_URL={shown(url)} is not a SQLite URL")
    return ":memory:" if in_memory(url) else str(url.database)


class EventStore:
    """The event store on the database of ``database_url`` (``sqlite:///file`` or
    ``postgresql://user:password@host/db``), migrated to the newest schema on opening.

    Each method is one transaction. ``poll_interval`` is how often the SQLite change
    feed looks for other processes' changes (seconds)."""

    def __init__(self, database_url: str, *, poll_interval: float = 0.25) -> None:
        self.url = parse_url(database_url)
        self.shown_url = shown(self.url)
        """The URL as it may be printed (password hidden)."""
        self.poll_interval = poll_interval
        self._origin = secrets.token_hex(6)  # this store's writes, in NOTIFY payloads
        self._mine: dict[str, int] = {}  # game -> seq this store wrote (not news to it)
        self._mine_lock = threading.Lock()
        self._feed: Feed | None = None
        self._notifier: PostgresNotifier | None = None
        # one shared connection in memory: one caller at a time
        self._lock: AbstractContextManager[Any] = (
            threading.RLock() if in_memory(self.url) else nullcontext()
        )
        # a SQLite file takes one writer at a time: this process's writers queue here
        # rather than in SQLite's busy handler (which sleeps and retries)
        self._writer: AbstractContextManager[Any] = (
            threading.RLock() if is_sqlite(self.url) and not in_memory(self.url) else nullcontext()
        )
        self.groups = GroupCommit(self._write_group)
        """The appends waiting to be written, and how they are written together."""
        self._events_connection: Connection | None = None
        """The connection the groups of events are written on (:meth:`_write_events`),
        kept open from one group to the next (one group is written at a time)."""
        try:
            self.engine = make_engine(self.url)
            migrate(self.engine)
        except (SQLAlchemyError, OSError, ImportError) as exc:
            raise DatabaseError(f"cannot open the database: {reason(exc, self.url)}") from None
        if self.postgresql:
            self._notifier = PostgresNotifier(psycopg_arguments(self.url), self._origin)
        # an event's insert in the database's own words, made once: sent as it is, it
        # skips SQLAlchemy's statement cache and parameter work at every action (issue
        # 34; its columns are text and numbers, which need no conversion)
        compiled = insert(events).compile(dialect=self.engine.dialect)
        self._insert_event = compiled.string
        self._insert_order = compiled.positiontup
        """The parameters' order where the driver takes them by position (SQLite), else
        None (by name: PostgreSQL's)."""

    def _event_parameters(self, row: dict[str, Any]) -> dict[str, Any] | tuple[Any, ...]:
        """An event's row as the driver takes it (:attr:`_insert_order`)."""
        order = self._insert_order
        return row if order is None else tuple(row[name] for name in order)

    @property
    def postgresql(self) -> bool:
        return not is_sqlite(self.url)

    @property
    def shared(self) -> bool:
        """Whether other processes may write to this database (any but one in memory)."""
        return not in_memory(self.url)

    @contextmanager
    def _write(self) -> Iterator[Connection]:
        """A writing transaction. On a SQLite file it begins ``IMMEDIATE``: it takes the
        write lock first (waiting for another process's writer up to the busy timeout,
        :func:`~.db.make_engine`), so a transaction that reads before it writes never
        finds its snapshot overtaken at its first write ("database is locked" at once,
        whatever the timeout); this process's writers take turns before that."""
        with self._lock, self._writer, self.engine.connect() as connection:
            if is_sqlite(self.url):
                connection = connection.execution_options(immediate=True)
            with connection.begin():
                yield connection

    @contextmanager
    def _read(self) -> Iterator[Connection]:
        with self._lock, self.engine.connect() as connection:
            yield connection

    @contextmanager
    def _glance(self) -> Iterator[Connection]:
        """A connection for one read statement, a transaction by itself: no ``BEGIN``
        and ``ROLLBACK`` around it (round trips to PostgreSQL, which answers it in
        autocommit mode)."""
        with self._lock, self.engine.connect() as connection:
            if self.postgresql:
                connection = connection.execution_options(isolation_level="AUTOCOMMIT")
            else:
                connection = connection.execution_options(single=True)
            yield connection

    def writing(self) -> AbstractContextManager[Connection]:
        """A connection in a transaction, for the stores of the other tables over this
        database (:mod:`.players`): committed at the end, rolled back on an error."""
        return self._write()

    def reading(self) -> AbstractContextManager[Connection]:
        """A connection to read from, for the stores of the other tables."""
        return self._read()

    def _notify(self, game_id: str, seq: int) -> None:
        """On PostgreSQL, tell every listening process, once the change has committed
        (:class:`PostgresNotifier`: why not in the writing transaction)."""
        if self._notifier is not None:
            self._notifier.note(game_id, seq)

    # -- writing ------------------------------------------------------------------------

    def create(
        self,
        game_id: str,
        spec: dict[str, Any],
        seats: list[StoredSeat],
        actions: Sequence[str] = (),
        fingerprint: str | None = None,
        created: float | None = None,
        bindings: dict[int, str] | None = None,
    ) -> None:
        """Store a new game, with ``actions`` already played (an imported record), at once;
        ``fingerprint``: the record it is made from (ConflictError if a game has it);
        ``created``: its creation time (default now; the service's clock). A game with a
        clock (``spec["clock"]``) and no actions is marked ``running_clock``.
        ``bindings``: seat -> player id, stored in ``game_players`` in the same transaction
        (a player not in the database is left out: its seat stays unbound)."""
        now = time.time() if created is None else created
        with self._write() as connection:
            try:
                connection.execute(
                    insert(games).values(
                        id=game_id,
                        created=now,
                        spec=json.dumps(spec),
                        seats=json.dumps(seats),
                        fingerprint=fingerprint,
                        running_clock=spec.get("clock") is not None and not actions,
                    )
                )
            except IntegrityError as exc:
                if fingerprint is not None and is_unique_violation(exc):
                    raise ConflictError(f"a game was made from record {fingerprint}") from None
                raise
            if actions:
                connection.execute(
                    insert(events),
                    [
                        {"game_id": game_id, "seq": seq, "action": a, "seat": None, "created": now}
                        for seq, a in enumerate(actions)
                    ],
                )
            if bindings:
                self._bind(connection, game_id, bindings)

    @staticmethod
    def _bind(connection: Connection, game_id: str, bindings: dict[int, str]) -> None:
        """Bind seats to their players (those the database knows)."""
        known = set(
            connection.execute(
                select(players.c.id).where(players.c.id.in_(set(bindings.values())))
            ).scalars()
        )
        rows = [
            {"game_id": game_id, "seat": seat, "player_id": player_id}
            for seat, player_id in sorted(bindings.items())
            if player_id in known
        ]
        if rows:
            connection.execute(insert(game_players), rows)

    def bindings(self, game_id: str) -> dict[int, str]:
        """The game's seats bound to players (``game_players``): seat -> player id."""
        with self._read() as connection:
            rows = connection.execute(
                select(game_players.c.seat, game_players.c.player_id).where(
                    game_players.c.game_id == game_id
                )
            ).all()
        return {int(seat): str(player_id) for seat, player_id in rows}

    def player_games(self, player_id: str, limit: int = 50) -> list[tuple[StoredGame, int]]:
        """The unfinished games (no result yet) where ``player_id`` holds a seat, newest
        first: each game's creation row (no events) and the player's seat."""
        query = (
            select(games.c.id, games.c.created, games.c.spec, games.c.seats, game_players.c.seat)
            .join(game_players, game_players.c.game_id == games.c.id)
            .outerjoin(results, results.c.game_id == games.c.id)
            .where(game_players.c.player_id == player_id, results.c.game_id.is_(None))
            .order_by(games.c.created.desc(), games.c.id)
            .limit(limit)
        )
        with self._read() as connection:
            rows = connection.execute(query).all()
        return [
            (
                StoredGame(row.id, row.created, json.loads(row.spec), json.loads(row.seats), []),
                int(row.seat),
            )
            for row in rows
        ]

    def player_game_ids(self, player_id: str, limit: int = 100) -> list[tuple[str, float]]:
        """The games where ``player_id`` holds a seat, finished or not, newest first:
        ids and creation times (issue 30: the home page lists one's own games)."""
        query = (
            select(games.c.id, games.c.created)
            .join(game_players, game_players.c.game_id == games.c.id)
            .where(game_players.c.player_id == player_id)
            .distinct()
            .order_by(games.c.created.desc(), games.c.id)
            .limit(limit)
        )
        with self._read() as connection:
            rows = connection.execute(query).all()
        return [(row.id, row.created) for row in rows]

    def update_seats(
        self,
        game_id: str,
        before: list[StoredSeat],
        after: list[StoredSeat],
        bind: dict[int, str] | None = None,
    ) -> bool:
        """Replace a game's seats if they are still ``before`` (a claimed invitation);
        False if another writer changed them first, so an invitation is claimed once.
        ``bind``: seat -> player id bound in the same transaction (``game_players``),
        only if the seats were replaced."""
        later = games.alias("later")
        stamp = select(func.coalesce(func.max(later.c.stamp), 0) + 1).scalar_subquery()
        with self._write() as connection:
            changed = connection.execute(
                update(games)
                .where(games.c.id == game_id, games.c.seats == json.dumps(before))
                .values(seats=json.dumps(after), stamp=stamp)
            ).rowcount
            if changed == 1 and bind:
                self._bind(connection, game_id, bind)
            head = self._head(connection, game_id) if changed == 1 else 0
        if changed == 1:
            self._notify(game_id, head)
        return changed == 1

    def append(
        self,
        game_id: str,
        seq: int,
        action: str,
        seat: int | None,
        at: float | None = None,
        ends: bool = False,
    ) -> None:
        """Store event ``seq`` (0-based); ConflictError if that number is taken, by this
        process or another. ``at``: its time (default now; the service's clock). ``ends``:
        the event ends the game, whose clock stops (``running_clock`` cleared in the same
        transaction)."""
        pending = self._pending(game_id, seq, action, seat, at, ends)
        self.groups.commit([pending])
        self._answer(pending)

    async def append_async(
        self,
        game_id: str,
        seq: int,
        action: str,
        seat: int | None,
        at: float | None = None,
        ends: bool = False,
    ) -> None:
        """:meth:`append` for the event loop, which it never blocks: the event goes to
        the store's writer thread (:meth:`.groups.GroupCommit.hand_over`). Cancelling
        the caller does not cancel the write."""
        pending = self._pending(game_id, seq, action, seat, at, ends)
        loop = asyncio.get_running_loop()
        written: asyncio.Future[None] = loop.create_future()
        self.groups.hand_over(pending, loop, written)
        await asyncio.shield(written)
        self._answer(pending)

    def _pending(
        self,
        game_id: str,
        seq: int,
        action: str,
        seat: int | None,
        at: float | None,
        ends: bool,
    ) -> Append:
        """An event to write, noted as this store's (before its row exists, so the feed
        never reports it here as another process's)."""
        with self._mine_lock:
            before = self._mine.get(game_id)
            self._mine[game_id] = max(before or 0, seq + 1)
        row = {
            "game_id": game_id,
            "seq": seq,
            "action": action,
            "seat": seat,
            "created": time.time() if at is None else at,
        }
        return Append(row, ends, mine_before=before)

    @staticmethod
    def _answer(pending: Append) -> None:
        """After its group's write: raise why the event was not written (ConflictError:
        its seq was taken), if it was not."""
        if pending.written:
            return
        game_id, seq = pending.row["game_id"], pending.row["seq"]
        error = pending.error or DatabaseError("the event's group was not written")
        if isinstance(error, IntegrityError) and is_unique_violation(error):
            raise ConflictError(f"event {seq} of game {game_id} exists") from None
        raise error

    def _write_group(self, group: list[Append]) -> None:
        """Write a group of events (:meth:`_write_each`); then tell the other processes
        of each one written, and forget each one not written as this store's (the row
        that exists is another's: news to this store after all). In the thread that
        writes, so that a caller that stopped waiting leaves nothing wrong behind."""
        try:
            self._write_each(group)
        finally:
            for each in group:
                game_id, seq = each.row["game_id"], each.row["seq"]
                if each.written:
                    self._notify(game_id, seq + 1)
                    continue
                with self._mine_lock:
                    if each.mine_before is None:
                        self._mine.pop(game_id, None)
                    else:
                        self._mine[game_id] = each.mine_before

    def _write_each(self, group: list[Append]) -> None:
        """Write a group of events in one transaction; if it fails (an event another
        process took first, the database down), each is written alone again, so that
        each gets its own answer. Sets each one's :attr:`~Append.error`, never raises."""
        if len(group) > 1:
            try:
                self._write_events(group)
            except Exception:  # each is tried alone below, with its own answer
                pass
            else:
                for each in group:
                    each.written = True
                return
        for each in group:
            try:
                self._write_events([each])
            except Exception as exc:
                each.error = exc
            else:
                each.written = True

    def _write_events(self, group: list[Append]) -> None:
        """Insert the events (and stop the clocks of the games they end) in one
        transaction. A kept connection found gone (the database restarted, the
        connection cut) is replaced and the group written once more on the new one."""
        ended = [each.row["game_id"] for each in group if each.ends]
        rows = [self._event_parameters(each.row) for each in group]
        for attempt in range(2):
            kept = self._events_connection is not None
            try:
                with self._write_kept() as connection:
                    connection.exec_driver_sql(
                        self._insert_event, rows[0] if len(rows) == 1 else rows
                    )
                    if ended:
                        connection.execute(
                            update(games).where(games.c.id.in_(ended)).values(running_clock=False)
                        )
                return
            except DBAPIError as exc:
                if attempt or not kept or not exc.connection_invalidated:
                    raise

    @contextmanager
    def _write_kept(self) -> Iterator[Connection]:
        """:meth:`_write` on the events' own connection (issue 34, cheaper actions: no
        pool checkout, check-in and liveness ping per group), opened when first needed
        and after a failure; a database in memory, one connection shared by all, has
        none of its own."""
        if not self.shared:
            with self._write() as connection:
                yield connection
            return
        with self._lock, self._writer:
            kept = self._events_connection
            if kept is None:
                kept = self.engine.connect()
                if is_sqlite(self.url):
                    kept = kept.execution_options(immediate=True)
                self._events_connection = kept
            try:
                with kept.begin():
                    yield kept
            except BaseException:
                self._events_connection = None
                with suppress(Exception):
                    kept.close()
                raise

    def _close_kept(self) -> None:
        """Close the events' connection (before the pool is disposed of)."""
        with self.groups.idle():  # a group being written finishes first
            connection, self._events_connection = self._events_connection, None
        if connection is not None:
            with suppress(Exception):
                connection.close()

    # -- reading ------------------------------------------------------------------------

    def load(self, game_id: str) -> StoredGame | None:
        with self._read() as connection:
            row = connection.execute(
                select(games.c.id, games.c.created, games.c.spec, games.c.seats).where(
                    games.c.id == game_id
                )
            ).one_or_none()
            if row is None:
                return None
            stored = connection.execute(
                select(events.c.action, events.c.created)
                .where(events.c.game_id == game_id)
                .order_by(events.c.seq)
            ).all()
        return StoredGame(
            row.id,
            row.created,
            json.loads(row.spec),
            json.loads(row.seats),
            [event.action for event in stored],
            [float(event.created) for event in stored],
        )

    _newest_seq = select(func.max(events.c.seq)).where(events.c.game_id == bindparam("game_id"))
    """Built once: a read before every view (:meth:`head`) pays the query, not its making."""

    @classmethod
    def _head(cls, connection: Connection, game_id: str) -> int:
        last = connection.execute(cls._newest_seq, {"game_id": game_id}).scalar()
        return 0 if last is None else int(last) + 1

    def head(self, game_id: str) -> int:
        """The game's number of stored actions: the seq its next event takes (the
        service's ``seq``); 0 for none, or no such game. One read of the primary key's
        index (its last entry for the game), before every view of a game in memory
        (:meth:`~.service.GameService.level`)."""
        with self._glance() as connection:
            return self._head(connection, game_id)

    def heads(self, game_ids: Sequence[str]) -> dict[str, int]:
        """:meth:`head` of several games in one query (a game with no events: absent)."""
        if not game_ids:
            return {}
        with self._read() as connection:
            rows = connection.execute(
                select(events.c.game_id, func.max(events.c.seq))
                .where(events.c.game_id.in_(list(game_ids)))
                .group_by(events.c.game_id)
            ).all()
        return {str(game_id): int(last) + 1 for game_id, last in rows}

    def analysis(
        self, game_id: str, actions: int, version: int, depth: str
    ) -> dict[str, Any] | None:
        """The kept analysis of the game's first ``actions`` actions at ``depth`` (None:
        not yet)."""
        with self._read() as connection:
            found = connection.execute(
                select(analyses.c.report).where(
                    analyses.c.game_id == game_id,
                    analyses.c.actions == actions,
                    analyses.c.version == version,
                    analyses.c.depth == depth,
                )
            ).scalar()
        return None if found is None else dict(json.loads(found))

    def keep_analysis(
        self, game_id: str, actions: int, version: int, depth: str, report: dict[str, Any]
    ) -> None:
        """Keep an analysis made at ``depth``; one already kept (another process was as
        quick) stays."""
        row = {
            "game_id": game_id,
            "actions": actions,
            "version": version,
            "depth": depth,
            "report": json.dumps(report),
            "created": time.time(),
        }
        try:
            with self._write() as connection:
                connection.execute(insert(analyses), row)
        except IntegrityError as exc:
            if not is_unique_violation(exc):
                raise

    def games_page(self, offset: int, limit: int) -> list[tuple[str, list[StoredSeat]]]:
        """A page of games, newest first, with their seats (to page through every game
        without loading their events)."""
        with self._read() as connection:
            rows = connection.execute(
                select(games.c.id, games.c.seats)
                .order_by(games.c.created.desc(), games.c.id)
                .offset(offset)
                .limit(limit)
            ).all()
        return [(row.id, json.loads(row.seats)) for row in rows]

    def events_after(self, game_id: str, seq: int) -> list[str]:
        """The actions stored after the first ``seq`` (those another process added to a
        game this one holds at ``seq``), in order."""
        with self._read() as connection:
            return list(
                connection.execute(
                    select(events.c.action)
                    .where(events.c.game_id == game_id, events.c.seq >= seq)
                    .order_by(events.c.seq)
                ).scalars()
            )

    def running_clocks(self) -> list[str]:
        """The ids of the games whose clock runs (``running_clock``: clocked, not ended),
        to set their timers at start-up; an index reads them, however many have ended."""
        with self._read() as connection:
            return list(
                connection.execute(select(games.c.id).where(games.c.running_clock)).scalars()
            )

    def stop_clock(self, game_id: str) -> None:
        """Clear a game's ``running_clock`` (found ended without it cleared: a game that
        ended before the flag existed)."""
        with self._write() as connection:
            connection.execute(
                update(games).where(games.c.id == game_id).values(running_clock=False)
            )

    def made_from(self, fingerprint: str) -> str | None:
        """The game made from the record of this fingerprint (None: none)."""
        with self._read() as connection:
            found = connection.execute(
                select(games.c.id).where(games.c.fingerprint == fingerprint)
            ).scalar()
        return None if found is None else str(found)

    def seats(self, game_id: str) -> list[StoredSeat] | None:
        """The game's seats as stored now (None: no such game)."""
        with self._read() as connection:
            found = connection.execute(select(games.c.seats).where(games.c.id == game_id)).scalar()
        return None if found is None else list(json.loads(found))

    def list_ids(self, limit: int = 200, unfinished: bool = False) -> list[tuple[str, float]]:
        """The newest games' ids and creation times, newest first; ``unfinished``: only
        games without a result (:data:`~.db.results`: still being played)."""
        query = select(games.c.id, games.c.created)
        if unfinished:
            query = query.outerjoin(results, results.c.game_id == games.c.id).where(
                results.c.game_id.is_(None)
            )
        with self._read() as connection:
            rows = connection.execute(query.order_by(games.c.created.desc()).limit(limit)).all()
        return [(row.id, row.created) for row in rows]

    # -- other processes ------------------------------------------------------------------

    def _is_mine(self, game_id: str, seq: int) -> bool:
        """Whether this store wrote that change itself (then it is no news here)."""
        with self._mine_lock:
            written = self._mine.get(game_id, 0)
            if written <= seq:
                self._mine.pop(game_id, None)
            return written >= seq

    def watch(self, on_change: OnChange) -> None:
        """Call ``on_change(game_id, seq)`` from a thread of the feed's for each change
        another process makes (an action, a claimed seat), until :meth:`close`. An
        in-memory database has no other process: nothing to follow."""
        if self._feed is not None or in_memory(self.url):
            return
        feed: Feed
        if self.postgresql:
            feed = PostgresListener(psycopg_arguments(self.url), on_change, self._origin)
        else:
            feed = SqlitePoller(self.engine, on_change, self.poll_interval, self._is_mine)
        self._feed = feed
        feed.start()

    def unwatch(self) -> None:
        """Stop the change feed (the store stays open)."""
        if self._feed is not None:
            self._feed.stop()
            self._feed = None

    def flush_notes(self, timeout: float = 5.0) -> bool:
        """Wait until the other processes have been told of every write so far (PostgreSQL;
        at once elsewhere); False after ``timeout`` seconds."""
        return self._notifier.flush(timeout) if self._notifier is not None else True

    def close(self) -> None:
        """Send the last change notes, stop the change feed and close the connections."""
        if self._notifier is not None:
            self._notifier.close()
        self.unwatch()
        self.groups.close()  # what the loops handed over is written first
        self._close_kept()
        self.engine.dispose()


SECRET_KEY = "secret_key"
"""The row of the settings table holding the key that signs the session cookies."""


def secret_key(store: EventStore) -> str:
    """The key that signs the session cookies: made once, at random, and kept in the
    database, so that every server process over it accepts the others' cookies."""
    with store.reading() as connection:
        found = connection.execute(
            select(settings.c.value).where(settings.c.key == SECRET_KEY)
        ).scalar()
    if found is not None:
        return str(found)
    try:
        with store.writing() as connection:
            connection.execute(insert(settings).values(key=SECRET_KEY, value=secrets.token_hex(32)))
    except IntegrityError as exc:  # another process made it first: theirs is the key
        if not is_unique_violation(exc):
            raise
    with store.reading() as connection:
        return str(
            connection.execute(
                select(settings.c.value).where(settings.c.key == SECRET_KEY)
            ).scalar_one()
        )
