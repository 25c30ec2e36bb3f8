"""The event store on both databases (issue 13, items 3 and 4): one schema and behaviour
on SQLite and PostgreSQL, migrations that upgrade an older file in place, the change
feed between processes, and database URLs that never show their password.

Two stores over one database stand for two server processes.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from fastapi import FastAPI
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from mathable.cli.app import app as cli
from mathable.games.registry import new_game
from mathable.web.api import Settings, create_app
from mathable.web.infra.db import EXAMPLES, HEAD, DatabaseError, metadata, parse_url
from mathable.web.infra.store import ConflictError, EventStore, StoredSeat
from pg import Cluster
from support.waiting import eventually

SECRET = "s3cret-Pa55"

OLD_SCHEMA = """
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
"""The schema the store made before Alembic (issue 12's store.py, verbatim)."""


@pytest.fixture
def stores(database_url: str) -> Iterator[tuple[EventStore, EventStore]]:
    """Two stores over one database: two server processes."""
    first, second = EventStore(database_url), EventStore(database_url)
    try:
        yield first, second
    finally:
        first.close()
        second.close()


SEATS: list[StoredSeat] = [{"name": "Ann", "bot": None, "token_hash": None, "invite_hash": "x"}]


def test_events_are_stored_in_order_and_a_taken_seq_is_refused_in_any_process(
    stores: tuple[EventStore, EventStore],
) -> None:
    a, b = stores
    a.create("g", {"variant": "classic", "seed": 1}, SEATS)
    assert (a.head("g"), b.head("g"), a.head("nothing")) == (0, 0, 0)
    a.append("g", 0, "pass", 0)
    with pytest.raises(ConflictError):
        b.append("g", 0, "exchange 1", 1)  # another process took action 0 first
    b.append("g", 1, "end", 1)
    with pytest.raises(ConflictError):
        a.append("g", 1, "pass", 0)
    loaded = a.load("g")
    assert loaded is not None and loaded.actions == ["pass", "end"]
    assert loaded.spec == {"variant": "classic", "seed": 1} and loaded.seats == SEATS
    assert (a.head("g"), b.head("g")) == (2, 2)
    assert b.events_after("g", 0) == ["pass", "end"]
    assert b.events_after("g", 1) == ["end"] and b.events_after("g", 2) == []
    assert a.load("nothing") is None and a.seats("nothing") is None
    a.create("h", {"variant": "junior"}, SEATS, actions=["pass", "pass", "end"])
    assert b.events_after("h", 1) == ["pass", "end"]
    assert [game_id for game_id, _ in b.list_ids()] == ["h", "g"]
    assert b.heads(["g", "h", "nothing"]) == {"g": 2, "h": 3}
    assert [game_id for game_id, _ in b.games_page(1, 5)] == ["g"]
    assert b.list_ids(1)[0][0] == "h"


def test_events_go_on_after_the_writers_connection_was_cut(database_url: str) -> None:
    """The events are written on a connection kept from one append to the next (issue
    34, cheaper actions); cut under it (PostgreSQL restarted, every connection ended; a
    SQLite handle closed), the next append is written on a new one, nothing lost."""
    store = EventStore(database_url)
    try:
        store.create("g", {"variant": "classic", "seed": 1}, SEATS)
        store.append("g", 0, "pass", 0)
        kept = store._events_connection
        assert kept is not None  # kept after the append
        if database_url.startswith("postgresql"):
            with store.engine.connect() as other:
                other.exec_driver_sql(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
        else:
            kept.connection.dbapi_connection.close()  # type: ignore[union-attr]
        store.append("g", 1, "pass", 1)
        assert store._events_connection is not None and store._events_connection is not kept
        loaded = store.load("g")
        assert loaded is not None and loaded.actions == ["pass", "pass"]
    finally:
        store.close()
    assert store._events_connection is None  # closed with the store


def test_an_invitation_is_claimed_once_whichever_process_claims_it(
    stores: tuple[EventStore, EventStore],
) -> None:
    a, b = stores
    a.create("g", {"variant": "classic"}, SEATS)
    claimed: list[StoredSeat] = [{**SEATS[0], "token_hash": "mine"}]
    stolen: list[StoredSeat] = [{**SEATS[0], "token_hash": "theirs"}]
    assert a.update_seats("g", SEATS, claimed)
    assert not b.update_seats("g", SEATS, stolen)  # a conditional update: seen changed
    assert b.seats("g") == claimed


def test_the_change_feed_reports_other_processes_changes_only(
    stores: tuple[EventStore, EventStore],
) -> None:
    a, b = stores
    heard: list[tuple[str, int]] = []
    b.watch(lambda game_id, seq: heard.append((game_id, seq)))
    a.create("g", {"variant": "classic"}, SEATS)
    a.append("g", 0, "pass", 0)
    assert eventually(lambda: ("g", 1) in heard), heard
    b.append("g", 1, "pass", 0)  # its own: no news to b
    a.append("g", 2, "pass", 0)
    assert eventually(lambda: ("g", 3) in heard), heard
    assert ("g", 2) not in heard
    claimed: list[StoredSeat] = [{**SEATS[0], "token_hash": "t"}]
    assert a.update_seats("g", SEATS, claimed)  # a claimed seat
    assert eventually(lambda: heard.count(("g", 3)) == 2), heard


def test_a_migrated_database_has_exactly_the_stores_tables(database_url: str) -> None:
    store = EventStore(database_url)
    try:
        with store.engine.connect() as connection:
            context = MigrationContext.configure(connection)
            assert context.get_current_revision() == HEAD
            assert compare_metadata(context, metadata) == []
    finally:
        store.close()


def _old_database(path: Path) -> tuple[str, str, str]:
    """A SQLite file as the store made it before Alembic, with one game of classic
    between two people, one action played: its id, a seat's token, that action."""
    game = new_game("classic", ["Ann", "Bob"], seed=7)
    first = game.legal_actions()[0]
    token = "an-old-token"
    spec = {"variant": "classic", "seed": 7, "house_rules": {}, "rounds": 1, "mode": "screen"}
    seats = [
        {"name": name, "bot": None, "token_hash": hashlib.sha256(token.encode()).hexdigest()}
        for name in ("Ann", "Bob")
    ]
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute(
        "INSERT INTO games (id, created, spec, seats) VALUES (?, ?, ?, ?)",
        ("old", 1.0, json.dumps(spec), json.dumps(seats)),
    )
    db.execute(
        "INSERT INTO events VALUES (?, ?, ?, ?, ?)", ("old", 0, game.format_action(first), 0, 2.0)
    )
    db.commit()
    db.close()
    return "old", token, game.format_action(first)


def test_a_sqlite_file_from_before_alembic_upgrades_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    game_id, token, played = _old_database(path)
    store = EventStore(f"sqlite:///{path}")
    try:
        loaded = store.load(game_id)
        assert loaded is not None and loaded.actions == [played]
        assert store.head(game_id) == 1
    finally:
        store.close()
    db = sqlite3.connect(path)
    assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD,)]
    columns = {row[1] for row in db.execute("PRAGMA table_info(games)")}
    assert {"id", "created", "spec", "seats", "stamp"} <= columns
    db.close()
    client = TestClient(create_app(f"sqlite:///{path}"))  # the server goes on with it
    view = client.get(f"/api/games/{game_id}", params={"token": token}).json()
    assert view["seq"] == 1
    action = next(a for a in view["legal"] if "=" in a)
    answer = client.post(
        f"/api/games/{game_id}/actions", json={"token": token, "action": action, "seq": 1}
    )
    assert answer.status_code == 200, answer.text
    assert answer.json()["seq"] == 2


# -- URLs: checked, and never shown with their password ---------------------------------


def test_bad_database_urls_are_refused_in_one_line() -> None:
    for url in ("", "nonsense", "postgres://nobody", "mysql://root:" + SECRET + "@db/x"):
        with pytest.raises(DatabaseError) as refused:
            parse_url(url)
        message = str(refused.value)
        assert "\n" not in message and SECRET not in message and "postgresql://" in message
    with pytest.raises(DatabaseError, match="names no database"):
        parse_url(f"postgresql://u:{SECRET}@host")
    with pytest.raises(DatabaseError, match=r"takes no options after '\?' \(mode\)") as ignored:
        parse_url("sqlite:///games.db?mode=ro")  # the driver would open games.db, writable
    assert "\n" not in str(ignored.value)
    assert parse_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert parse_url("postgresql+psycopg://u:p@h/db").drivername == "postgresql+psycopg"


def test_an_unreachable_postgresql_is_refused_without_its_password(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = f"postgresql://someone:{SECRET}@127.0.0.1:1/games"
    with pytest.raises(DatabaseError) as refused:
        EventStore(url)
    assert SECRET not in str(refused.value) and "\n" not in str(refused.value)
    monkeypatch.setenv("DATABASE_URL", url)
    assert Settings().shown_database_url == "postgresql://someone:***@127.0.0.1:1/games"
    out = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert out.exit_code == 1
    assert len(out.stderr.splitlines()) == 1 and out.stderr.startswith("error: ")
    assert SECRET not in out.output and "Traceback" not in out.output
    assert "someone:***@127.0.0.1:1" in out.stderr


def test_a_sqlite_url_with_options_is_refused_before_any_file_is_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The driver ignored what follows ``?`` with a warning, and made the file."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///games.db?mode=ro")
    monkeypatch.setenv("MATHABLE_WORKERS", "0")
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, sockets=None: None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert out.exit_code == 1, out.output
    assert out.stderr.splitlines() == [
        "error: DATABASE_URL=sqlite:///games.db?mode=ro: a SQLite URL takes no options after "
        f"'?' (mode): write {EXAMPLES}"
    ]
    assert list(tmp_path.iterdir()) == []


def test_serve_on_postgresql_shows_the_url_without_its_password(
    postgres: Cluster, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DATABASE_URL", postgres.database())
    monkeypatch.setenv("MATHABLE_WORKERS", "0")

    def run(self: uvicorn.Server, sockets: list[Any] | None = None) -> None:
        for sock in sockets or ():
            sock.close()
        app = self.config.app
        assert isinstance(app, FastAPI)
        app.state.service.store.close()  # as the served process would at its end

    monkeypatch.setattr(uvicorn.Server, "run", run)
    out = CliRunner().invoke(cli, ["serve", "--port", "0"])
    assert out.exit_code == 0, out.output
    shown = f"games in postgresql://mathable:***@127.0.0.1:{postgres.port}/"
    assert shown in out.stdout.replace("\n", "")
    assert postgres.password not in out.output
