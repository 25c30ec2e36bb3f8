"""The event store: one row per game event, ordered by sequence number (SQLite).

A game is its creation row (variant, seats, seed, house rules, mode) plus its events; the
state is rebuilt by replaying them, so a restart, even after SIGKILL, loses nothing that
was acknowledged. The primary key (game, seq) makes two writers racing for the same
sequence number impossible: the second insert fails and its action is refused.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    created REAL NOT NULL,
    spec TEXT NOT NULL,
    seats TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    game_id TEXT NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    seat INTEGER,
    created REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


class ConflictError(Exception):
    """Another action took this sequence number first."""


@dataclass(frozen=True)
class StoredGame:
    """A game's creation row and its events in order."""

    id: str
    created: float
    spec: dict[str, Any]
    seats: list[dict[str, Any]]
    actions: list[str]


def sqlite_path(database_url: str) -> str:
    """The file of a ``sqlite:///path`` URL (``sqlite://`` alone: in memory)."""
    if not database_url.startswith("sqlite://"):
        raise ValueError(f"only sqlite:/// URLs are supported, not {database_url!r}")
    path = database_url[len("sqlite://") :]
    if path.startswith("/"):  # sqlite:///rel.db -> rel.db, sqlite:////abs.db -> /abs.db
        path = path[1:]
    return path or ":memory:"


class EventStore:
    """SQLite event store; one connection guarded by a lock (SQLite serialises writes)."""

    def __init__(self, database_url: str) -> None:
        path = sqlite_path(database_url)
        if path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.executescript(SCHEMA)
        self._lock = threading.Lock()

    def create(self, game_id: str, spec: dict[str, Any], seats: list[dict[str, Any]]) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, spec, seats) VALUES (?, ?, ?, ?)",
                (game_id, time.time(), json.dumps(spec), json.dumps(seats)),
            )

    def update_seats(
        self, game_id: str, before: list[dict[str, Any]], after: list[dict[str, Any]]
    ) -> bool:
        """Replace a game's seats if they are still ``before`` (a claimed invitation);
        False if another writer changed them first, so an invitation is claimed once."""
        with self._lock:
            cursor = self._db.execute(
                "UPDATE games SET seats = ? WHERE id = ? AND seats = ?",
                (json.dumps(after), game_id, json.dumps(before)),
            )
            return cursor.rowcount == 1

    def append(self, game_id: str, seq: int, action: str, seat: int | None) -> None:
        """Store event ``seq`` (0-based); ConflictError if that number is taken."""
        with self._lock:
            try:
                self._db.execute(
                    "INSERT INTO events (game_id, seq, action, seat, created) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (game_id, seq, action, seat, time.time()),
                )
            except sqlite3.IntegrityError:
                raise ConflictError(f"event {seq} of game {game_id} exists") from None

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, created, spec, seats FROM games WHERE id = ?", (game_id,)
            ).fetchone()
            if row is None:
                return None
            actions = [
                a
                for (a,) in self._db.execute(
                    "SELECT action FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
                )
            ]
        return StoredGame(row[0], row[1], json.loads(row[2]), json.loads(row[3]), actions)

    def list_ids(self, limit: int = 200) -> list[tuple[str, float]]:
        with self._lock:
            return [
                (r[0], r[1])
                for r in self._db.execute(
                    "SELECT id, created FROM games ORDER BY created DESC LIMIT ?", (limit,)
                )
            ]

    def close(self) -> None:
        with self._lock:
            self._db.close()
