"""The change feed: news of every game another process changed, for the watchers here.

Each server process keeps the games it serves in memory; when another process stores an
action (or a claimed seat) in the same database, the feed calls ``on_change(game_id,
seq)`` (``seq``: the game's number of actions now) from a thread of its own, and the
service refreshes that game and tells its watchers. On PostgreSQL it is ``LISTEN`` on a
connection of its own (every write sends ``NOTIFY`` in its own transaction, so a note
means a committed change); on SQLite a light poller reads the rows added since its last
look, a few times a second. Changes this process made itself are not reported.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from sqlalchemy import Engine, text

from mathable.web.infra.db import CHANNEL

log = logging.getLogger(__name__)

OnChange = Callable[[str, int], None]
"""``on_change(game_id, seq)``: the game changed; it has ``seq`` actions now."""


class Feed:
    """A daemon thread delivering changes until :meth:`stop`."""

    def __init__(self, on_change: OnChange) -> None:
        self.on_change = on_change
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=type(self).__name__, daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)

    def _deliver(self, game_id: str, seq: int) -> None:
        try:
            self.on_change(game_id, seq)
        except Exception:  # a callback's failure must not end the feed
            log.exception("the change feed's callback failed for game %s", game_id)

    def _run(self) -> None:
        raise NotImplementedError


class SqlitePoller(Feed):
    """Polls a SQLite file: events by ``rowid`` (SQLite writes one at a time, so rowids
    grow in commit order) and games by their change ``stamp``."""

    def __init__(
        self,
        engine: Engine,
        on_change: OnChange,
        interval: float,
        mine: Callable[[str, int], bool],
    ) -> None:
        super().__init__(on_change)
        self.engine = engine
        self.interval = interval
        self.mine = mine
        with engine.connect() as connection:
            self.last_row = int(
                connection.execute(text("SELECT max(rowid) FROM events")).scalar() or 0
            )
            self.last_stamp = int(
                connection.execute(text("SELECT max(stamp) FROM games")).scalar() or 0
            )

    def poll(self) -> None:
        """One look: report what changed since the last."""
        with self.engine.connect() as connection:
            rows = connection.execute(
                text(
                    "SELECT game_id, max(seq), max(rowid) FROM events WHERE rowid > :last "
                    "GROUP BY game_id"
                ),
                {"last": self.last_row},
            ).all()
            claimed = connection.execute(
                text(
                    "SELECT g.id, g.stamp, (SELECT count(*) FROM events e WHERE e.game_id = g.id) "
                    "FROM games g WHERE g.stamp > :last"
                ),
                {"last": self.last_stamp},
            ).all()
        for game_id, seq, row in rows:
            self.last_row = max(self.last_row, int(row))
            if not self.mine(str(game_id), int(seq) + 1):
                self._deliver(str(game_id), int(seq) + 1)
        for game_id, stamp, count in claimed:
            self.last_stamp = max(self.last_stamp, int(stamp))
            self._deliver(str(game_id), int(count))

    def _run(self) -> None:
        while not self._stop.wait(self.interval):
            try:
                self.poll()
            except Exception:  # a busy or vanished file: try again at the next look
                log.exception("the SQLite change feed could not read the database")


class PostgresListener(Feed):
    """``LISTEN`` on its own connection; reconnects after a failure and then reports the
    games that changed while it was away (from the events' times, with a margin)."""

    def __init__(
        self, connect: dict[str, Any], on_change: OnChange, origin: str, channel: str = CHANNEL
    ) -> None:
        super().__init__(on_change)
        self.connect = connect
        self.origin = origin
        self.channel = channel
        """The channel listened to (the lobby's seeks have their own, :mod:`.lobby`)."""
        self.listening = threading.Event()

    def start(self) -> None:
        """Start, and wait (a few seconds at most) until the first ``LISTEN`` is in place,
        so no change made after this returns is missed."""
        super().start()
        self.listening.wait(10)

    def _note(self, payload: str) -> None:
        game_id, _, rest = payload.partition(" ")
        seq, _, origin = rest.partition(" ")
        if origin != self.origin and seq.isdigit():
            self._deliver(game_id, int(seq))

    def _catch_up(self, connection: Any, since: float) -> None:
        rows = connection.execute(
            "SELECT game_id, max(seq) + 1 FROM events WHERE created > %s GROUP BY game_id",
            (since - 5.0,),
        ).fetchall()
        for game_id, seq in rows:
            self._deliver(str(game_id), int(seq))

    def _run(self) -> None:
        import psycopg

        heard: float | None = None  # when the last connection last listened
        while not self._stop.is_set():
            try:
                with psycopg.connect(**self.connect, autocommit=True) as connection:
                    connection.execute(f"LISTEN {self.channel}")
                    if heard is not None:  # back after a failure: what was missed
                        self._catch_up(connection, heard)
                    self.listening.set()
                    while not self._stop.is_set():
                        heard = time.time()
                        for note in connection.notifies(timeout=0.25):
                            self._note(note.payload)
            except psycopg.Error as exc:
                log.warning("the PostgreSQL change feed lost its connection: %s", exc)
                heard = heard or time.time()
                self._stop.wait(1.0)


class PostgresNotifier:
    """Sends the ``NOTIFY`` of this process's writes once they have committed, from a
    thread of its own, several games in one transaction.

    Why not ``NOTIFY`` inside the writing transaction: PostgreSQL commits every notifying
    transaction under one global lock, held while its commit waits for the disk, so the
    commits of all actions (of every process) queue one behind another instead of being
    flushed together; on a busy machine that queue is most of an action's latency. Here
    the actions commit as plain inserts, and the notes go in a light transaction that
    need not wait for the disk (``synchronous_commit`` off: a note is news, not data).
    The price: a process killed between an action's commit and its note (a few
    milliseconds) leaves other processes' watchers of that game one action behind until
    its next action or their next reconnect; nothing stored is lost."""

    def __init__(self, connect: dict[str, Any], origin: str, channel: str = CHANNEL) -> None:
        self.connect = connect
        self.origin = origin
        self.channel = channel
        self._pending: dict[str, int] = {}  # game -> its newest seq to announce
        self._sending = False
        self._closed = False
        self._changed = threading.Condition()
        self._thread: threading.Thread | None = None

    def note(self, game_id: str, seq: int) -> None:
        """Announce that ``game_id`` has ``seq`` actions now (soon, not at once)."""
        with self._changed:
            if self._closed:
                return
            self._pending[game_id] = max(seq, self._pending.get(game_id, 0))
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="PostgresNotifier")
                self._thread.daemon = True
                self._thread.start()
            self._changed.notify_all()

    def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every note so far is sent; False if that took over ``timeout``."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while self._pending or self._sending:
                left = deadline - time.monotonic()
                if left <= 0 or self._thread is None:
                    return False
                self._changed.wait(left)
        return True

    def close(self) -> None:
        """Send what is pending (a few seconds at most), then stop."""
        self.flush()
        with self._changed:
            self._closed = True
            self._changed.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(5)

    def _next(self) -> dict[str, int] | None:
        """The notes to send now (waiting for some), or None once closed."""
        with self._changed:
            while not self._pending and not self._closed:
                self._changed.wait()
            if not self._pending:
                return None
            batch, self._pending = self._pending, {}
            self._sending = True
            return batch

    def _done(self, unsent: dict[str, int]) -> None:
        with self._changed:
            for game_id, seq in unsent.items():  # sent again with the next batch
                self._pending[game_id] = max(seq, self._pending.get(game_id, 0))
            self._sending = False
            self._changed.notify_all()

    def _run(self) -> None:
        import psycopg

        connection: Any = None
        while True:
            batch = self._next()
            if batch is None:
                break
            try:
                if connection is None or connection.closed:
                    connection = psycopg.connect(**self.connect, autocommit=True)
                    connection.execute("SET synchronous_commit TO off")
                with connection.transaction():
                    for game_id, seq in batch.items():
                        payload = f"{game_id} {seq} {self.origin}"
                        connection.execute("SELECT pg_notify(%s, %s)", (self.channel, payload))
                self._done({})
            except psycopg.Error as exc:
                log.warning("could not send the change notes to other processes: %s", exc)
                if connection is not None:
                    connection.close()
                connection = None
                self._done(batch)
                time.sleep(1.0)
        if connection is not None:
            connection.close()
